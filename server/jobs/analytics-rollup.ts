// The analytics roll-up job: every hour, once across instances, roll the days older than the
// retention setting up into daily totals and delete their screen views. A day is rolled up in
// one transaction (its totals written and its views deleted together), so a pass cut off midway
// leaves each day either rolled up or untouched, and no day is ever counted twice.
import {
	firstKeptDay,
	rollUpOldViews,
	viewRetention,
} from '#app/features/analytics/retention.server.ts'
import { utcDay } from '#app/features/privacy/visitor-hash.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type RetentionJobOptions, startRetentionJob } from './retention-job.ts'

export function startAnalyticsRollup(
	storage: Storage,
	logger: Logger,
	options: RetentionJobOptions = {},
) {
	const clock = options.clock ?? (() => new Date())
	return startRetentionJob(
		storage,
		{
			name: 'analytics-rollup',
			area: 'analytics',
			settingKey: viewRetention.key,
			skipped: 'no day rolled up',
			failed: 'could not roll up old days',
			pass: (now) => rollUpOldViews(storage, now),
			report: ({ days, views, beforeDay }) =>
				days > 0 ? ['old days rolled up', { days, views, before: beforeDay }] : undefined,
			// After a start, the dashboard's first read computes every kept day's figures: seconds on
			// a busy site. Each instance keeps its own copy of them, so each computes them here, once,
			// whichever instance rolled up, and the first editor to open the dashboard is spared that.
			async afterFirstClaim() {
				const retention = await viewRetention.read(storage)
				if (!retention.ok) return
				const now = clock()
				await storage.analytics
					.totals({ from: firstKeptDay(now, retention.days), to: utcDay(now) })
					.catch((error) => logger.warn('analytics: could not compute the kept days', { error }))
			},
		},
		logger,
		options,
	)
}
