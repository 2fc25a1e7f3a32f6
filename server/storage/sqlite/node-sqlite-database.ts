// Gives Kysely's SqliteDialect the better-sqlite3 shape it expects, over the built-in node:sqlite.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

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
			const statement = db.prepare(query === 'begin' ? 'begin immediate' : query)
			const prepared: SqliteStatement = {
				reader: statement.columns().length > 0,
				all: (parameters) => statement.all(...parameters.map(bindable)),
				run: (parameters) => statement.run(...parameters.map(bindable)),
				iterate: (parameters) => statement.iterate(...parameters.map(bindable)),
			}
			if (statements.size >= maxCachedStatements)
				statements.delete(statements.keys().next().value as string)
			statements.set(query, prepared)
			return prepared
		},
	}
}
