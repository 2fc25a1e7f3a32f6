// The operator's message for a database that cannot be opened, from real failures: a real
// PostgreSQL refusing a role or missing a database, a real SQLite file that is not one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { storageRules } from '#server/storage-rules.ts'
import { postgresUrl } from '#tests/fixtures/storage.ts'
import { describeOpenFailure, redactDatabaseUrl } from './open-errors.ts'
import { openStorage } from './open-storage.ts'

async function failureOf(config: { databaseUrl: string; dataDir: string }) {
	let storage: ReturnType<typeof openStorage> | undefined
	try {
		storage = openStorage(config, storageRules)
		await storage.migrate()
	} catch (error) {
		return describeOpenFailure(error, config)
	} finally {
		await storage?.close()
	}
	throw new Error('the database opened')
}

describe('redactDatabaseUrl', () => {
	it('leaves out the password, in the URL or as a parameter', () => {
		expect(
			redactDatabaseUrl(
				'postgres://canopy:p%40ss@db.example.org:5432/canopy?password=x&sslmode=verify-full',
			),
		).toBe('postgres://canopy@db.example.org:5432/canopy?sslmode=verify-full')
	})
})

describe('describeOpenFailure', () => {
	it('is undefined for a failure that is not the database’s (a bug keeps its stack trace)', () => {
		expect(
			describeOpenFailure(new TypeError('x is not a function'), { databaseUrl: '', dataDir: '.' }),
		).toBeUndefined()
		class CommandError extends Error {}
		const refused = new CommandError('The account was not created: the password is too short.')
		expect(
			describeOpenFailure(refused, { databaseUrl: 'postgres://db/canopy', dataDir: '' }),
		).toBeUndefined()
	})

	it('names a SQLite file that is not a database', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'canopy-open-'))
		try {
			writeFileSync(join(dir, 'canopy.db'), 'x'.repeat(4096))
			expect(await failureOf({ databaseUrl: '', dataDir: dir })).toContain(
				`${join(dir, 'canopy.db')} is not a usable SQLite database`,
			)
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	})

	describe.runIf(postgresUrl)('on PostgreSQL', () => {
		const withPath = (user: string | undefined, database: string) => {
			const url = new URL(postgresUrl)
			if (user) {
				url.username = user
				url.password = 'Secret-pw-41'
			}
			url.pathname = `/${database}`
			url.search = ''
			return url.toString()
		}

		it('says which database is missing and how to make it', async () => {
			const databaseUrl = withPath(undefined, 'canopy_missing_database')
			const problem = await failureOf({ databaseUrl, dataDir: '' })
			expect(problem).toMatch(/is reachable, but there is no database "canopy_missing_database"/)
			expect(problem).toContain('createdb --owner')
		})

		it('says which role was refused, without its password', async () => {
			const databaseUrl = withPath('canopy_no_such_role', new URL(postgresUrl).pathname.slice(1))
			const problem = await failureOf({ databaseUrl, dataDir: '' })
			expect(problem).toMatch(/refused (user "canopy_no_such_role"|the password of user)/)
			expect(problem).not.toContain('Secret-pw-41')
		})
	})
})
