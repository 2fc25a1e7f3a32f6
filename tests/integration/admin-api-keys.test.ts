// API keys from the admin page to the API's door, every admin API route behind it (walked from
// the router's own table), and the CLI still publishing through the same feature code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, makeKey, makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { articleFile } from '#tests/fixtures/factories.ts'
import { postForm } from '#tests/fixtures/forms.ts'
import { runCli } from '#tests/fixtures/process.ts'
import { routeTable } from '#tests/fixtures/route-table.ts'

/** Every admin API route from the router's table, as a path with its parameters filled in. */
async function apiRoutes(): Promise<{ file: string; path: string }[]> {
	return (await routeTable())
		.map(({ id, path }) => ({
			file: id,
			path: `/${path.replace(/:[^/]+/g, '1').replace('*', 'x')}`,
		}))
		.filter(({ path }) => path.startsWith('/api/admin/'))
}

/** A post of the API keys page's form, as a browser without JavaScript sends it. */
const postKeysForm = (app: TestApp, cookie: string, fields: Record<string, string>) =>
	postForm(app, '/admin/api-keys', fields, { cookie })

let app: TestApp
let adminId: string
let adminCookie: string
let editorCookie: string

beforeAll(async () => {
	app = await startTestApp({ seed: false })
	adminId = await makeUser(app, 'ada@example.org', 'admin', 'Ada Admin')
	await makeUser(app, 'eli@example.org', 'editor', 'Eli Editor')
	adminCookie = await signIn(app, 'ada@example.org')
	editorCookie = await signIn(app, 'eli@example.org')
})
afterAll(async () => {
	await app?.close()
})

describe('the admin API route table', () => {
	it('answers every admin API route 401 JSON without a session or key, for GET and POST', async () => {
		const routes = await apiRoutes()
		expect(routes.map(({ path }) => path)).toEqual(
			expect.arrayContaining([
				'/api/admin/articles',
				'/api/admin/articles/1/publish',
				'/api/admin/x',
			]),
		)
		for (const { path } of routes) {
			for (const method of ['GET', 'POST']) {
				const response = await callApi(app, path, null, { method })
				expect(response.status, `${method} ${path}`).toBe(401)
				expect(response.headers.get('content-type'), `${method} ${path}`).toMatch(
					/^application\/json/,
				)
				expect(response.headers.get('www-authenticate'), `${method} ${path}`).toMatch(/^Bearer /)
			}
		}
	})
})

describe('the API keys page', () => {
	it('turns an editor away with 403, before anything is created', async () => {
		const page = await fetch(`${app.url}/admin/api-keys`, {
			headers: { Cookie: editorCookie },
			redirect: 'manual',
		})
		expect(page.status).toBe(403)
		expect(await page.text()).toContain('Only admins can open this part of the editor area.')
		const before = (await app.storage.apiKeys.list()).length
		const post = await postKeysForm(app, editorCookie, { intent: 'create', name: 'Sneaky' })
		expect(post.status).toBe(403)
		expect(await app.storage.apiKeys.list()).toHaveLength(before)
	})

	it('creates a key that is shown once, works, and stops working once revoked', async () => {
		const created = await postKeysForm(app, adminCookie, {
			intent: 'create',
			name: 'Newsletter import',
		})
		expect(created.status).toBe(200)
		expect(created.headers.get('cache-control')).toBe('no-store')
		const html = await created.text()
		expect(html).toContain('Copy it now: it is shown only this once.')
		const key = /value="(cnp_[\w-]{43})"/.exec(html)?.[1] ?? ''
		expect(key).not.toBe('')

		const record = (await app.storage.apiKeys.list()).find(
			(item) => item.name === 'Newsletter import',
		)
		expect(record?.prefix).toBe(key.slice(0, 12))
		// Only a fingerprint is stored, never the key.
		const stored = await app.storage.authDatabase.db
			.selectFrom('api_keys')
			.selectAll()
			.where('id', '=', record?.id ?? 0)
			.executeTakeFirstOrThrow()
		expect(JSON.stringify(stored)).not.toContain(key)

		expect((await callApi(app, '/api/admin/articles', { key })).status).toBe(200)

		const list = await (
			await fetch(`${app.url}/admin/api-keys`, { headers: { Cookie: adminCookie } })
		).text()
		expect(list).not.toContain(key)
		expect(list).toContain(`${key.slice(0, 12)}…`)
		expect(list).toContain('Newsletter import')

		const confirm = await (
			await fetch(`${app.url}/admin/api-keys?revoke=${record?.id}`, {
				headers: { Cookie: adminCookie },
			})
		).text()
		expect(confirm).toContain('Revoke the key “Newsletter import”?')

		const revoked = await postKeysForm(app, adminCookie, {
			intent: 'revoke',
			id: String(record?.id),
		})
		expect(revoked.status).toBe(200)
		expect(await revoked.text()).toContain('The key “Newsletter import” is revoked.')
		expect((await callApi(app, '/api/admin/articles', { key })).status).toBe(401)

		const again = await postKeysForm(app, adminCookie, { intent: 'revoke', id: String(record?.id) })
		expect(again.status).toBe(404)
		expect(await again.text()).toContain('This key was revoked already, or no longer exists.')
	})

	it('answers a key without a name, or an unknown intent, with a message and no key', async () => {
		const before = (await app.storage.apiKeys.list()).length
		const unnamed = await postKeysForm(app, adminCookie, { intent: 'create', name: '  ' })
		expect(unnamed.status).toBe(400)
		const html = await unnamed.text()
		expect(html).toContain('Name the key after the script or service that will use it.')
		expect(html).toContain('aria-invalid="true"')
		const unknown = await postKeysForm(app, adminCookie, { intent: 'explode' })
		expect(unknown.status).toBe(400)
		expect(await unknown.text()).toContain('Choose to create a key or revoke one.')
		expect(await app.storage.apiKeys.list()).toHaveLength(before)
	})

	it('refuses a form posted from another site', async () => {
		const response = await fetch(`${app.url}/admin/api-keys`, {
			method: 'POST',
			headers: {
				Cookie: adminCookie,
				Origin: 'https://evil.example',
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			body: new URLSearchParams({ intent: 'create', name: 'Forged' }),
		})
		expect(response.status).toBe(403)
		expect((await app.storage.apiKeys.list()).some((key) => key.name === 'Forged')).toBe(false)
	})
})

describe('the CLI', () => {
	it('still publishes an article from a file, which the API then reads as published', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'canopy-cli-'))
		try {
			const file = join(dir, 'tidal-flats.md')
			writeFileSync(file, articleFile({ title: 'Tidal flats', slug: 'tidal-flats' }))
			const result = await runCli(['article:publish', file], app.env)
			expect(result.stderr).toBe('')
			expect(result.code).toBe(0)
			expect(result.stdout).toContain('Published: "Tidal flats" at /articles/tidal-flats')
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
		const key = await makeKey(app, adminId, 'CLI check')
		const list = await (await callApi(app, '/api/admin/articles?q=tidal', { key })).json()
		expect(list.items).toEqual([
			expect.objectContaining({
				slug: 'tidal-flats',
				status: 'published',
				url: `${app.url}/articles/tidal-flats`,
			}),
		])
	})
})
