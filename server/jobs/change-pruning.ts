// The change feed's pruning: every hour, once across instances, keep the newest changes and move
// the horizon past the rest (a stream client further behind reloads its list). One transaction.
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type PeriodicJob, type PeriodicTiming, startPeriodic } from './periodic.ts'

/** The feed keeps the newest changes; a client further behind than that reloads its list. */
export const keptChanges = 10_000

export function startChangePruning(
	storage: Storage,
	logger: Logger,
	timing: PeriodicTiming = {},
): PeriodicJob<number> {
	return startPeriodic(
		storage,
		logger,
		{
			name: 'change-pruning',
			pass: () =>
				storage.changes.prune(keptChanges).catch((error: unknown) => {
					logger.warn('could not prune the change feed', { error })
					return 0
				}),
		},
		timing,
	)
}
