// The analytics roll-up job: every hour, roll the days older than the retention setting up into
// daily totals and delete their screen views. Every instance may run it: a day is rolled up once.
import {
	type RollUpOutcome,
	retentionDaysKey,
	rollUpOldViews,
} from '#app/features/analytics/retention.server.ts'
import { utcDay } from '#app/features/privacy/visitor-hash.server.ts'
import type { Logger } from '../logger.ts'
import type { Storage } from '../storage/types.ts'

export interface AnalyticsRollup {
	/** Runs one step now (tests). */
	runOnce(): Promise<RollUpOutcome>
	stop(): Promise<void>
}

export interface AnalyticsRollupOptions {
	intervalMs?: number
	clock?: () => Date
}

export function startAnalyticsRollup(
	storage: Storage,
	logger: Logger,
	options: AnalyticsRollupOptions = {},
): AnalyticsRollup {
	const intervalMs = options.intervalMs ?? 60 * 60 * 1000
	const clock = options.clock ?? (() => new Date())
	let chain: Promise<unknown> = Promise.resolve()
	// Said once per bad value, not every hour.
	let reported = ''

	const runOnce = (): Promise<RollUpOutcome> => {
		const step = chain.then(async (): Promise<RollUpOutcome> => {
			try {
				const outcome = await rollUpOldViews(storage, clock())
				if (!outcome.ok && outcome.error !== reported) {
					logger.warn(`analytics: no day rolled up; fix the ${retentionDaysKey} setting`, {
						error: outcome.error,
					})
				}
				reported = outcome.ok ? '' : outcome.error
				if (outcome.ok && outcome.days > 0) {
					logger.info('analytics: old days rolled up', {
						days: outcome.days,
						views: outcome.views,
						before: outcome.beforeDay,
					})
				}
				return outcome
			} catch (error) {
				logger.warn('analytics: could not roll up old days; will retry', { error })
				return { ok: false, error: String(error) }
			}
		})
		chain = step
		return step
	}

	// After a start, the dashboard's first read computes every raw day's figures: seconds on a busy
	// site. Doing it here, once, spares the first editor to open the dashboard that wait.
	const warmUp = (outcome: RollUpOutcome) => {
		if (!outcome.ok || stopped) return
		chain = chain.then(() =>
			storage.analytics
				.totals({ from: outcome.beforeDay, to: utcDay(clock()) })
				.catch((error) => logger.warn('analytics: could not compute the kept days', { error })),
		)
	}

	let stopped = false
	let timer: NodeJS.Timeout | undefined
	let first = true
	const tick = () => {
		const step = runOnce()
		if (first) step.then(warmUp)
		first = false
		step.finally(() => {
			if (stopped) return
			timer = setTimeout(tick, intervalMs)
			timer.unref()
		})
	}
	tick()
	return {
		runOnce,
		async stop() {
			stopped = true
			clearTimeout(timer)
			await chain
		},
	}
}
