// Sign-in limits per account (not only per address), and deactivated accounts, over real HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { signInLimitKey } from '#app/features/auth/sign-in-guard.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import {
	getPage,
	isSignedIn,
	makeAccount,
	postForm,
	signIn,
	teamPassword,
} from '#tests/fixtures/forms.ts'
import { databases } from '#tests/fixtures/storage.ts'

function apiSignIn(app: TestApp, email: string, password: string, ip: string) {
	return fetch(`${app.url}/api/auth/sign-in/email`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Origin: app.url, 'X-Forwarded-For': ip },
		body: JSON.stringify({ email, password }),
	})
}

// On both databases: instances share the counters, better-auth's per address among them.
describe.each(databases)('per-account sign-in limit: $name', ({ create }) => {
	let app: TestApp

	beforeEach(async () => {
		app = await startTestApp({ seed: false, trustProxy: '127.0.0.1', database: create })
		await makeAccount(app, 'ana@example.org', 'editor')
	})
	afterEach(async () => {
		await app.close()
	})

	/** Five wrong guesses spread over three addresses, then a sixth from a fourth address. */
	async function sixthAttempt(email: string, password = 'wrong guess number 1') {
		const ips = ['198.51.100.1', '198.51.100.1', '198.51.100.2', '198.51.100.2', '198.51.100.3']
		for (const ip of ips)
			expect((await apiSignIn(app, email, 'wrong guess 42', ip)).status).toBe(401)
		return apiSignIn(app, email, password, '203.0.113.50')
	}

	it('refuses the sixth attempt on one account from any address, with Retry-After, even with the right password', async () => {
		const sixth = await sixthAttempt('Ana@Example.org', teamPassword)
		expect(sixth.status).toBe(429)
		const retryAfter = Number(sixth.headers.get('retry-after'))
		expect(retryAfter).toBeGreaterThan(800)
		expect(retryAfter).toBeLessThanOrEqual(900)
		expect(sixth.headers.get('set-cookie')).toBeNull()
		// A different account from that same address is not held back.
		await makeAccount(app, 'ben@example.org', 'editor')
		expect((await apiSignIn(app, 'ben@example.org', teamPassword, '203.0.113.50')).status).toBe(200)
	})

	it('answers an unknown address exactly as it answers an account', async () => {
		const known = await sixthAttempt('ana@example.org')
		const unknown = await sixthAttempt('nobody@example.org')
		expect(unknown.status).toBe(429)
		expect(known.status).toBe(429)
		expect(await unknown.json()).toEqual(await known.json())
		expect(Number(unknown.headers.get('retry-after'))).toBeGreaterThan(0)
		// The counters hold a hash, never the address someone typed.
		const keys = await app.storage.authDatabase.db.selectFrom('rate_limits').select('key').execute()
		expect(keys.map((row) => row.key)).toContain(signInLimitKey('nobody@example.org'))
		expect(JSON.stringify(keys)).not.toContain('nobody')
	})

	it('shows the sign-in page the readable message and Retry-After', async () => {
		const ips = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5']
		for (const ip of ips) {
			const refused = await signIn(app, 'ana@example.org', 'wrong guess 42', {
				'X-Forwarded-For': ip,
			})
			expect(refused.status).toBe(401)
		}
		const page = await signIn(app, 'ana@example.org', teamPassword, {
			'X-Forwarded-For': '198.51.100.6',
		})
		expect(page.status).toBe(429)
		expect(Number(page.response.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(await page.response.text()).toContain('Too many attempts. Try again in 15 minutes.')
	})

	it('keeps letting the owner in from a browser that signed in before, while strangers are locked out', async () => {
		await makeAccount(app, 'ben@example.org', 'editor')
		const deviceOf = async (email: string, ip: string) => {
			const signedIn = await apiSignIn(app, email, teamPassword, ip)
			expect(signedIn.status).toBe(200)
			const cookie = signedIn.headers
				.getSetCookie()
				.find((line) => line.startsWith('canopy.device='))
			expect(cookie).toMatch(/HttpOnly/i)
			return (cookie ?? '').split(';')[0] ?? ''
		}
		const anasLaptop = await deviceOf('ana@example.org', '192.0.2.1')
		const bensLaptop = await deviceOf('ben@example.org', '192.0.2.2')

		// Someone guesses Ana's password five times: a new browser, hers too, must wait.
		expect((await sixthAttempt('ana@example.org', teamPassword)).status).toBe(429)
		const attempt = (cookie: string, password: string, ip: string) =>
			fetch(`${app.url}/api/auth/sign-in/email`, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					Origin: app.url,
					'X-Forwarded-For': ip,
					Cookie: cookie,
				},
				body: JSON.stringify({ email: 'ana@example.org', password }),
			})
		// Her laptop, which signed in before, still gets in.
		expect((await attempt(anasLaptop, teamPassword, '192.0.2.3')).status).toBe(200)
		// Another account's device cookie, or a changed one, counts for nothing.
		expect((await attempt(bensLaptop, teamPassword, '192.0.2.4')).status).toBe(429)
		const [name, value] = anasLaptop.split('=')
		const forged = `${name}=${(value ?? '').replace(/.(%2E|\.)/i, 'x$1')}`
		expect((await attempt(forged, teamPassword, '192.0.2.5')).status).toBe(429)
		// Guesses from her laptop are limited too, on their own count.
		for (let guess = 0; guess < 10; guess++)
			expect((await attempt(anasLaptop, 'wrong guess 42', `192.0.2.${10 + guess}`)).status).toBe(
				401,
			)
		expect((await attempt(anasLaptop, teamPassword, '192.0.2.30')).status).toBe(429)
	})

	it('lets a whole office sign in from one address, and still limits its wrong guesses', async () => {
		const office = '203.0.113.7'
		const colleagues = ['cleo', 'dev', 'eli', 'fay', 'gus', 'hal']
		for (const name of colleagues) await makeAccount(app, `${name}@example.org`, 'editor')
		for (const name of colleagues)
			expect((await apiSignIn(app, `${name}@example.org`, teamPassword, office)).status).toBe(200)
		// Five wrong guesses at five other accounts from that address, then it must wait.
		for (const name of ['ivy', 'jo', 'kim', 'lou', 'max'])
			expect((await apiSignIn(app, `${name}@example.org`, 'wrong guess 42', office)).status).toBe(
				401,
			)
		const sixth = await apiSignIn(app, 'ana@example.org', teamPassword, office)
		expect(sixth.status).toBe(429)
		// better-auth's own answer, given the standard Retry-After by the server (routes.ts).
		expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0)
	})

	it('forgets earlier mistakes once the owner signs in', async () => {
		for (let attempt = 0; attempt < 4; attempt++) {
			await apiSignIn(app, 'ana@example.org', 'wrong guess 42', `198.51.100.${attempt + 1}`)
		}
		expect((await apiSignIn(app, 'ana@example.org', teamPassword, '198.51.100.9')).status).toBe(200)
		for (let attempt = 0; attempt < 5; attempt++) {
			const response = await apiSignIn(
				app,
				'ana@example.org',
				'wrong guess 42',
				`198.51.100.${attempt + 10}`,
			)
			expect(response.status).toBe(401)
		}
	})
})

describe('deactivated accounts', () => {
	let app: TestApp
	let anaId: string
	let adminCookie: string

	beforeEach(async () => {
		app = await startTestApp({ seed: false })
		await makeAccount(app, 'rosa@example.org', 'admin', 'Rosa')
		anaId = await makeAccount(app, 'ana@example.org', 'editor', 'Ana')
		adminCookie = (await signIn(app, 'rosa@example.org', teamPassword)).cookie
	})
	afterEach(async () => {
		await app.close()
	})

	const setActive = (active: boolean) =>
		postForm(
			app,
			'/admin/team',
			{ intent: active ? 'reactivate' : 'deactivate', userId: anaId },
			{ cookie: adminCookie },
		)

	it('ends an open session at once, and signs in again once reactivated', async () => {
		const ana = await signIn(app, 'ana@example.org', teamPassword)
		expect(await isSignedIn(app, ana.cookie)).toBe(true)

		const done = await setActive(false)
		expect(done.status).toBe(200)
		expect(await done.text()).toContain('Ana is deactivated and signed out everywhere.')
		const next = await getPage(app, '/admin/articles', ana.cookie)
		expect(next.status).toBe(302)
		expect(next.headers.get('location')).toMatch(/^\/admin\/sign-in/)
		const sessions = await app.storage.authDatabase.db
			.selectFrom('session')
			.select('id')
			.where('userId', '=', anaId)
			.execute()
		expect(sessions).toEqual([])

		expect((await setActive(true)).status).toBe(200)
		expect((await signIn(app, 'ana@example.org', teamPassword)).status).toBe(302)
	})

	it('refuses a deactivated account exactly as a wrong password', async () => {
		await setActive(false)
		const ask = (password: string) =>
			fetch(`${app.url}/api/auth/sign-in/email`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Origin: app.url },
				body: JSON.stringify({ email: 'ana@example.org', password }),
			})
		const rightPassword = await ask(teamPassword)
		const wrongPassword = await fetch(`${app.url}/api/auth/sign-in/email`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Origin: app.url },
			body: JSON.stringify({ email: 'rosa@example.org', password: 'not her password 1' }),
		})
		expect(rightPassword.status).toBe(401)
		expect(wrongPassword.status).toBe(401)
		expect(await rightPassword.json()).toEqual(await wrongPassword.json())
		expect(rightPassword.headers.get('set-cookie')).toBeNull()

		const page = await signIn(app, 'ana@example.org', teamPassword)
		expect(page.status).toBe(401)
		expect(await page.response.text()).toContain(
			'That email address and password do not match an account.',
		)
	})
})
