// How long contact messages are kept: the `contact.retentionDays` setting (default 365 days).
// Messages hold visitors' names and addresses, so they are not kept for ever.
import type { Storage } from '#server/storage/types.ts'

export const retentionDaysKey = 'contact.retentionDays'
export const defaultRetentionDays = 365
/** A hundred years: more is not a retention limit, and far dates overflow. */
const maxRetentionDays = 36_500
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
			error: `Message retention must be a whole number of days from 1 to ${maxRetentionDays} (got "${text}").`,
		}
	}
	return { ok: true, days }
}

export async function setRetentionDays(storage: Storage, raw: string): Promise<RetentionDays> {
	const parsed = parseRetentionDays(raw)
	if (parsed.ok) await storage.settings.set({ [retentionDaysKey]: String(parsed.days) })
	return parsed
}

export type RetentionOutcome =
	| { ok: true; days: number; deleted: number }
	| { ok: false; error: string }

/**
 * Deletes messages older than the retention setting. A setting that cannot be read deletes
 * nothing: guessing could remove messages someone meant to keep.
 */
export async function deleteExpiredMessages(
	storage: Storage,
	now: Date,
): Promise<RetentionOutcome> {
	const parsed = parseRetentionDays((await storage.settings.all())[retentionDaysKey])
	if (!parsed.ok) return parsed
	const deleted = await storage.messages.deleteOlderThan(
		new Date(now.getTime() - parsed.days * dayMs),
	)
	return { ok: true, days: parsed.days, deleted }
}
