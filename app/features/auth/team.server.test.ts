// Team changes and account creation under concurrency, on both databases.
import { beforeEach, describe, expect, it } from 'vitest'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import { type Auth, authSecret, openAuth } from './auth.server.ts'
import { changeRole, listTeam, setActive } from './team.server.ts'
import { createUser } from './users.server.ts'

const password = 'mangrove coastline 7'

describe.each(databases)('team: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	let auth: Auth

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))
	beforeEach(async () => {
		const logger = createLogger('silent')
		auth = await openAuth({
			storage,
			database: storage.authDatabase,
			siteUrl: 'http://canopy.test',
			secret: await authSecret(storage),
			logger,
		})
	})

	const admin = async (email: string) => {
		const made = await createUser(auth, storage, { email, name: email, role: 'admin', password })
		if (!made.ok) throw new Error('not made')
		return made.user.id
	}

	it('lets only one of two admins demoting each other at once succeed', async () => {
		const [first, second] = [await admin('a@example.org'), await admin('b@example.org')]
		const results = await Promise.all([
			changeRole(storage, first, 'editor'),
			changeRole(storage, second, 'editor'),
		])
		expect(results.filter((result) => result.ok)).toHaveLength(1)
		const admins = (await listTeam(storage)).filter((m) => m.role === 'admin' && m.active)
		expect(admins).toHaveLength(1)
	})

	it('lets only one of two admins deactivating each other at once succeed', async () => {
		const [first, second] = [await admin('a@example.org'), await admin('b@example.org')]
		const results = await Promise.all([
			setActive(storage, second, first, false),
			setActive(storage, first, second, false),
		])
		expect(results.filter((result) => result.ok)).toHaveLength(1)
		expect((await listTeam(storage)).filter((m) => m.active)).toHaveLength(1)
	})

	it('makes one account with its password when the same address is created twice at once', async () => {
		const user = { email: 'ana@example.org', name: 'Ana', role: 'editor', password }
		const results = await Promise.all([
			createUser(auth, storage, user),
			createUser(auth, storage, user),
		])
		expect(results.filter((result) => result.ok)).toHaveLength(1)
		const accounts = await storage.authDatabase.db
			.selectFrom('account')
			.select('password')
			.execute()
		expect(accounts).toHaveLength(1)
		expect(accounts[0]?.password).toMatch(/^scrypt\$/)
	})
})
