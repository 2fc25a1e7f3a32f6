// The editor area's door: nothing under /admin answers without a session, sign-in and sign-out
// work as a browser's plain form posts (no JavaScript needed), and refusals are what they say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { safeNext } from '#app/features/auth/session.server.ts'
import { createUser } from '#app/features/auth/users.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { postForm } from '#tests/fixtures/forms.ts'
import { routeTable } from '#tests/fixtures/route-table.ts'

const password = 'estuary salt marsh 12'

/** Every page path of the editor area, from the router's own table. */
async function adminPaths(): Promise<string[]> {
	const open = new Set([
		'admin/sign-in',
		'admin/sign-out',
		'admin/setup',
		'admin/forgot-password',
		'admin/reset-password',
		'admin/invite',
	])
	return (await routeTable())
		.map(({ path }) => `/${path.replace(/:[^/]+/g, 'x')}`)
		.filter((path) => /^\/admin(\/|$)/.test(path) && !open.has(path.slice(1)))
}

/** Every page path below the admins-only layout, from the router's own table. */
async function adminOnlyPaths(): Promise<string[]> {
	const table = await routeTable()
	const parentOf = new Map(table.map((route) => [route.id, route.parentId]))
	const layoutId = table.find((route) => route.id.endsWith('routes/admin/admin-only'))?.id
	if (!layoutId) throw new Error('The admins-only layout is not in the route table.')
	const within = (id: string | undefined): boolean =>
		id === undefined ? false : id === layoutId || within(parentOf.get(id))
	return table
		.filter((route) => route.id !== layoutId && within(route.id))
		.map(({ path }) => `/${path.replace(/:[^/]+/g, 'x')}`)
}

function post(
	app: TestApp,
	path: string,
	fields: Record<string, string>,
	headers: Record<string, string> = {},
) {
	return postForm(app, path, fields, { headers })
}

describe('the editor area', () => {
	let app: TestApp

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		expect(
			(
				await createUser(app.auth, app.storage, {
					email: 'ana@example.org',
					name: 'Ana Costa',
					role: 'editor',
					password,
				})
			).ok,
		).toBe(true)
	})
	afterAll(async () => {
		await app?.close()
	})

	it('sends every page of the route table to sign-in without a session', async () => {
		const paths = await adminPaths()
		expect(paths).toContain('/admin')
		for (const path of paths) {
			const response = await fetch(`${app.url}${path}`, { redirect: 'manual' })
			expect(response.status, path).toBe(302)
			expect(response.headers.get('location'), path).toBe(
				`/admin/sign-in?next=${encodeURIComponent(path)}`,
			)
		}
	})

	it('runs no loader of the editor area for someone not signed in, not even for a data request', async () => {
		const response = await fetch(`${app.url}/admin.data`, { redirect: 'manual' })
		const body = await response.text()
		expect(body).toContain('/admin/sign-in')
		// The editor home's loader would have put the article counts in the payload.
		expect(body).not.toContain('published')
	})

	it('sends an unknown editor-area address to sign in, and answers it 404 once signed in', async () => {
		const anonymous = await fetch(`${app.url}/admin/no-such-page`, { redirect: 'manual' })
		expect(anonymous.status).toBe(302)
		expect(anonymous.headers.get('location')).toBe('/admin/sign-in?next=%2Fadmin%2Fno-such-page')
		const signedIn = await post(app, '/admin/sign-in', { email: 'ana@example.org', password })
		const cookie = signedIn.headers
			.getSetCookie()
			.map((value) => value.split(';')[0])
			.join('; ')
		const missing = await fetch(`${app.url}/admin/no-such-page`, {
			headers: { Cookie: cookie },
			redirect: 'manual',
		})
		expect(missing.status).toBe(404)
		expect(await missing.text()).toContain('The editor area has no page at this address.')
	})

	it('answers a wrong password and an unknown account with the same words', async () => {
		const wrong = await post(app, '/admin/sign-in', {
			email: 'ana@example.org',
			password: 'not it at all 1',
		})
		const unknown = await post(app, '/admin/sign-in', {
			email: 'nobody@example.org',
			password: 'not it at all 1',
		})
		expect(wrong.status).toBe(401)
		expect(unknown.status).toBe(401)
		for (const html of [await wrong.text(), await unknown.text()]) {
			expect(html).toContain('That email address and password do not match an account.')
		}
		expect(wrong.headers.get('set-cookie')).toBeNull()
	})

	it('signs in from a plain form, shows who is signed in, and signs out for good', async () => {
		const signedIn = await post(app, '/admin/sign-in', {
			email: 'ana@example.org',
			password,
			next: '/admin',
		})
		expect(signedIn.status).toBe(302)
		expect(signedIn.headers.get('location')).toBe('/admin')
		const cookie = signedIn.headers
			.getSetCookie()
			.map((value) => value.split(';')[0])
			.join('; ')
		expect(cookie).toContain('canopy.session_token=')

		const home = await fetch(`${app.url}/admin`, {
			headers: { Cookie: cookie },
			redirect: 'manual',
		})
		expect(home.status).toBe(200)
		expect(await home.text()).toContain('Signed in as <strong>Ana Costa</strong> (editor)')
		const payload = await fetch(`${app.url}/admin.data`, { headers: { Cookie: cookie } })
		expect(await payload.text()).toContain('published')
		expect(
			(await fetch(`${app.url}/admin/sign-in`, { headers: { Cookie: cookie }, redirect: 'manual' }))
				.status,
		).toBe(302)

		const signedOut = await post(app, '/admin/sign-out', {}, { Cookie: cookie })
		expect(signedOut.status).toBe(302)
		expect(signedOut.headers.get('location')).toBe('/admin/sign-in?signed-out=1')
		// The old cookie is dead on the server, not just cleared in the browser.
		const after = await fetch(`${app.url}/admin`, {
			headers: { Cookie: cookie },
			redirect: 'manual',
		})
		expect(after.status).toBe(302)
	})

	it('follows only paths inside the editor area after sign-in', async () => {
		const response = await post(app, '/admin/sign-in', {
			email: 'ana@example.org',
			password,
			next: 'https://evil.example/',
		})
		expect(response.headers.get('location')).toBe('/admin')
		for (const next of [
			'https://evil.example/',
			'//evil.example',
			'/articles',
			'/adminx',
			'/admin//evil.example',
			null,
		]) {
			expect(safeNext(next), String(next)).toBe('/admin')
		}
		expect(safeNext('/admin/articles?status=draft')).toBe('/admin/articles?status=draft')
	})

	it('refuses a sign-in form posted from another site', async () => {
		const response = await post(
			app,
			'/admin/sign-in',
			{ email: 'ana@example.org', password },
			{ Origin: 'https://evil.example' },
		)
		expect(response.status).toBe(403)
		expect(response.headers.get('set-cookie')).toBeNull()
	})

	it('keeps the editor area out of public pages', async () => {
		const html = await (await fetch(`${app.url}/home`)).text()
		expect(html).not.toMatch(/assets\/(layout|sign-in|sign-out|index)-[^"]*\.js/)
	})
})

describe('the admins-only part of the editor area', () => {
	let app: TestApp
	const cookies = { admin: '', editor: '' }

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		for (const role of ['admin', 'editor'] as const) {
			const email = `${role}@example.org`
			expect(
				(await createUser(app.auth, app.storage, { email, name: role, role, password })).ok,
			).toBe(true)
			const signedIn = await post(app, '/admin/sign-in', { email, password })
			cookies[role] = signedIn.headers
				.getSetCookie()
				.map((value) => value.split(';')[0])
				.join('; ')
		}
	})
	afterAll(async () => {
		await app?.close()
	})

	it('answers an editor 403 on every page below the admins-only layout, and lets an admin in', async () => {
		const paths = await adminOnlyPaths()
		expect(paths).toEqual(expect.arrayContaining(['/admin/team', '/admin/settings']))
		for (const path of paths) {
			const editor = await fetch(`${app.url}${path}`, {
				headers: { Cookie: cookies.editor },
				redirect: 'manual',
			})
			expect(editor.status, path).toBe(403)
			// A page says so in its error page, as the page's main content (where "Skip to content"
			// leads); a download (redirects/export) in its body.
			const refusal = await editor.text()
			expect(refusal, path).toMatch(
				/<main id="main" tabindex="-1" class="page narrow"><title>For admins only|Only admins can open this part of the editor area/,
			)
			const posted = await post(app, path, { intent: 'invite' }, { Cookie: cookies.editor })
			expect(posted.status, `POST ${path}`).toBe(403)
			const admin = await fetch(`${app.url}${path}`, {
				headers: { Cookie: cookies.admin },
				redirect: 'manual',
			})
			// Pages still being built may answer 404; none may turn an admin away.
			expect(admin.status, path).not.toBe(403)
			expect(admin.status, path).toBeLessThan(500)
		}
	})

	it('puts no loader data of those pages in a data request by an editor', async () => {
		const response = await fetch(`${app.url}/admin/team.data`, {
			headers: { Cookie: cookies.editor },
		})
		expect(await response.text()).not.toContain('admin@example.org')
	})
})

describe('sign-in form limits', () => {
	it('answers the sixth attempt in 15 minutes with 429, Retry-After and words a person understands', async () => {
		const app = await startTestApp({ seed: false })
		try {
			const statuses: number[] = []
			let last: Response | undefined
			for (let attempt = 0; attempt < 6; attempt++) {
				last = await post(app, '/admin/sign-in', {
					email: 'ana@example.org',
					password: 'wrong password here',
				})
				statuses.push(last.status)
			}
			expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
			expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0)
			expect(await last?.text()).toMatch(/Too many attempts\. Try again in \d+ minutes\./)
		} finally {
			await app.close()
		}
	})
})
