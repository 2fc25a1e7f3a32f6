// The first admin, made from the one-time link a new site prints at start.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Auth } from '#app/features/auth/auth.server.ts'
import { createSetupLink } from '#app/features/auth/setup.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'

const admin = {
	name: 'Rosa Lima',
	email: 'rosa@example.org',
	password: 'seagrass meadows hold carbon',
}

describe('first-admin setup', () => {
	let app: TestApp
	let auth: Auth

	beforeEach(async () => {
		app = await startTestApp({ seed: false })
		auth = app.auth
	})
	afterEach(async () => {
		await app.close()
	})

	const submit = (link: string, fields: Record<string, string>) =>
		fetch(link, {
			method: 'POST',
			redirect: 'manual',
			headers: { Origin: app.url, 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(fields),
		})

	it('makes the first admin from the link, signs them in, and works only once', async () => {
		const link = (await createSetupLink(auth, app.url)) ?? ''
		expect(link).toMatch(new RegExp(`^${app.url}/admin/setup\\?token=[A-Za-z0-9_-]{43}$`))
		const form = await fetch(link)
		expect(form.status).toBe(200)
		expect(await form.text()).toContain('Make the admin account')

		// A mistake in the form does not spend the link.
		const refused = await submit(link, { ...admin, password: 'password123' })
		expect(refused.status).toBe(400)
		expect(await refused.text()).toContain('This is one of the most common passwords')
		expect((await fetch(link)).status).toBe(200)

		const made = await submit(link, admin)
		expect(made.status).toBe(302)
		expect(made.headers.get('location')).toBe('/admin')
		const cookie = made.headers
			.getSetCookie()
			.map((value) => value.split(';')[0])
			.join('; ')
		const home = await fetch(`${app.url}/admin`, {
			headers: { Cookie: cookie },
			redirect: 'manual',
		})
		expect(await home.text()).toContain('Signed in as <strong>Rosa Lima</strong> (admin)')

		const again = await submit(link, { ...admin, email: 'second@example.org' })
		expect(again.status).toBe(403)
		expect(await again.text()).toContain('This site is set up')
		expect(await createSetupLink(auth, app.url)).toBeUndefined()
	})

	it('refuses a wrong, a missing or an expired token', async () => {
		const context = await auth.$context
		await context.internalAdapter.createVerificationValue({
			identifier: 'canopy-setup:expired',
			value: 'first-admin',
			expiresAt: new Date(Date.now() - 1_000),
		})
		for (const path of ['/admin/setup?token=not-a-token', '/admin/setup']) {
			const response = await fetch(`${app.url}${path}`)
			expect(response.status, path).toBe(403)
			expect(await response.text()).toContain('This setup link does not work')
		}
		const posted = await submit(`${app.url}/admin/setup?token=not-a-token`, admin)
		expect(posted.status).toBe(403)
		expect(await context.internalAdapter.countTotalUsers()).toBe(0)
	})
})
