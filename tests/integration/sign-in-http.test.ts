// Sign-in as a browser reaches it: POST /api/auth/sign-in/email over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '#app/features/auth/users.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'

const password = 'estuary salt marsh 12'

async function withAccount(app: TestApp) {
	const created = await createUser(app.auth, app.storage, {
		email: 'ana@example.org',
		name: 'Ana',
		role: 'editor',
		password,
	})
	expect(created.ok).toBe(true)
}

function signIn(
	app: TestApp,
	body: { email: string; password: string },
	headers: Record<string, string> = {},
) {
	return fetch(`${app.url}/api/auth/sign-in/email`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Origin: app.url, ...headers },
		body: JSON.stringify(body),
	})
}

describe('sign-in over HTTP', () => {
	let app: TestApp

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		await withAccount(app)
	})
	afterAll(async () => {
		await app?.close()
	})

	it('signs in with a session cookie that later requests carry', async () => {
		const response = await signIn(app, { email: 'ana@example.org', password })
		expect(response.status).toBe(200)
		const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
		expect(cookie).toMatch(/^canopy\.session_token=/)
		const session = await fetch(`${app.url}/api/auth/get-session`, { headers: { Cookie: cookie } })
		expect(await session.json()).toMatchObject({
			user: { email: 'ana@example.org', role: 'editor' },
		})
	})

	it('refuses a sign-in from another site before better-auth sees it', async () => {
		const response = await signIn(
			app,
			{ email: 'ana@example.org', password },
			{ Origin: 'https://evil.example' },
		)
		expect(response.status).toBe(403)
		expect(response.headers.get('set-cookie')).toBeNull()
	})

	it('does not offer sign-up', async () => {
		const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Origin: app.url },
			body: JSON.stringify({ email: 'x@example.org', password: 'long enough password', name: 'X' }),
		})
		expect(response.status).toBeGreaterThanOrEqual(400)
		expect(response.status).toBeLessThan(500)
	})
})

describe('sign-in limits', () => {
	it('counts by the socket address, whatever X-Forwarded-For a client sends, and answers 429 with Retry-After', async () => {
		const app = await startTestApp({ seed: false })
		try {
			await withAccount(app)
			const statuses: number[] = []
			for (let attempt = 0; attempt < 6; attempt++) {
				const response = await signIn(
					app,
					{ email: 'ana@example.org', password: 'wrong password here' },
					{ 'X-Forwarded-For': `192.0.2.${attempt}` },
				)
				statuses.push(response.status)
				if (response.status === 429)
					expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
			}
			expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
		} finally {
			await app.close()
		}
	})

	it('believes X-Forwarded-For from a proxy named in TRUST_PROXY', async () => {
		const app = await startTestApp({ seed: false, trustProxy: '127.0.0.1' })
		try {
			await withAccount(app)
			const statuses: number[] = []
			for (let attempt = 0; attempt < 6; attempt++) {
				// The sixth is for another account: each account has its own limit of five too.
				const response = await signIn(
					app,
					{
						email: attempt < 5 ? 'ana@example.org' : 'ben@example.org',
						password: 'wrong password here',
					},
					{ 'X-Forwarded-For': attempt < 5 ? '198.51.100.1' : '198.51.100.2' },
				)
				statuses.push(response.status)
			}
			// Five from one visitor, then a different visitor behind the same proxy is not held back.
			expect(statuses).toEqual([401, 401, 401, 401, 401, 401])
			const sixth = await signIn(
				app,
				{ email: 'ana@example.org', password: 'wrong password here' },
				{ 'X-Forwarded-For': '198.51.100.1' },
			)
			expect(sixth.status).toBe(429)
		} finally {
			await app.close()
		}
	})
})
