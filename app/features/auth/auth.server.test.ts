// Sign-in through better-auth's own HTTP handler, on both databases.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import { type Auth, authSecret, clientIpHeader, openAuth } from './auth.server.ts'
import { createUser } from './users.server.ts'

const siteUrl = 'http://canopy.test'

describe.each(databases)('sign-in: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	let auth: Auth
	let logs: Record<string, unknown>[]

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))
	beforeEach(async () => {
		logs = []
		const logger = createLogger('info', (line) => logs.push(JSON.parse(line)))
		auth = await openAuth({
			storage,
			database: storage.authDatabase,
			siteUrl,
			secret: await authSecret(storage),
			logger,
		})
	})

	afterEach(async () => {
		expect(logs.filter((entry) => entry.level === 'error')).toEqual([])
	})

	const signIn = (
		email: string,
		password: string,
		options: { ip?: string; origin?: string } = {},
	) =>
		auth.handler(
			new Request(`${siteUrl}/api/auth/sign-in/email`, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					Origin: options.origin ?? siteUrl,
					[clientIpHeader]: options.ip ?? '203.0.113.7',
				},
				body: JSON.stringify({ email, password }),
			}),
		)

	const editor = {
		email: 'Ana@Example.org',
		name: 'Ana Costa',
		role: 'editor',
		password: 'mangrove coastline 7',
	}

	it('creates an account that signs in with an HttpOnly, SameSite=Lax session cookie carrying its role', async () => {
		const created = await createUser(auth, storage, editor)
		expect(created).toMatchObject({ ok: true, user: { email: 'ana@example.org', role: 'editor' } })

		const response = await signIn('ana@example.org', editor.password)
		expect(response.status).toBe(200)
		const cookie = response.headers.get('set-cookie') ?? ''
		expect(cookie).toMatch(/^canopy\.session_token=[^;]+;/)
		expect(cookie).toContain('HttpOnly')
		expect(cookie).toContain('SameSite=Lax')
		expect(cookie).not.toContain('__Secure-')

		const session = await auth.api.getSession({
			headers: new Headers({ cookie: cookie.split(';')[0] ?? '' }),
		})
		expect(session?.user).toMatchObject({
			email: 'ana@example.org',
			name: 'Ana Costa',
			role: 'editor',
		})
	})

	it('stores only an scrypt hash at the OWASP floor', async () => {
		// Tests hash at the lowest cost (password.server.ts); a site hashes at 2^17.
		vi.stubEnv('NODE_ENV', 'production')
		try {
			await createUser(auth, storage, editor)
		} finally {
			vi.unstubAllEnvs()
		}
		const context = await auth.$context
		const user = await context.internalAdapter.findUserByEmail('ana@example.org', {
			includeAccounts: true,
		})
		const hash =
			user?.accounts.find((account) => account.providerId === 'credential')?.password ?? ''
		expect(hash).toMatch(/^scrypt\$17\$8\$1\$/)
		expect(hash).not.toContain(editor.password)
	})

	it('gives the same answer for a wrong password and for an unknown account', async () => {
		await createUser(auth, storage, editor)
		const wrong = await signIn('ana@example.org', 'not the password 1')
		const unknown = await signIn('nobody@example.org', 'not the password 1')
		expect(wrong.status).toBe(401)
		expect(unknown.status).toBe(wrong.status)
		expect(await unknown.json()).toEqual(await wrong.json())
		expect(wrong.headers.get('set-cookie')).toBeNull()
	})

	it('limits sign-in attempts from one address, counted in the database', async () => {
		await createUser(auth, storage, editor)
		const statuses: number[] = []
		for (let attempt = 0; attempt < 6; attempt++)
			statuses.push((await signIn('ana@example.org', 'wrong password 99')).status)
		expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
		// Another address is not held back by the first one's attempts (on another account: this
		// one has used up its own five attempts, wherever they came from).
		await createUser(auth, storage, { ...editor, email: 'ben@example.org' })
		expect((await signIn('ben@example.org', editor.password, { ip: '198.51.100.4' })).status).toBe(
			200,
		)
		expect((await signIn('ana@example.org', editor.password, { ip: '198.51.100.4' })).status).toBe(
			429,
		)
	})

	it('refuses a sign-in posted from another site', async () => {
		await createUser(auth, storage, editor)
		const response = await signIn('ana@example.org', editor.password, {
			origin: 'https://evil.example',
		})
		expect(response.status).toBe(403)
		expect(response.headers.get('set-cookie')).toBeNull()
	})

	it('refuses invalid accounts with a message per field, and a second account on one email', async () => {
		expect(
			await createUser(auth, storage, {
				email: 'not-an-email',
				name: '',
				role: 'owner',
				password: 'password1',
			}),
		).toEqual({
			ok: false,
			errors: {
				email: ['Enter an email address like name@example.org.'],
				name: ['Enter a name.'],
				role: ['The role must be admin or editor.'],
				password: [
					'This is one of the most common passwords, so it is easy to guess. Choose another.',
				],
			},
		})
		await createUser(auth, storage, editor)
		expect(await createUser(auth, storage, { ...editor, email: 'ANA@example.org' })).toEqual({
			ok: false,
			errors: { email: ['There is already an account with this email address.'] },
		})
	})

	it('has no public sign-up', async () => {
		const response = await auth.handler(
			new Request(`${siteUrl}/api/auth/sign-up/email`, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					Origin: siteUrl,
					[clientIpHeader]: '203.0.113.9',
				},
				body: JSON.stringify({
					email: 'x@example.org',
					password: 'long enough password',
					name: 'X',
					role: 'admin',
				}),
			}),
		)
		expect(response.status).toBeGreaterThanOrEqual(400)
		const context = await auth.$context
		expect(await context.internalAdapter.findUserByEmail('x@example.org')).toBeNull()
	})
})
