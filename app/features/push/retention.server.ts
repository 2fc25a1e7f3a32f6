// What push keeps, and for how long: dead subscriptions are deleted, and delivery rows are retired
// into per-article totals once nobody needs them one by one. Run hourly by
// server/jobs/push-cleanup.ts; see docs/decisions/014-push-retention.md.

import type { PeriodicJobSpec } from '#app/lib/jobs.ts'
import type { Storage } from '#storage/port/storage.ts'

const dayMs = 24 * 60 * 60 * 1_000

/**
 * A browser sends its subscription again at least every 7 days while the reader visits; one not
 * sent for 270 days belongs to a browser that is gone or a reader who stopped coming. 270 is the
 * age at which Firebase Cloud Messaging itself treats a token as stale and stops delivering to it.
 */
export const staleSubscriptionDays = 270

/**
 * A delivery's row is kept this long after it finished (sent, gone, failed, cancelled): long
 * enough to look into a failed notice, after which only its article's totals are kept.
 */
export const deliveryRetentionDays = 30

export interface PushCleanup {
	/** Subscriptions deleted: expired, or not sent again for staleSubscriptionDays. */
	subscriptions: number
	/** Finished delivery rows folded into their article's totals. */
	deliveries: number
}

export async function cleanUpPush(storage: Storage, now: Date): Promise<PushCleanup> {
	const subscriptions = await storage.push.deleteDeadSubscriptions(
		now,
		new Date(now.getTime() - staleSubscriptionDays * dayMs),
	)
	const deliveries = await storage.push.retireDeliveries(
		new Date(now.getTime() - deliveryRetentionDays * dayMs),
	)
	return { subscriptions, deliveries }
}

/**
 * Every hour, once across instances: dead subscriptions deleted, old delivery rows retired into
 * their articles' totals. Each batch is one transaction, and each retired row is counted once
 * whichever pass retires it, so a pass cut off is finished by the next. Its result: what the
 * pass did, or undefined when it failed (logged; tried next hour).
 */
export const pushCleanupJob: PeriodicJobSpec<PushCleanup | undefined> = {
	name: 'push-cleanup',
	async pass({ storage, logger, clock }) {
		try {
			const done = await cleanUpPush(storage, clock())
			if (done.subscriptions > 0 || done.deliveries > 0)
				logger.info('push: dead subscriptions deleted, old deliveries retired', { ...done })
			return done
		} catch (error) {
			logger.warn('push: could not clean up subscriptions and deliveries; will retry', { error })
			return undefined
		}
	},
}
