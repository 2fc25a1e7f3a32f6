// How long the webhook delivery log is kept: a finished delivery's row, 30 days, long enough to
// look into a failure a receiver reports; waiting ones are kept whatever their age. A secret
// replaced by a new one is erased once its day of overlap is over (it signs nothing by then).
import type { PeriodicJobSpec } from '#app/lib/jobs.ts'

export const webhookLogDays = 30

/**
 * Every hour, once across instances: finished deliveries older than webhookLogDays deleted, and
 * old secrets past their overlap erased.
 */
export const webhookCleanupJob: PeriodicJobSpec<number | undefined> = {
	name: 'webhook-cleanup',
	async pass({ storage, logger, clock }) {
		try {
			const before = new Date(clock().getTime() - webhookLogDays * 24 * 60 * 60_000)
			const deleted = await storage.webhooks.deleteFinished(before)
			if (deleted > 0) logger.info('webhooks: old deliveries deleted from the log', { deleted })
			const erased = await storage.webhooks.eraseExpiredSecrets(clock())
			if (erased > 0)
				logger.info('webhooks: replaced secrets erased after their overlap', { erased })
			return deleted
		} catch (error) {
			logger.warn('webhooks: could not delete old deliveries; will retry', { error })
			return undefined
		}
	},
}
