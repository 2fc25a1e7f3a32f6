// The leasing the job queues share (the mail outbox; push, newsletter and webhook deliveries;
// image tasks): a worker takes due rows for a while (the lease), and a worker that dies leaves
// its lease to run out, after which the rows are taken again.
import type { Expression, ExpressionBuilder, SqlBool, Transaction } from 'kysely'
import type { Dialect } from '../port/storage.ts'
import type { Database } from './schema.ts'

/** The tables with next_attempt_at, lease_until and attempts. */
export type LeasedTable =
	| 'mail_outbox'
	| 'push_deliveries'
	| 'newsletter_deliveries'
	| 'image_tasks'
	| 'webhook_deliveries'

/**
 * Takes up to `limit` rows of `table` that are waiting (what `waiting` says: not sent, not given
 * up), due at `now` and not leased, oldest first, and leases them for `leaseMs`, counting one
 * attempt each. Workers on other instances skip the rows this one holds (FOR UPDATE SKIP LOCKED
 * on PostgreSQL; SQLite has one writer at a time). Returns their ids; the caller reads the rows.
 */
export async function leaseDue(
	trx: Transaction<Database>,
	dialect: Dialect,
	table: LeasedTable,
	waiting: (eb: ExpressionBuilder<Database, LeasedTable>) => Expression<SqlBool>,
	{ now, leaseMs, limit }: { now: Date; leaseMs: number; limit: number },
): Promise<number[]> {
	const at = now.toISOString()
	let due = trx
		.selectFrom(table)
		.select('id')
		.where(waiting)
		.where('next_attempt_at', '<=', at)
		.where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
		.orderBy('next_attempt_at')
		.orderBy('id')
		.limit(limit)
	if (dialect === 'postgres') due = due.forUpdate().skipLocked()
	const ids = (await due.execute()).map((row) => Number(row.id))
	if (ids.length === 0) return []
	await trx
		.updateTable(table)
		.set((eb) => ({
			lease_until: new Date(now.getTime() + leaseMs).toISOString(),
			attempts: eb('attempts', '+', 1),
		}))
		.where('id', 'in', ids)
		.execute()
	return ids
}
