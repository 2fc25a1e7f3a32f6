// What push subscriptions and deliveries share between their repositories, and what the article
// repository writes in its own transactions: one delivery per subscriber when an article goes
// public (articleDeliveries), what has not gone out cancelled when it stops being public.
import type { Transaction } from 'kysely'
import type { PushDeliveryCounts, PushDeliveryState } from '../port/push.ts'
import type { Database } from './schema.ts'

export const states: PushDeliveryState[] = ['pending', 'sent', 'gone', 'failed', 'cancelled']
/** Results are recorded over a delivery cancelled while in flight: it went out all the same. */
export const unfinished: PushDeliveryState[] = ['pending', 'cancelled']
/** The states a delivery can be retired in: every one but pending. */
export const retiredStates = ['sent', 'gone', 'failed', 'cancelled'] as const
export const errorLength = 1_000

/**
 * One pending delivery per subscription that can still be sent to, for an article the same
 * transaction has just marked announced (its notified_at set by the write that made it public),
 * in one statement whatever their number. Built, not run: appendChange runs it before the change
 * row, on PostgreSQL in the change row's own statement.
 */
export function articleDeliveries(trx: Transaction<Database>, articleId: number) {
	// Every value comes from a column, none from a parameter: PostgreSQL types a parameter in an
	// INSERT's SELECT list as text, which no id or timestamp column takes.
	return trx
		.insertInto('push_deliveries')
		.columns(['article_id', 'subscription_id', 'created_at', 'next_attempt_at'])
		.expression((eb) =>
			eb
				.selectFrom('articles')
				.innerJoin('push_subscriptions', (join) => join.onTrue())
				.select([
					'articles.id',
					'push_subscriptions.id',
					'articles.notified_at',
					'articles.notified_at',
				])
				.where('articles.id', '=', articleId)
				.where((where) =>
					where.or([
						where('push_subscriptions.expiration_time', 'is', null),
						where('push_subscriptions.expiration_time', '>', where.ref('articles.notified_at')),
					]),
				),
		)
}

/** Cancels what has not gone out for an article that stopped being public. */
export async function cancelArticleDeliveries(
	trx: Transaction<Database>,
	articleId: number,
	now: string,
): Promise<void> {
	await trx
		.updateTable('push_deliveries')
		.set({ state: 'cancelled', finished_at: now, lease_until: null })
		.where('article_id', '=', articleId)
		.where('state', '=', 'pending')
		.execute()
}

/** Cancels subscriptions' pending deliveries, then deletes them (their other rows keep a null id). */
export async function removeSubscriptions(trx: Transaction<Database>, ids: number[], now: string) {
	await trx
		.updateTable('push_deliveries')
		.set({ state: 'cancelled', finished_at: now, lease_until: null })
		.where('subscription_id', 'in', ids)
		.where('state', '=', 'pending')
		.execute()
	await trx.deleteFrom('push_subscriptions').where('id', 'in', ids).execute()
}

/** Rows per transaction when deleting dead subscriptions or retiring deliveries. */
export const cleanupBatch = 1_000

export const zeros = (): PushDeliveryCounts => ({
	pending: 0,
	sent: 0,
	gone: 0,
	failed: 0,
	cancelled: 0,
})
