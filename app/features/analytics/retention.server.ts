// How long screen views are kept as they were recorded: the `analytics.retentionDays` setting
// (default 90 days). Older days are rolled up into daily totals, which the dashboard reads just
// the same, and their views deleted: a visitor hash is kept no longer than that.
import { retentionSetting } from '#app/features/privacy/retention-setting.server.ts'
import type { Storage } from '#storage/port/storage.ts'

export const viewRetention = retentionSetting({
	key: 'analytics.retentionDays',
	label: 'Screen view retention',
	defaultDays: 90,
	// Ten years: raw views are for recent weeks; daily totals keep the long view.
	maxDays: 3_650,
})
const dayMs = 24 * 60 * 60 * 1000

/** The first UTC day whose views are kept: days before it are rolled up. */
export function firstKeptDay(now: Date, retentionDays: number): string {
	return new Date(now.getTime() - retentionDays * dayMs).toISOString().slice(0, 10)
}

export type RollUpOutcome =
	| { ok: true; retentionDays: number; beforeDay: string; days: number; views: number }
	| { ok: false; error: string }

/**
 * Rolls up the days before today (UTC) minus the retention setting. A setting that cannot be
 * read rolls up nothing: guessing could delete views someone meant to keep.
 */
export async function rollUpOldViews(storage: Storage, now: Date): Promise<RollUpOutcome> {
	const parsed = await viewRetention.read(storage)
	if (!parsed.ok) return parsed
	const beforeDay = firstKeptDay(now, parsed.days)
	const { days, views } = await storage.analytics.rollUp(beforeDay)
	return { ok: true, retentionDays: parsed.days, beforeDay, days, views }
}
