// How long screen views are kept as they were recorded: the `analytics.retentionDays` setting
// (default 90 days). Older days are rolled up into daily totals, which the dashboard reads just
// the same, and their views deleted: a visitor hash is kept no longer than that.
import { retentionSetting } from '#app/features/privacy/retention-setting.server.ts'
import { siteDay } from '#app/features/site/site-settings.server.ts'
import type { SettingJobSpec } from '#app/lib/jobs.ts'
import type { Storage } from '#storage/port/storage.ts'

export const viewRetention = retentionSetting({
	key: 'analytics.retentionDays',
	label: 'Screen view retention',
	defaultDays: 90,
	// Ten years: raw views are for recent weeks; daily totals keep the long view.
	maxDays: 3_650,
})
const dayMs = 24 * 60 * 60 * 1000

/** The first day whose views are kept, counted back from the site's `today`: days before it are rolled up. */
export function firstKeptDay(today: string, retentionDays: number): string {
	return new Date(Date.parse(`${today}T00:00:00Z`) - retentionDays * dayMs)
		.toISOString()
		.slice(0, 10)
}

export type RollUpOutcome =
	| { ok: true; retentionDays: number; beforeDay: string; days: number; views: number }
	| { ok: false; error: string }

/**
 * Rolls up the days before the site's today minus the retention setting. A setting that cannot be
 * read rolls up nothing: guessing could delete views someone meant to keep.
 */
export async function rollUpOldViews(storage: Storage, now: Date): Promise<RollUpOutcome> {
	const parsed = await viewRetention.read(storage)
	if (!parsed.ok) return parsed
	const beforeDay = firstKeptDay(await siteDay(storage, now), parsed.days)
	const { days, views } = await storage.analytics.rollUp(beforeDay)
	return { ok: true, retentionDays: parsed.days, beforeDay, days, views }
}

/**
 * Every hour, once across instances: roll the days older than the setting up into daily totals
 * and delete their views. A day is rolled up in one transaction (totals written, views deleted
 * together), so a pass cut off leaves each day rolled up or untouched, never counted twice.
 */
export const analyticsRollupJob: SettingJobSpec<{
	retentionDays: number
	beforeDay: string
	days: number
	views: number
}> = {
	name: 'analytics-rollup',
	area: 'analytics',
	settingKey: viewRetention.key,
	skipped: 'no day rolled up',
	failed: 'could not roll up old days',
	pass: ({ storage, clock }) => rollUpOldViews(storage, clock()),
	report: ({ days, views, beforeDay }) =>
		days > 0 ? ['old days rolled up', { days, views, before: beforeDay }] : undefined,
	// After a start, the dashboard's first read computes every kept day's figures: seconds on a
	// busy site. Each instance keeps its own copy of them, so each computes them here, once,
	// whichever instance rolled up, and the first editor to open the dashboard is spared that.
	async afterFirstClaim({ storage, logger, clock }) {
		const retention = await viewRetention.read(storage)
		if (!retention.ok) return
		const today = await siteDay(storage, clock()).catch(() => undefined)
		if (today === undefined) return
		await storage.analytics
			.totals({ from: firstKeptDay(today, retention.days), to: today })
			.catch((error) => logger.warn('analytics: could not compute the kept days', { error }))
	},
}
