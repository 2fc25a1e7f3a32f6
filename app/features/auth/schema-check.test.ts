// better-auth checks Canopy's auth tables when it opens (openAuth). On PostgreSQL that check reads
// the catalog of the whole database, so other schemas coming and going on a shared server (another
// application's, or other test files') must not stop Canopy from opening.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { postgresDatabase, postgresUrl, type TestDatabase } from '#tests/fixtures/storage.ts'
import { authSecret, openAuth } from './auth.server.ts'

describe.runIf(postgresUrl)('the auth tables check on a shared PostgreSQL', () => {
	let database: TestDatabase
	let storage: Storage
	beforeAll(async () => {
		database = await postgresDatabase()
		storage = database.open()
		await storage.migrate()
	})
	afterAll(async () => {
		await storage.close()
		await database.drop()
	})

	it('opens every time while other schemas are made and dropped beside it', async () => {
		const other = new pg.Client({ connectionString: postgresUrl })
		await other.connect()
		let stop = false
		let dropped = 0
		const churn = (async () => {
			while (!stop) {
				const schema = `other_app_${process.pid}_${dropped}`
				await other.query(
					`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.item (id serial PRIMARY KEY, name text, a text, b text, c int, d int, e timestamptz)`,
				)
				await other.query(`DROP SCHEMA ${schema} CASCADE`)
				dropped++
			}
		})()
		const logger = createLogger('error', () => {})
		const secret = await authSecret(storage)
		const failures: string[] = []
		try {
			// At least 20 opens, and on until 20 schemas have come and gone meanwhile (a busy
			// machine runs the churn slower than the opens).
			for (let i = 0; i < 20 || (dropped <= 20 && i < 500); i++) {
				await openAuth({
					storage,
					database: storage.authDatabase,
					siteUrl: 'http://canopy.test',
					secret,
					logger,
				}).catch((error: unknown) => failures.push(String(error)))
			}
		} finally {
			stop = true
			await churn
			await other.end()
		}
		expect(dropped, 'schemas were dropped while it opened').toBeGreaterThan(20)
		expect(failures).toEqual([])
	})
})
