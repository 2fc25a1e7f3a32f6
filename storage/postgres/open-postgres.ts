import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { type ChangeHooks, createChangeRepository } from '../kysely/change-repository.ts'
import { postgresPortableDriver } from '../kysely/portable-repository.ts'
import { createRepositories } from '../kysely/repositories.ts'
import type { Database } from '../kysely/schema.ts'
import { loadMigrations, migrationsTable } from '../migrations.ts'
import type { StorageRules } from '../port/storage.ts'
import { StorageUnavailable } from '../port/unavailable.ts'
import type { StorageHandle } from '../storage-handle.ts'
import { createChangeListener } from './change-listener.ts'
import { isConnectionFailure } from './connection-errors.ts'
import { createDatabaseGuard } from './database-guard.ts'
import { createGuardedPool } from './guarded-pool.ts'

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
	/** The features' decisions a write carries out (server/storage-rules.ts). */
	rules: StorageRules
	/** A schema to use instead of public (tests give each test its own). */
	schema?: string
	poolSize?: number
	/** Told once when the database becomes unreachable, and once when it is back. */
	onDown?(error: unknown): void
	onUp?(downMs: number): void
	/** The first wait before the LISTEN connection is made again (default 250 ms, then doubling). */
	listenRetryMs?: number
}

const statementTimeoutMs = 10_000

/** The guard's check: a fresh connection that answers a trivial query within `timeoutMs`. */
async function probe(config: pg.ClientConfig, timeoutMs = 2_000): Promise<void> {
	const client = new pg.Client({
		...config,
		connectionTimeoutMillis: timeoutMs,
		query_timeout: timeoutMs,
	})
	client.on('error', () => {})
	try {
		await client.connect()
		await client.query('SELECT 1')
	} finally {
		await client.end().catch(() => {})
	}
}

/** The adapter: the shared repositories, plus what differs (pool, guard, LISTEN, migrations). */
export function openPostgresStorage(url: string, options: PostgresOptions): StorageHandle {
	// Named in pg_stat_activity, so an operator can tell the pool, the listener and the probe apart.
	const name = new URL(url).searchParams.get('application_name') || 'canopy'
	const connection = {
		connectionString: url,
		types,
		// The statements the pool keeps prepared (kysely/prepared.ts) are planned once, for any
		// values: left to choose, PostgreSQL plans each of the first five runs again, and keeps doing
		// so when the one-time plan looks cheaper (1.5 ms a run for the one-statement create).
		// Statements sent unnamed, every other one, are planned per run whatever this says.
		options: [
			'-c plan_cache_mode=force_generic_plan',
			options.schema ? `-c search_path=${options.schema}` : '',
		]
			.filter(Boolean)
			.join(' '),
		connectionTimeoutMillis: 5_000,
		statement_timeout: statementTimeoutMs,
		// Only for a connection that stops answering altogether: PostgreSQL ends a slow statement
		// itself, at statement_timeout.
		query_timeout: statementTimeoutMs + 5_000,
	}
	const pool = new pg.Pool({
		...connection,
		application_name: name,
		max: options.poolSize ?? 10,
		idleTimeoutMillis: 30_000,
	})
	// An idle client losing its connection must not crash the process; the pool replaces it.
	pool.on('error', () => {})
	// Nor may a client between two owners when its connection ends ("terminating connection due
	// to administrator command" read after a statement, as it is being handed back or dropped):
	// every failure that matters reaches a statement's caller or the guard by its own path.
	pool.on('connect', (client) => client.on('error', () => {}))
	const guard = createDatabaseGuard({
		probe: () => probe({ ...connection, application_name: `${name} probe` }),
		onDown: options.onDown,
		onUp: options.onUp,
	})
	const db = new Kysely<Database>({
		dialect: new PostgresDialect({ pool: createGuardedPool(pool, guard) }),
	})
	const listener = createChangeListener({
		channel: notifyChannel,
		guard,
		firstDelayMs: options.listenRetryMs,
		newClient: () => new pg.Client({ ...connection, application_name: `${name} listen` }),
	})

	const hooks: ChangeHooks = {
		postgres: { lock: changeLock, channel: notifyChannel },
		committed: () => listener.committed(),
	}

	// One LISTEN connection per instance, however many watch (decision 016).
	const changes = createChangeRepository(db, listener.watch)

	return {
		dialect: 'postgres',
		health: guard,
		authDatabase: { db, type: 'postgres' },
		...createRepositories(db, 'postgres', hooks, postgresPortableDriver(db), options.rules, () => ({
			max: pool.options.max ?? 10,
			open: pool.totalCount,
			idle: pool.idleCount,
			waiting: pool.waitingCount,
		})),
		changes,
		async migrate() {
			// A connection of its own without the statement timeout: a migration over a large
			// site's rows (building the search index for 10,000 articles) may take minutes, and
			// is the operator's upgrade, not a reader's request.
			const client = new pg.Client({
				...connection,
				application_name: `${name} migrations`,
				statement_timeout: 0,
				query_timeout: undefined,
			})
			await client.connect().catch((error: unknown) => {
				if (!isConnectionFailure(error)) throw error
				const reason = error instanceof Error ? error.message : String(error)
				throw new StorageUnavailable(
					`The database at DATABASE_URL cannot be reached (${reason}). Start it, or correct DATABASE_URL.`,
					{ retryAfterSeconds: 5, cause: error },
				)
			})
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
				await client.end().catch(() => {})
			}
			return done
		},
		async ping() {
			await sql`SELECT 1`.execute(db)
		},
		async close() {
			listener.close()
			await db.destroy()
			// Kysely ends the pool only if it ever ran a query: a CLI command that only migrated
			// and then refused its input would otherwise keep a connection, and never exit.
			if (!pool.ending) await pool.end()
		},
	}
}
