import { defaultSiteSettings, type SiteSettings } from './site-settings.ts'
import type { Storage } from '#server/storage/types.ts'

const keys = Object.keys(defaultSiteSettings) as (keyof SiteSettings)[]

/** The site's settings from the database, each falling back to its default when unset or empty. */
export async function getSiteSettings(storage: Storage): Promise<SiteSettings> {
	const stored = await storage.settings.all()
	const settings = { ...defaultSiteSettings }
	for (const key of keys) {
		const value = stored[`site.${key}`]
		if (value) settings[key] = value
	}
	return settings
}

export function saveSiteSettings(storage: Storage, values: Partial<SiteSettings>) {
	const entries = Object.entries(values).filter(([key]) => (keys as string[]).includes(key))
	return storage.settings.set(
		Object.fromEntries(entries.map(([key, value]) => [`site.${key}`, String(value)])),
	)
}
