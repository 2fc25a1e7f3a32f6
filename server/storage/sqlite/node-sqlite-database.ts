// Gives Kysely's SqliteDialect the better-sqlite3 shape it expects, over the built-in node:sqlite.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite'
import type { SqliteDatabase } from 'kysely'

// node:sqlite takes an object first parameter as a bag of named parameters (a Date silently
// corrupts the statement), and has no boolean type: convert before binding.
function bindable(value: unknown): SQLInputValue {
	if (value === undefined) throw new TypeError('undefined cannot be stored; use null')
	if (value instanceof Date) return value.toISOString()
	if (typeof value === 'boolean') return value ? 1 : 0
	if (
		value === null ||
		typeof value === 'string' ||
		typeof value === 'number' ||
		typeof value === 'bigint'
	) {
		return value
	}
	if (value instanceof Uint8Array) return value
	throw new TypeError(`cannot store a value of type ${typeof value}`)
}

export function kyselySqliteDatabase(db: DatabaseSync): SqliteDatabase {
	return {
		close: () => db.close(),
		prepare(query) {
			// Kysely opens transactions with a deferred BEGIN; a deferred transaction that reads
			// and then writes fails at once with SQLITE_BUSY when another process (the CLI) holds
			// the write lock, instead of waiting busy_timeout. Take the write lock up front.
			const statement = db.prepare(query === 'begin' ? 'begin immediate' : query)
			return {
				reader: statement.columns().length > 0,
				all: (parameters) => statement.all(...parameters.map(bindable)),
				run: (parameters) => statement.run(...parameters.map(bindable)),
				iterate: (parameters) => statement.iterate(...parameters.map(bindable)),
			}
		},
	}
}
