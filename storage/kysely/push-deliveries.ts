// Push deliveries, for both databases: leased to one worker at a time, their results recorded,
// and old ones retired into per-article totals.
import { type Kysely, sql } from 'kysely'
import type { ClaimedPushDelivery, PushDeliveryState, PushRepository } from '../port/push.ts'
import type { Dialect } from '../port/storage.ts'
import { leaseDue } from './lease.ts'
import {
	cleanupBatch,
	errorLength,
	removeSubscriptions,
	retiredStates,
	states,
	unfinished,
	zeros,
} from './push-shared.ts'
import { toIso, toPushDelivery } from './rows.ts'
import type { Database } from './schema.ts'

export type PushDeliveries = Omit<
	PushRepository,
	| 'saveSubscription'
	| 'findSubscription'
	| 'deleteSubscription'
	| 'subscriberCount'
	| 'deleteDeadSubscriptions'
>

export function pushDeliveries(db: Kysely<Database>, dialect: Dialect): PushDeliveries {
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
