// Gives Kysely's SqliteDialect the better-sqlite3 shape it expects, over the built-in node:sqlite.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite'
import type { SqliteDatabase, SqliteStatement } from 'kysely'
import { storableText } from '../kysely/storable-text.ts'
import { StorageUnavailable } from '../port/unavailable.ts'

// node:sqlite takes an object first parameter as a bag of named parameters (a Date silently
// corrupts the statement), and has no boolean type: convert before binding.
function bindable(value: unknown): SQLInputValue {
	if (value === undefined) throw new TypeError('undefined cannot be stored; use null')
	if (value instanceof Date) return value.toISOString()
	if (typeof value === 'boolean') return value ? 1 : 0
	if (typeof value === 'string') return storableText(value)
	if (value === null || typeof value === 'number' || typeof value === 'bigint') {
		return value
	}
	if (value instanceof Uint8Array) return value
	throw new TypeError(`cannot store a value of type ${typeof value}`)
}

const sqliteBusy = 5
const sqliteLocked = 6

/**
 * Runs `work`, turning "database is locked" (another process, such as a CLI import, held the
 * write lock for longer than busy_timeout) into StorageUnavailable: the visitor gets a 503 with
 * Retry-After, not a 500.
 */
function whileUnlocked<T>(work: () => T): T {
	try {
		return work()
	} catch (error) {
		const code = (error as { errcode?: unknown }).errcode
		if (
			typeof code === 'number' &&
			((code & 0xff) === sqliteBusy || (code & 0xff) === sqliteLocked)
		)
			throw new StorageUnavailable(
				'The database is busy with a long write by another process; try again in a few seconds.',
				{ retryAfterSeconds: 2, cause: error },
			)
		throw error
	}
}

// Kysely compiles the same SQL text for the same query shape: prepare each text once. Kysely
// runs one query at a time on the connection, so a cached statement is never in use twice.
const maxCachedStatements = 256

export function kyselySqliteDatabase(db: DatabaseSync): SqliteDatabase {
	const statements = new Map<string, SqliteStatement>()
	return {
		close: () => {
			statements.clear()
			db.close()
		},
		prepare(query) {
			const cached = statements.get(query)
			if (cached) return cached
			// Kysely opens transactions with a deferred BEGIN; a deferred transaction that reads
			// and then writes fails at once with SQLITE_BUSY when another process (the CLI) holds
			// the write lock, instead of waiting busy_timeout. Take the write lock up front.
			const statement = whileUnlocked(() =>
				db.prepare(query === 'begin' ? 'begin immediate' : query),
			)
			const prepared: SqliteStatement = {
				reader: statement.columns().length > 0,
				all: (parameters) => whileUnlocked(() => statement.all(...parameters.map(bindable))),
				run: (parameters) => whileUnlocked(() => statement.run(...parameters.map(bindable))),
				iterate: (parameters) =>
					whileUnlocked(() => statement.iterate(...parameters.map(bindable))),
			}
			if (statements.size >= maxCachedStatements)
				statements.delete(statements.keys().next().value as string)
			statements.set(query, prepared)
			return prepared
		},
	}
}
