// How long contact messages are kept: the `contact.retentionDays` setting (default 365 days).
// Messages hold visitors' names and addresses, so they are not kept for ever.
import { retentionSetting } from '#app/features/privacy/retention-setting.server.ts'
import type { SettingJobSpec } from '#app/lib/jobs.ts'
import type { Storage } from '#storage/port/storage.ts'

export const messageRetention = retentionSetting({
	key: 'contact.retentionDays',
	label: 'Message retention',
	defaultDays: 365,
	// A hundred years: more is not a retention limit, and far dates overflow.
	maxDays: 36_500,
})
const dayMs = 24 * 60 * 60 * 1000

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
	const parsed = await messageRetention.read(storage)
	if (!parsed.ok) return parsed
	const deleted = await storage.messages.deleteOlderThan(
		new Date(now.getTime() - parsed.days * dayMs),
	)
	return { ok: true, days: parsed.days, deleted }
}

/** Every hour, once across instances: one DELETE, so a pass cut off deleted all of it or none. */
export const messageRetentionJob: SettingJobSpec<{ days: number; deleted: number }> = {
	name: 'message-retention',
	area: 'messages',
	settingKey: messageRetention.key,
	skipped: 'no old message deleted',
	failed: 'could not delete old messages',
	pass: ({ storage, clock }) => deleteExpiredMessages(storage, clock()),
	report: ({ deleted, days }) =>
		deleted > 0 ? ['old messages deleted', { deleted, retentionDays: days }] : undefined,
}
