// The privacy job: every hour, once across instances, forget past days' salts and stale
// rate-limit counters (see app/features/privacy/visitor-hash.server.ts). It only deletes, each
// step in one statement: a pass cut off is finished by the next.
import { forgetOldSalts } from '#app/features/privacy/visitor-hash.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type PeriodicJob, type PeriodicTiming, startPeriodic } from './periodic.ts'

export function startPrivacyCleanup(
	storage: Storage,
	logger: Logger,
	timing: PeriodicTiming = {},
): PeriodicJob<void> {
	return startPeriodic(
		storage,
		logger,
		{
			name: 'privacy-cleanup',
			async pass() {
				try {
					const forgotten = await forgetOldSalts(storage, new Date())
					if (forgotten.salts > 0) logger.info('privacy: past days’ salts deleted', forgotten)
				} catch (error) {
					logger.warn('privacy: could not delete past salts; will retry', { error })
				}
			},
		},
		timing,
	)
}
