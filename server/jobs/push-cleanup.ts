// The push clean-up job: every hour, and once at start, delete dead subscriptions (expired, or
// not sent again for months) and retire old delivery rows into their articles' totals (see
// app/features/push/retention.server.ts). Every instance may run it: deleting what is gone does
// nothing, and each retired row is counted once whichever instance retires it.
import { cleanUpPush, type PushCleanup } from '#app/features/push/retention.server.ts'
import type { Logger } from '../logger.ts'
import type { Storage } from '../storage/types.ts'
import { type PeriodicJob, startPeriodic } from './periodic.ts'

export interface PushCleanupOptions {
	intervalMs?: number
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
		async () => {
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
		options.intervalMs ?? 60 * 60 * 1000,
	)
}
