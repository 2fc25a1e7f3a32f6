// The change feed's pruning: keep the newest changes and move the horizon past the rest; a live
// page further behind than that reloads its list (the broker sends it a reset). One transaction.
import type { PeriodicJobSpec } from './jobs.ts'

/** The feed keeps the newest changes; a client further behind than that reloads its list. */
export const keptChanges = 10_000

/** Every hour, once across instances. Its result: how many changes went. */
export const changePruningJob: PeriodicJobSpec<number> = {
	name: 'change-pruning',
	pass: ({ storage, logger }) =>
		storage.changes.prune(keptChanges).catch((error: unknown) => {
			logger.warn('could not prune the change feed', { error })
			return 0
		}),
}
