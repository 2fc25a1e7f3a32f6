import { EventEmitter } from 'node:events'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Kysely, SqliteDialect } from 'kysely'
import { type ChangeHooks, createChangeRepository } from '../kysely/change-repository.ts'
import { sqlitePortableDriver } from '../kysely/portable-repository.ts'
import { createRepositories } from '../kysely/repositories.ts'
import type { Database } from '../kysely/schema.ts'
import { loadMigrations, migrationsTable } from '../migrations.ts'
import { indexedText } from '../port/search.ts'
import type { StorageRules } from '../port/storage.ts'
import { alwaysAvailable } from '../port/unavailable.ts'
import type { StorageHandle } from '../storage-handle.ts'
import { kyselySqliteDatabase } from './node-sqlite-database.ts'

/** How often the change table's high-water mark is read, to see other processes' writes. */
const watchIntervalMs = 150

/** How long a statement waits for another process's write lock, unless told otherwise. */
const defaultBusyTimeoutMs = 5_000

export function openSqliteDatabase(
	file: string,
	busyTimeoutMs = defaultBusyTimeoutMs,
): DatabaseSync {
	if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
	const native = new DatabaseSync(file)
	// WAL lets readers run beside the writer; FULL syncs the WAL on every commit so an
	// acknowledged write survives a crash; busy_timeout makes a second process wait, not fail.
	native.exec(`
		PRAGMA journal_mode = WAL;
		PRAGMA synchronous = FULL;
		PRAGMA busy_timeout = ${Math.max(0, Math.round(busyTimeoutMs))};
		PRAGMA foreign_keys = ON;
	`)
	// The search indexes' words as the site's queries look for them (indexedText), for the
	// statements and triggers that fill the indexes from the tables (migration 0029).
	native.function('canopy_fold', { deterministic: true }, (text) =>
		typeof text === 'string' ? indexedText(text) : text === null ? null : indexedText(String(text)),
	)
	return native
}

export interface SqliteOptions {
	/** The features' decisions a write carries out (server/storage-rules.ts). */
	rules: StorageRules
	/**
	 * The wait for another process's write lock. node:sqlite waits synchronously, so in a serving
	 * process every visitor waits with it: the server keeps it short and answers a longer hold
	 * with 503 (decision 016); a CLI command can afford to wait (the default, 5 s).
	 */
	busyTimeoutMs?: number
}

/** The adapter: the shared repositories, plus what differs (the file, its wake-ups, migrations). */
export function openSqliteStorage(file: string, options: SqliteOptions): StorageHandle {
	const busyTimeoutMs = Math.max(0, Math.round(options.busyTimeoutMs ?? defaultBusyTimeoutMs))
	const native = openSqliteDatabase(file, busyTimeoutMs)
	const db = new Kysely<Database>({
		dialect: new SqliteDialect({ database: kyselySqliteDatabase(native) }),
	})
	const local = new EventEmitter()
	local.setMaxListeners(0)

	const hooks: ChangeHooks = {
		committed: (change) => local.emit('change', change.id),
	}
	const changes = createChangeRepository(db, (wake) => {
		// Writes through this process wake at once; writes by another process (the CLI, a second
		// server on the same file) are found by polling the high-water mark, which costs ~10 µs.
		let seen = -1
		let stopped = false
		const onLocal = () => wake()
		local.on('change', onLocal)
		// The mark is taken now, not at the first poll: a write landing between watch() and that
		// poll would otherwise count as already seen, and its watcher (a stream that has just read
		// the table) would miss it.
		changes.latestId().then(
			(latest) => {
				if (seen === -1) seen = latest
			},
			() => {},
		)
		const timer = setInterval(() => {
			changes.latestId().then(
				(latest) => {
					if (stopped) return
					if (seen !== -1 && latest !== seen) wake()
					seen = latest
				},
				() => {},
			)
		}, watchIntervalMs)
		timer.unref()
		return () => {
			stopped = true
			clearInterval(timer)
			local.off('change', onLocal)
		}
	})

	return {
		dialect: 'sqlite',
		health: alwaysAvailable,
		authDatabase: { db, type: 'sqlite' },
		...createRepositories(db, 'sqlite', hooks, sqlitePortableDriver(db, native), options.rules),
		changes,
		async migrate() {
			// Another process migrating the same file may hold the lock for a while: wait it out.
			native.exec(`PRAGMA busy_timeout = ${Math.max(busyTimeoutMs, defaultBusyTimeoutMs)}`)
			try {
				native.exec(migrationsTable)
				const isApplied = native.prepare('SELECT 1 FROM schema_migrations WHERE name = ?')
				const record = native.prepare(
					'INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)',
				)
				const done: string[] = []
				for (const migration of loadMigrations('sqlite')) {
					// Checked inside the write lock, so two processes starting together apply it once.
					native.exec('BEGIN IMMEDIATE')
					try {
						if (!isApplied.get(migration.name)) {
							native.exec(migration.sql)
							record.run(migration.name, new Date().toISOString())
							done.push(migration.name)
						}
						native.exec('COMMIT')
					} catch (error) {
						native.exec('ROLLBACK')
						throw error
					}
				}
				return done
			} finally {
				native.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`)
			}
		},
		async ping() {
			native.prepare('SELECT 1').get()
		},
		async close() {
			local.removeAllListeners()
			await db.destroy()
		},
	}
}
