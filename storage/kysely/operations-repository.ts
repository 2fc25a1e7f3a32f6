// Queue depths for monitoring, each read from the partial index its worker claims from, so a
// scrape costs what the worker's own claim costs (decision 035).
import { type Kysely, sql } from 'kysely'
import type { OperationsRepository, PoolState, QueueName, QueueState } from '../port/operations.ts'
import type { Dialect } from '../port/storage.ts'
import type { Database } from './schema.ts'

/**
 * Each queue's waiting rows, as its worker's due index defines them, and when each began to wait
 * (image tasks record no creation: from when they were first due).
 */
const waiting: Record<QueueName, { table: string; where: string; since: string }> = {
	mail: {
		table: 'mail_outbox',
		where: 'sent_at IS NULL AND abandoned_at IS NULL',
		since: 'created_at',
	},
	push: { table: 'push_deliveries', where: "state = 'pending'", since: 'created_at' },
	newsletter: { table: 'newsletter_deliveries', where: "state = 'pending'", since: 'created_at' },
	'newsletter-sends': {
		table: 'newsletter_sends',
		where: 'finished_at IS NULL',
		since: 'created_at',
	},
	webhooks: { table: 'webhook_deliveries', where: "state = 'pending'", since: 'created_at' },
	images: { table: 'image_tasks', where: 'finished_at IS NULL', since: 'next_attempt_at' },
}

export function createOperationsRepository(
	db: Kysely<Database>,
	dialect: Dialect,
	pool: () => PoolState | null,
): OperationsRepository {
	const seconds = (oldest: unknown, now: Date) => {
		if (oldest === null || oldest === undefined) return 0
		const at = new Date(oldest instanceof Date ? oldest : String(oldest)).getTime()
		return Number.isNaN(at) ? 0 : Math.max(0, (now.getTime() - at) / 1000)
	}
	return {
		async queues(now) {
			// One statement: every queue's count in one round trip.
			const parts = Object.entries(waiting).map(
				([queue, { table, where, since }]) =>
					sql`SELECT ${queue} AS queue, count(*) AS waiting, min(${sql.ref(since)}) AS oldest
						FROM ${sql.table(table)} WHERE ${sql.raw(where)}`,
			)
			const found = await sql<{
				queue: QueueName
				waiting: number | string
				oldest: unknown
			}>`${sql.join(parts, sql` UNION ALL `)}`.execute(db)
			return found.rows.map(
				(row): QueueState => ({
					queue: row.queue,
					waiting: Number(row.waiting),
					oldestSeconds: seconds(row.oldest, now),
				}),
			)
		},
		pool: dialect === 'postgres' ? pool : () => null,
	}
}
