// The staff accounts part of the storage contract: better-auth's tables (0002_auth) as the team
// page and the account commands read and write them, alike on both databases. The rule a change
// must pass comes from the caller and is judged inside the transaction, on committed rows.
import { describe, expect, it } from 'vitest'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import type { AccountRecord } from './port/accounts.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

const at = new Date('2026-11-20T10:00:00.000Z')

async function make(storage: Storage, id: string, role = 'editor', name = id): Promise<void> {
	await storage.accounts.create(
		{ id, name, email: `${id}@example.org`, role },
		{ id: `${id}-credential`, passwordHash: `hash-of-${id}` },
		at,
	)
}

async function sessionsOf(storage: Storage, userId: string): Promise<number> {
	const rows = await storage.authDatabase.db
		.selectFrom('session')
		.select('id')
		.where('userId', '=', userId)
		.execute()
	return rows.length
}

async function signIn(storage: Storage, userId: string): Promise<void> {
	const now = at.toISOString()
	await storage.authDatabase.db
		.insertInto('session')
		.values({
			id: `${userId}-${Math.random()}`,
			token: `${userId}-${Math.random()}`,
			userId,
			expiresAt: '2099-01-01T00:00:00.000Z',
			createdAt: now,
			updatedAt: now,
			ipAddress: null,
			userAgent: null,
		})
		.execute()
}

const allowAll = () => null

describe.each(databases)('accounts storage contract: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	it('makes an account with its password, and lists accounts by name, then address', async () => {
		await make(storage, 'zoe', 'admin', 'Zoe')
		await make(storage, 'ana', 'editor', 'Ana')
		const list = await storage.accounts.list()
		expect(list.map((account) => account.name)).toEqual(['Ana', 'Zoe'])
		expect(await storage.accounts.find('zoe')).toEqual({
			id: 'zoe',
			name: 'Zoe',
			email: 'zoe@example.org',
			role: 'admin',
			deactivatedAt: null,
		} satisfies AccountRecord)
		const credential = await storage.authDatabase.db
			.selectFrom('account')
			.select(['providerId', 'password', 'userId'])
			.where('userId', '=', 'zoe')
			.executeTakeFirstOrThrow()
		expect(credential).toEqual({ providerId: 'credential', password: 'hash-of-zoe', userId: 'zoe' })
		expect(await storage.accounts.find('nobody')).toBeUndefined()
	})

	it('refuses a second account with the same address and leaves no password behind', async () => {
		await make(storage, 'ana')
		await expect(
			storage.accounts.create(
				{ id: 'other', name: 'Other', email: 'ana@example.org', role: 'editor' },
				{ id: 'other-credential', passwordHash: 'x' },
				at,
			),
		).rejects.toThrow()
		const orphans = await storage.authDatabase.db
			.selectFrom('account')
			.select('id')
			.where('userId', '=', 'other')
			.execute()
		expect(orphans).toEqual([])
	})

	it('sets a password and ends every session of that account only', async () => {
		await make(storage, 'ana')
		await make(storage, 'ben')
		await signIn(storage, 'ana')
		await signIn(storage, 'ana')
		await signIn(storage, 'ben')
		await storage.accounts.setPassword('ana', 'new-hash', at)
		expect(await sessionsOf(storage, 'ana')).toBe(0)
		expect(await sessionsOf(storage, 'ben')).toBe(1)
		const credential = await storage.authDatabase.db
			.selectFrom('account')
			.select('password')
			.where('userId', '=', 'ana')
			.executeTakeFirstOrThrow()
		expect(credential.password).toBe('new-hash')
	})

	it("keeps the staff area's language an account chose, for that account only", async () => {
		await make(storage, 'ana')
		await make(storage, 'ben')
		const languageOf = async (id: string) =>
			(
				await storage.authDatabase.db
					.selectFrom('user')
					.select('interfaceLanguage')
					.where('id', '=', id)
					.executeTakeFirstOrThrow()
			).interfaceLanguage
		expect(await languageOf('ana')).toBe('')
		expect(await storage.accounts.setInterfaceLanguage('ana', 'fr', at)).toBe(true)
		expect(await languageOf('ana')).toBe('fr')
		expect(await languageOf('ben')).toBe('')
		expect(await storage.accounts.setInterfaceLanguage('ana', '', at)).toBe(true)
		expect(await languageOf('ana')).toBe('')
		expect(await storage.accounts.setInterfaceLanguage('nobody', 'fr', at)).toBe(false)
	})

	it('changes a role, and deactivates with the sessions ended in the same commit', async () => {
		await make(storage, 'ana')
		await signIn(storage, 'ana')
		const promoted = await storage.accounts.change('ana', { role: 'admin' }, allowAll, at)
		expect(promoted).toMatchObject({ ok: true, account: { role: 'admin', deactivatedAt: null } })
		const deactivated = await storage.accounts.change('ana', { active: false }, allowAll, at)
		expect(deactivated).toMatchObject({ ok: true, account: { deactivatedAt: at.toISOString() } })
		expect((await storage.accounts.find('ana'))?.deactivatedAt).toBe(at.toISOString())
		expect(await sessionsOf(storage, 'ana')).toBe(0)
		const back = await storage.accounts.change('ana', { active: true }, allowAll, at)
		expect(back).toMatchObject({ ok: true, account: { deactivatedAt: null } })
	})

	it('asks the rule with the account and the active admins, and changes nothing it refuses', async () => {
		await make(storage, 'ana', 'admin')
		await make(storage, 'ben', 'admin')
		await make(storage, 'cy', 'editor')
		await storage.accounts.change('ben', { active: false }, allowAll, at)
		const seen: [string, string[]][] = []
		const result = await storage.accounts.change(
			'ana',
			{ role: 'editor' },
			(account, admins) => {
				seen.push([account.id, admins])
				return 'Not now.'
			},
			at,
		)
		expect(result).toEqual({ ok: false, reason: 'refused', message: 'Not now.' })
		expect(seen).toEqual([['ana', ['ana']]])
		expect((await storage.accounts.find('ana'))?.role).toBe('admin')
		expect(await storage.accounts.change('nobody', { role: 'admin' }, allowAll, at)).toEqual({
			ok: false,
			reason: 'missing',
		})
	})

	it('judges two concurrent changes on what the first committed', async () => {
		await make(storage, 'ana', 'admin')
		await make(storage, 'ben', 'admin')
		// Each may step down only while another active admin remains.
		const keepOne = (id: string) => (_account: AccountRecord, admins: string[]) =>
			admins.some((admin) => admin !== id) ? null : 'The last admin stays.'
		const results = await Promise.all([
			storage.accounts.change('ana', { role: 'editor' }, keepOne('ana'), at),
			storage.accounts.change('ben', { role: 'editor' }, keepOne('ben'), at),
		])
		expect(results.filter((result) => result.ok)).toHaveLength(1)
		const admins = (await storage.accounts.list()).filter((account) => account.role === 'admin')
		expect(admins).toHaveLength(1)
	})
})
