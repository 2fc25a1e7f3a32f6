// The push clean-up job: every hour, once across instances, delete dead subscriptions (expired,
// or not sent again for months) and retire old delivery rows into their articles' totals (see
// app/features/push/retention.server.ts). Each batch is one transaction, and each retired row is
// counted once whichever pass retires it, so a pass cut off is finished by the next.
import { cleanUpPush, type PushCleanup } from '#app/features/push/retention.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type PeriodicJob, type PeriodicTiming, startPeriodic } from './periodic.ts'

export interface PushCleanupOptions extends PeriodicTiming {
	clock?: () => Date
}

/** runOnce() gives what the pass did, or undefined when it failed (logged; tried next hour). */
export function startPushCleanup(
	storage: Storage,
	logger: Logger,
	options: PushCleanupOptions = {},
): PeriodicJob<PushCleanup | undefined> {
	const clock = options.clock ?? (() => new Date())
	return startPeriodic(
		storage,
		logger,
		{
			name: 'push-cleanup',
			async pass() {
				try {
					const done = await cleanUpPush(storage, clock())
					if (done.subscriptions > 0 || done.deliveries > 0)
						logger.info('push: dead subscriptions deleted, old deliveries retired', { ...done })
					return done
				} catch (error) {
					logger.warn('push: could not clean up subscriptions and deliveries; will retry', {
						error,
					})
					return undefined
				}
			},
		},
		options,
	)
}
