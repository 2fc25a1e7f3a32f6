// A retention setting: how many whole days something personal is kept (contact messages, raw
// screen views), stored in the settings table so an operator can change it without a deploy.
import type { Storage } from '#storage/port/storage.ts'

export type RetentionDays = { ok: true; days: number } | { ok: false; error: string }

export interface RetentionSetting {
	key: string
	defaultDays: number
	/** Reads a setting's text: empty means the default; otherwise a whole number of days. */
	parse(raw: string | undefined): RetentionDays
	read(storage: Storage): Promise<RetentionDays>
	/** Stores `raw` when it parses; says why not otherwise. */
	set(storage: Storage, raw: string): Promise<RetentionDays>
}

export function retentionSetting(spec: {
	key: string
	/** What is kept, to start the error message: "Message retention". */
	label: string
	defaultDays: number
	maxDays: number
}): RetentionSetting {
	const parse = (raw: string | undefined): RetentionDays => {
		const text = raw?.trim() ?? ''
		if (text === '') return { ok: true, days: spec.defaultDays }
		const days = /^\d+$/.test(text) ? Number(text) : Number.NaN
		if (!Number.isSafeInteger(days) || days < 1 || days > spec.maxDays) {
			return {
				ok: false,
				error: `${spec.label} must be a whole number of days from 1 to ${spec.maxDays} (got "${text}").`,
			}
		}
		return { ok: true, days }
	}
	return {
		key: spec.key,
		defaultDays: spec.defaultDays,
		parse,
		async read(storage) {
			return parse((await storage.settings.all())[spec.key])
		},
		async set(storage, raw) {
			const parsed = parse(raw)
			if (parsed.ok) await storage.settings.set({ [spec.key]: String(parsed.days) })
			return parsed
		},
	}
}
