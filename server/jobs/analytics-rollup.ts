// The analytics roll-up job: every hour, roll the days older than the retention setting up into
// daily totals and delete their screen views. Every instance may run it: a day is rolled up once.
import { rollUpOldViews, viewRetention } from '#app/features/analytics/retention.server.ts'
import { utcDay } from '#app/features/privacy/visitor-hash.server.ts'
import type { Logger } from '../logger.ts'
import type { Storage } from '../storage/types.ts'
import { type RetentionJobOptions, startRetentionJob } from './retention-job.ts'

export function startAnalyticsRollup(
	storage: Storage,
	logger: Logger,
	options: RetentionJobOptions = {},
) {
	let warmed = false
	return startRetentionJob(
		{
			area: 'analytics',
			settingKey: viewRetention.key,
			skipped: 'no day rolled up',
			failed: 'could not roll up old days',
			async pass(now) {
				const outcome = await rollUpOldViews(storage, now)
				if (outcome.ok && !warmed) {
					// After a start, the dashboard's first read computes every kept day's figures:
					// seconds on a busy site. Done here, once, the first editor to open it is spared that.
					warmed = true
					await storage.analytics
						.totals({ from: outcome.beforeDay, to: utcDay(now) })
						.catch((error) => logger.warn('analytics: could not compute the kept days', { error }))
				}
				return outcome
			},
			report: ({ days, views, beforeDay }) =>
				days > 0 ? ['old days rolled up', { days, views, before: beforeDay }] : undefined,
		},
		logger,
		options,
	)
}
