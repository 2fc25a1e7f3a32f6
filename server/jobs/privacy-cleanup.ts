// The privacy job: every hour, forget past days' salts and stale rate-limit counters (see
// app/features/privacy/visitor-hash.server.ts). Every instance may run it: it only deletes.
import { forgetOldSalts } from '#app/features/privacy/visitor-hash.server.ts'
import type { Logger } from '../logger.ts'
import type { Storage } from '../storage/types.ts'
import { type PeriodicJob, startPeriodic } from './periodic.ts'

export function startPrivacyCleanup(
	storage: Storage,
	logger: Logger,
	intervalMs = 60 * 60 * 1000,
): PeriodicJob<void> {
	return startPeriodic(async () => {
		try {
			const forgotten = await forgetOldSalts(storage, new Date())
			if (forgotten.salts > 0) logger.info('privacy: past days’ salts deleted', forgotten)
		} catch (error) {
			logger.warn('privacy: could not delete past salts; will retry', { error })
		}
	}, intervalMs)
}
