// Push subscriptions and their deliveries, written once against Kysely for both adapters. The
// article repository queues articleDeliveries and calls cancelArticleDeliveries in the transactions
// that make an article public or stop it being public, so a delivery exists exactly when its
// article went public with subscribers to tell.
import { type Kysely, sql, type Transaction } from 'kysely'
import { leaseDue } from './lease.ts'
import { toIso, toIsoOrNull, toPushDelivery, toPushSubscription } from './rows.ts'
import type { Database } from './schema.ts'
import type {
	ClaimedPushDelivery,
	PushDeliveryCounts,
	PushDeliveryState,
	PushRepository,
} from '../port/push.ts'
import type { Dialect } from '../port/storage.ts'

const states: PushDeliveryState[] = ['pending', 'sent', 'gone', 'failed', 'cancelled']
/** Results are recorded over a delivery cancelled while in flight: it went out all the same. */
const unfinished: PushDeliveryState[] = ['pending', 'cancelled']
/** The states a delivery can be retired in: every one but pending. */
const retiredStates = ['sent', 'gone', 'failed', 'cancelled'] as const
const errorLength = 1_000

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
async function removeSubscriptions(trx: Transaction<Database>, ids: number[], now: string) {
	await trx
		.updateTable('push_deliveries')
		.set({ state: 'cancelled', finished_at: now, lease_until: null })
		.where('subscription_id', 'in', ids)
		.where('state', '=', 'pending')
		.execute()
	await trx.deleteFrom('push_subscriptions').where('id', 'in', ids).execute()
}

/** Rows per transaction when deleting dead subscriptions or retiring deliveries. */
const cleanupBatch = 1_000

const zeros = (): PushDeliveryCounts => ({ pending: 0, sent: 0, gone: 0, failed: 0, cancelled: 0 })

export function createPushRepository(db: Kysely<Database>, dialect: Dialect): PushRepository {
	const finish = async (
		id: number,
		state: PushDeliveryState,
		status: number | null,
		error: string | null,
		now: Date,
		trx: Kysely<Database> = db,
	) => {
		await trx
			.updateTable('push_deliveries')
			.set({
				state,
				last_status: status,
				last_error: error?.slice(0, errorLength) ?? null,
				finished_at: now.toISOString(),
				lease_until: null,
			})
			.where('id', '=', id)
			.where('state', 'in', unfinished)
			.execute()
	}

	return {
		async saveSubscription(subscription, now) {
			const at = now.toISOString()
			const fields = {
				p256dh: subscription.p256dh,
				auth: subscription.auth,
				expiration_time: toIsoOrNull(subscription.expirationTime),
			}
			// Insert, else refresh; a subscription deleted between the two is inserted again.
			for (;;) {
				const inserted = await db
					.insertInto('push_subscriptions')
					.values({ endpoint: subscription.endpoint, ...fields, created_at: at, refreshed_at: at })
					.onConflict((oc) => oc.column('endpoint').doNothing())
					.returningAll()
					.executeTakeFirst()
				if (inserted) return { subscription: toPushSubscription(inserted), created: true }
				const refreshed = await db
					.updateTable('push_subscriptions')
					.set({ ...fields, refreshed_at: at })
					.where('endpoint', '=', subscription.endpoint)
					.returningAll()
					.executeTakeFirst()
				if (refreshed) return { subscription: toPushSubscription(refreshed), created: false }
			}
		},
		async findSubscription(endpoint) {
			const row = await db
				.selectFrom('push_subscriptions')
				.selectAll()
				.where('endpoint', '=', endpoint)
				.executeTakeFirst()
			return row && toPushSubscription(row)
		},
		async deleteSubscription(endpoint, now) {
			return db.transaction().execute(async (trx) => {
				const row = await trx
					.selectFrom('push_subscriptions')
					.select('id')
					.where('endpoint', '=', endpoint)
					.executeTakeFirst()
				if (!row) return false
				await removeSubscriptions(trx, [Number(row.id)], now.toISOString())
				return true
			})
		},
		async subscriberCount(now = new Date()) {
			const row = await db
				.selectFrom('push_subscriptions')
				.select((eb) => eb.fn.countAll().as('n'))
				.where((eb) =>
					eb.or([eb('expiration_time', 'is', null), eb('expiration_time', '>', now.toISOString())]),
				)
				.executeTakeFirstOrThrow()
			return Number(row.n)
		},
		async claimDue(now, leaseMs, limit) {
			return db.transaction().execute(async (trx) => {
				const ids = await leaseDue(
					trx,
					dialect,
					'push_deliveries',
					(eb) => eb.and([eb('state', '=', 'pending'), eb('subscription_id', 'is not', null)]),
					{ now, leaseMs, limit },
				)
				if (ids.length === 0) return []
				const rows = await trx
					.selectFrom('push_deliveries')
					.innerJoin(
						'push_subscriptions',
						'push_subscriptions.id',
						'push_deliveries.subscription_id',
					)
					.innerJoin('articles', 'articles.id', 'push_deliveries.article_id')
					.select([
						'push_deliveries.id',
						'push_deliveries.attempts',
						'push_deliveries.created_at',
						'push_subscriptions.id as subscription_id',
						'push_subscriptions.endpoint',
						'push_subscriptions.p256dh',
						'push_subscriptions.auth',
						'articles.id as article_id',
						'articles.slug',
						'articles.title',
						'articles.summary',
						'articles.cover_image_url',
						'articles.cover_image_alt',
					])
					.where('push_deliveries.id', 'in', ids)
					.orderBy('push_deliveries.id')
					.execute()
				return rows.map(
					(row): ClaimedPushDelivery => ({
						id: Number(row.id),
						attempts: Number(row.attempts),
						createdAt: toIso(row.created_at),
						subscription: {
							id: Number(row.subscription_id),
							endpoint: row.endpoint,
							p256dh: row.p256dh,
							auth: row.auth,
						},
						article: {
							id: Number(row.article_id),
							slug: row.slug,
							title: row.title,
							summary: row.summary,
							coverImageUrl: row.cover_image_url,
							coverImageAlt: row.cover_image_alt,
						},
					}),
				)
			})
		},
		markSent(id, status, now) {
			return finish(id, 'sent', status, null, now)
		},
		async retryLater(id, status, error, nextAttemptAt) {
			await db
				.updateTable('push_deliveries')
				.set({
					last_status: status,
					last_error: error.slice(0, errorLength),
					next_attempt_at: nextAttemptAt.toISOString(),
					lease_until: null,
				})
				.where('id', '=', id)
				.where('state', '=', 'pending')
				.execute()
		},
		markFailed(id, status, error, now) {
			return finish(id, 'failed', status, error, now)
		},
		async markGone(id, status, now) {
			await db.transaction().execute(async (trx) => {
				const row = await trx
					.selectFrom('push_deliveries')
					.select('subscription_id')
					.where('id', '=', id)
					.executeTakeFirst()
				if (!row) return
				await finish(id, 'gone', status, null, now, trx)
				if (row.subscription_id !== null)
					await removeSubscriptions(trx, [Number(row.subscription_id)], now.toISOString())
			})
		},
		async deleteDeadSubscriptions(now, staleBefore) {
			const at = now.toISOString()
			const stale = staleBefore.toISOString()
			let deleted = 0
			for (;;) {
				const batch = await db.transaction().execute(async (trx) => {
					let dead = trx
						.selectFrom('push_subscriptions')
						.select('id')
						.where((eb) => eb.or([eb('expiration_time', '<=', at), eb('refreshed_at', '<', stale)]))
						.orderBy('id')
						.limit(cleanupBatch)
					// Skips a subscription being refreshed right now: the browser is still there.
					if (dialect === 'postgres') dead = dead.forUpdate().skipLocked()
					const ids = (await dead.execute()).map((row) => Number(row.id))
					if (ids.length > 0) await removeSubscriptions(trx, ids, at)
					return ids.length
				})
				deleted += batch
				if (batch < cleanupBatch) return deleted
			}
		},
		async retireDeliveries(finishedBefore) {
			const before = finishedBefore.toISOString()
			// A literal, not a parameter, so that SQLite sees the partial index push_deliveries_finished.
			const finished = sql.lit('pending')
			const articles = await db
				.selectFrom('push_deliveries')
				.select('article_id')
				.distinct()
				.where('state', '<>', finished)
				.where('finished_at', '<', before)
				.execute()
			let retired = 0
			for (const { article_id } of articles) {
				const articleId = Number(article_id)
				for (;;) {
					const batch = await db.transaction().execute(async (trx) => {
						// The article first, then its rows: the order its deletion locks them in
						// (PostgreSQL), so a deletion at the same moment waits rather than deadlocks.
						let article = trx.selectFrom('articles').select('id').where('id', '=', articleId)
						if (dialect === 'postgres') article = article.forKeyShare()
						if (!(await article.executeTakeFirst())) return 0
						// Deleted and counted in one statement: of two instances retiring the same rows,
						// each counts only the rows its own delete removed.
						const gone = await trx
							.deleteFrom('push_deliveries')
							.where('id', 'in', (eb) =>
								eb
									.selectFrom('push_deliveries')
									.select('id')
									.where('article_id', '=', articleId)
									.where('state', '<>', finished)
									.where('finished_at', '<', before)
									.limit(cleanupBatch),
							)
							.returning('state')
							.execute()
						if (gone.length === 0) return 0
						const counts = zeros()
						for (const row of gone) counts[row.state as PushDeliveryState]++
						const { sent, gone: goneCount, failed, cancelled } = counts
						await trx
							.insertInto('push_delivery_totals')
							.values({ article_id: articleId, sent, gone: goneCount, failed, cancelled })
							.onConflict((oc) =>
								oc.column('article_id').doUpdateSet((eb) => ({
									sent: eb('push_delivery_totals.sent', '+', eb.ref('excluded.sent')),
									gone: eb('push_delivery_totals.gone', '+', eb.ref('excluded.gone')),
									failed: eb('push_delivery_totals.failed', '+', eb.ref('excluded.failed')),
									cancelled: eb(
										'push_delivery_totals.cancelled',
										'+',
										eb.ref('excluded.cancelled'),
									),
								})),
							)
							.execute()
						return gone.length
					})
					retired += batch
					if (batch < cleanupBatch) break
				}
			}
			return retired
		},
		async resultsByArticle(articleIds) {
			const results = new Map(articleIds.map((id) => [id, zeros()]))
			if (articleIds.length === 0) return results
			const totals = await db
				.selectFrom('push_delivery_totals')
				.selectAll()
				.where('article_id', 'in', articleIds)
				.execute()
			for (const row of totals) {
				const counts = results.get(Number(row.article_id))
				if (!counts) continue
				for (const state of retiredStates) counts[state] = Number(row[state])
			}
			const rows = await db
				.selectFrom('push_deliveries')
				.select((eb) => ['article_id', 'state', eb.fn.countAll().as('n')])
				.where('article_id', 'in', articleIds)
				.groupBy(['article_id', 'state'])
				.execute()
			for (const row of rows) {
				const counts = results.get(Number(row.article_id))
				const state = row.state as PushDeliveryState
				if (counts && states.includes(state)) counts[state] += Number(row.n)
			}
			return results
		},
		async deliveriesOf(articleId) {
			const rows = await db
				.selectFrom('push_deliveries')
				.selectAll()
				.where('article_id', '=', articleId)
				.orderBy('id')
				.execute()
			return rows.map(toPushDelivery)
		},
	}
}
