import { EventEmitter } from 'node:events'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Kysely, SqliteDialect } from 'kysely'
import {
	type ChangeHooks,
	createArticleRepository,
	createChangeRepository,
	createSettingsRepository,
} from '../kysely-repositories.ts'
import {
	createApiKeyRepository,
	createRateLimitRepository,
	createUploadRepository,
} from '../editor-repositories.ts'
import { createAnalyticsRepository } from '../analytics-repositories.ts'
import { createConfigRepository } from '../config-repositories.ts'
import { createMessageRepository, createOutboxRepository } from '../contact-repositories.ts'
import { loadMigrations, migrationsTable } from '../migrations.ts'
import { createPushRepository } from '../push-repositories.ts'
import type { Database } from '../schema.ts'
import type { Storage } from '../types.ts'
import { kyselySqliteDatabase } from './node-sqlite-database.ts'

/** How often the change table's high-water mark is read, to see other processes' writes. */
const watchIntervalMs = 150

export function openSqliteDatabase(file: string): DatabaseSync {
	if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
	const native = new DatabaseSync(file)
	// WAL lets readers run beside the writer; FULL syncs the WAL on every commit so an
	// acknowledged write survives a crash; busy_timeout makes a second process wait, not fail.
	native.exec(`
		PRAGMA journal_mode = WAL;
		PRAGMA synchronous = FULL;
		PRAGMA busy_timeout = 5000;
		PRAGMA foreign_keys = ON;
	`)
	return native
}

export function openSqliteStorage(file: string): Storage {
	const native = openSqliteDatabase(file)
	const db = new Kysely<Database>({
		dialect: new SqliteDialect({ database: kyselySqliteDatabase(native) }),
	})
	const local = new EventEmitter()
	local.setMaxListeners(0)

	const hooks: ChangeHooks = {
		beforeAppend: async () => {},
		afterAppend: async () => {},
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
		authDatabase: { db, type: 'sqlite' },
		articles: createArticleRepository(db, hooks, 'sqlite'),
		changes,
		settings: createSettingsRepository(db, hooks),
		uploads: createUploadRepository(db),
		apiKeys: createApiKeyRepository(db),
		rateLimits: createRateLimitRepository(db),
		messages: createMessageRepository(db, hooks),
		outbox: createOutboxRepository(db, 'sqlite'),
		analytics: createAnalyticsRepository(db, 'sqlite'),
		push: createPushRepository(db, 'sqlite'),
		config: createConfigRepository(db, hooks),
		async migrate() {
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
