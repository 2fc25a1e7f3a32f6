import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
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

const notifyChannel = 'canopy_changes'
// Arbitrary constants naming Canopy's advisory locks.
const changeLock = 4_310_001
const migrationLock = 4_310_002

const int8 = 20
// int8 (ids, counts) as numbers: Canopy's ids stay far below 2^53.
const types = {
	getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
		oid === int8
			? (value: string) => Number(value)
			: pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

export interface PostgresOptions {
	/** A schema to use instead of public (tests give each test its own). */
	schema?: string
	poolSize?: number
}

export function openPostgresStorage(url: string, options: PostgresOptions = {}): Storage {
	const connection = {
		connectionString: url,
		types,
		options: options.schema ? `-c search_path=${options.schema}` : undefined,
		connectionTimeoutMillis: 5_000,
		statement_timeout: 10_000,
	}
	const pool = new pg.Pool({
		...connection,
		max: options.poolSize ?? 10,
		idleTimeoutMillis: 30_000,
	})
	// An idle client losing its connection must not crash the process; the pool replaces it.
	pool.on('error', () => {})
	const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
	const listeners = new Set<() => void>()

	const hooks: ChangeHooks = {
		// Held to commit: the next writer gets its id only after this one is visible, so ids
		// become visible in order and a reader at id N never misses a smaller id committed later.
		beforeAppend: async (trx) => {
			await sql`SELECT pg_advisory_xact_lock(${changeLock})`.execute(trx)
		},
		afterAppend: async (trx, change) => {
			await sql`SELECT pg_notify(${notifyChannel}, ${String(change.id)})`.execute(trx)
		},
		committed: () => {},
	}

	const changes = createChangeRepository(db, (wake) => {
		let client: pg.Client | undefined
		let stopped = false
		let delay = 250
		const connect = async () => {
			if (stopped) return
			const listener = new pg.Client(connection)
			listener.on('notification', () => wake())
			listener.on('error', () => {})
			listener.on('end', () => {
				if (stopped) return
				// Reconnect, then wake so the reader catches up on what was missed meanwhile.
				setTimeout(connect, delay).unref()
				delay = Math.min(delay * 2, 5_000)
			})
			try {
				await listener.connect()
				await listener.query(`LISTEN ${notifyChannel}`)
				client = listener
				delay = 250
				wake()
			} catch {
				listener.end().catch(() => {})
			}
		}
		connect()
		const stop = () => {
			stopped = true
			client?.end().catch(() => {})
			listeners.delete(stop)
		}
		listeners.add(stop)
		return stop
	})

	return {
		dialect: 'postgres',
		authDatabase: { db, type: 'postgres' },
		articles: createArticleRepository(db, hooks, 'postgres'),
		changes,
		settings: createSettingsRepository(db, hooks),
		uploads: createUploadRepository(db),
		apiKeys: createApiKeyRepository(db),
		rateLimits: createRateLimitRepository(db),
		messages: createMessageRepository(db, hooks),
		outbox: createOutboxRepository(db, 'postgres'),
		analytics: createAnalyticsRepository(db, 'postgres'),
		push: createPushRepository(db, 'postgres'),
		config: createConfigRepository(db, hooks),
		async migrate() {
			const client = await pool.connect()
			const done: string[] = []
			try {
				// Instances starting together wait here; each migration still applies once.
				await client.query('SELECT pg_advisory_lock($1)', [migrationLock])
				await client.query(migrationsTable)
				for (const migration of loadMigrations('postgres')) {
					const found = await client.query('SELECT 1 FROM schema_migrations WHERE name = $1', [
						migration.name,
					])
					if (found.rowCount) continue
					await client.query('BEGIN')
					try {
						await client.query(migration.sql)
						await client.query('INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [
							migration.name,
							new Date().toISOString(),
						])
						await client.query('COMMIT')
					} catch (error) {
						await client.query('ROLLBACK')
						throw error
					}
					done.push(migration.name)
				}
			} finally {
				await client.query('SELECT pg_advisory_unlock($1)', [migrationLock]).catch(() => {})
				client.release()
			}
			return done
		},
		async ping() {
			await sql`SELECT 1`.execute(db)
		},
		async close() {
			for (const stop of [...listeners]) stop()
			await db.destroy()
			// Kysely ends the pool only if it ever ran a query: a CLI command that only migrated
			// and then refused its input would otherwise keep a connection, and never exit.
			if (!pool.ending) await pool.end()
		},
	}
}
