// What an operator's monitoring reads of the storage (docs/decisions/035-metrics.md): the work
// queued for the background workers, and the database's connection pool.

/** The outboxes the workers drain: mail, push notices, newsletter mails and their expansion, webhook deliveries, image versions. */
export type QueueName = 'mail' | 'push' | 'newsletter' | 'newsletter-sends' | 'webhooks' | 'images'

export interface QueueState {
	queue: QueueName
	/** Items not yet done (due now or waiting for a retry). */
	waiting: number
	/** How long the oldest of them has waited, in seconds; 0 when none waits. */
	oldestSeconds: number
}

/** PostgreSQL's pool; SQLite has one connection and no pool. */
export interface PoolState {
	max: number
	open: number
	idle: number
	/** Queries waiting for a connection. */
	waiting: number
}

export interface OperationsRepository {
	queues(now: Date): Promise<QueueState[]>
	pool(): PoolState | null
}
