// The change feed, written once against Kysely for both databases: each public change appended
// in the writer's own transaction, read in id order. What differs between the databases
// (locking, notification, watching) comes in through ChangeHooks and the watch function.
import {
	type InsertQueryBuilder,
	type InsertResult,
	type Kysely,
	type OperationNodeSource,
	sql,
	type Transaction,
} from 'kysely'
import type { Change, ChangeKind, ChangeRepository } from '../port/changes.ts'
import { toChange } from './rows.ts'
import type { Database } from './schema.ts'

export interface ChangeHooks {
	/**
	 * PostgreSQL only. The change row's INSERT first takes this transaction-level advisory lock,
	 * held to commit: the next writer gets its id only after this one is visible, so ids become
	 * visible in order and a reader at id N never misses a smaller id committed later. The same
	 * statement queues the NOTIFY carrying the id on `channel` (sent at commit). One statement,
	 * one round trip, instead of three.
	 */
	postgres?: { lock: number; channel: string }
	/** After commit: SQLite wakes this process's watchers here. */
	committed(change: Change): void
}

/**
 * Writes the change row for the live feed. `first`, the inserts the change depends on (an
 * article's push deliveries and newsletter mail), run before it: on PostgreSQL in the same statement,
 * finished before the change lock is taken, so the lock is never held through ten thousand
 * inserts.
 */
export async function appendChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	topic: string,
	entityId: string,
	kind: ChangeKind,
	first: PrecedingInsert[] = [],
): Promise<Change> {
	const createdAt = new Date().toISOString()
	if (!hooks.postgres) {
		for (const insert of first) await insert.execute()
		const row = await trx
			.insertInto('changes')
			.values({ topic, entity_id: entityId, kind, created_at: createdAt })
			.returningAll()
			.executeTakeFirstOrThrow()
		return toChange(row)
	}
	const { lock, channel } = hooks.postgres
	const before = sql.join(
		first.map((insert, i) => sql`${sql.raw(`first_${i}`)} AS (${insert.counted()}),`),
		sql` `,
	)
	// The counts read every row `first` wrote before the lock is asked for.
	const afterFirst =
		first.length > 0
			? sql`FROM ${sql.join(
					first.map((_, i) => sql.raw(`(SELECT count(*) FROM first_${i}) AS written_${i}`)),
				)}`
			: sql``
	// The identity's nextval() runs as each row of the SELECT is inserted, so after the lock.
	const { rows } = await sql<Record<string, unknown>>`WITH ${before} locked AS (
			SELECT pg_advisory_xact_lock(${lock}) ${afterFirst}
		), added AS (
			INSERT INTO changes (topic, entity_id, kind, created_at)
			SELECT ${topic}, ${entityId}, ${kind}, ${createdAt}::timestamptz FROM locked
			RETURNING *
		)
		SELECT added.*, pg_notify(${channel}, added.id::text) FROM added`.execute(trx)
	const [row] = rows
	if (!row) throw new Error('The change row was not written.')
	return toChange(row)
}

/** An insert a change depends on, to run alone (SQLite) or inside the change's statement. */
export interface PrecedingInsert {
	execute(): Promise<unknown>
	/** The insert returning a column per row, so the statement can count what it wrote. */
	counted(): OperationNodeSource
}

export function preceding<Table extends keyof Database>(
	insert: InsertQueryBuilder<Database, Table, InsertResult>,
): PrecedingInsert {
	return { execute: () => insert.execute(), counted: () => insert.returning(sql`1`.as('one')) }
}

export function createChangeRepository(
	db: Kysely<Database>,
	watch: ChangeRepository['watch'],
): ChangeRepository {
	return {
		async latestId() {
			const row = await db
				.selectFrom('changes')
				.select((eb) => eb.fn.max('id').as('id'))
				.executeTakeFirst()
			const latest = Number(row?.id ?? 0)
			// An empty table after pruning still has a position: the horizon.
			return latest > 0 ? latest : this.horizon()
		},
		async horizon() {
			const row = await db
				.selectFrom('change_horizon')
				.select('pruned_through')
				.executeTakeFirstOrThrow()
			return Number(row.pruned_through)
		},
		async after(id, limit) {
			const rows = await db
				.selectFrom('changes')
				.selectAll()
				.where('id', '>', id)
				.orderBy('id')
				.limit(limit)
				.execute()
			return rows.map(toChange)
		},
		async prune(keep) {
			return db.transaction().execute(async (trx) => {
				const max = await trx
					.selectFrom('changes')
					.select((eb) => eb.fn.max('id').as('id'))
					.executeTakeFirst()
				const cutoff = Number(max?.id ?? 0) - keep
				if (cutoff <= 0) return 0
				const deleted = await trx.deleteFrom('changes').where('id', '<=', cutoff).executeTakeFirst()
				await trx
					.updateTable('change_horizon')
					.set({ pruned_through: cutoff })
					.where('id', '=', 1)
					.where('pruned_through', '<', cutoff)
					.execute()
				return Number(deleted.numDeletedRows)
			})
		},
		watch,
	}
}
