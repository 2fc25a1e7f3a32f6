// How long screen views are kept as they were recorded: the `analytics.retentionDays` setting
// (default 90 days). Older days are rolled up into daily totals, which the dashboard reads just
// the same, and their views deleted: a visitor hash is kept no longer than that.
import type { Storage } from '#server/storage/types.ts'

export const retentionDaysKey = 'analytics.retentionDays'
export const defaultRetentionDays = 90
/** Ten years: raw views are for recent weeks; daily totals keep the long view. */
const maxRetentionDays = 3_650
const dayMs = 24 * 60 * 60 * 1000

export type RetentionDays = { ok: true; days: number } | { ok: false; error: string }

/** Reads a setting's text: empty means the default; otherwise a whole number of days. */
export function parseRetentionDays(raw: string | undefined): RetentionDays {
	const text = raw?.trim() ?? ''
	if (text === '') return { ok: true, days: defaultRetentionDays }
	const days = /^\d+$/.test(text) ? Number(text) : Number.NaN
	if (!Number.isSafeInteger(days) || days < 1 || days > maxRetentionDays) {
		return {
			ok: false,
			error: `Screen view retention must be a whole number of days from 1 to ${maxRetentionDays} (got "${text}").`,
		}
	}
	return { ok: true, days }
}

export async function readRetentionDays(storage: Storage): Promise<RetentionDays> {
	return parseRetentionDays((await storage.settings.all())[retentionDaysKey])
}

export async function setRetentionDays(storage: Storage, raw: string): Promise<RetentionDays> {
	const parsed = parseRetentionDays(raw)
	if (parsed.ok) await storage.settings.set({ [retentionDaysKey]: String(parsed.days) })
	return parsed
}

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
	const parsed = await readRetentionDays(storage)
	if (!parsed.ok) return parsed
	const beforeDay = firstKeptDay(now, parsed.days)
	const { days, views } = await storage.analytics.rollUp(beforeDay)
	return { ok: true, retentionDays: parsed.days, beforeDay, days, views }
}
