// Push subscriptions, for both databases: one row per browser endpoint, refreshed when the
// browser sends it again, deleted with its pending deliveries cancelled. With the deliveries
// (push-deliveries.ts) they make the push repository.
import type { Kysely } from 'kysely'
import type { PushRepository } from '../port/push.ts'
import type { Dialect } from '../port/storage.ts'
import { pushDeliveries } from './push-deliveries.ts'
import { cleanupBatch, removeSubscriptions } from './push-shared.ts'
import { toIsoOrNull, toPushSubscription } from './rows.ts'
import type { Database } from './schema.ts'

export function createPushRepository(db: Kysely<Database>, dialect: Dialect): PushRepository {
	return {
		...pushDeliveries(db, dialect),
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
	}
}
