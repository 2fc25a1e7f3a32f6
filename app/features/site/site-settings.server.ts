import type { Storage } from '#storage/port/storage.ts'
import { storageOutage } from '#storage/port/unavailable.ts'
import { defaultSiteSettings, type SiteSettings } from './site-settings.ts'

const keys = Object.keys(defaultSiteSettings) as (keyof SiteSettings)[]

// The settings last read, per database: while it is away (decision 016), pages that need nothing
// else, and the outage page itself, still carry the site's own title, logo and texts. Nothing
// can change them meanwhile: a change would need the database.
const lastRead = new WeakMap<Storage, SiteSettings>()

/** The site's settings from the database, each falling back to its default when unset or empty. */
export async function getSiteSettings(storage: Storage): Promise<SiteSettings> {
	let stored: Record<string, string>
	try {
		stored = await storage.settings.all()
	} catch (error) {
		const known = lastRead.get(storage)
		if (known && storageOutage(error)) return known
		throw error
	}
	const settings = { ...defaultSiteSettings }
	for (const key of keys) {
		const value = stored[`site.${key}`]
		if (value) settings[key] = value
	}
	lastRead.set(storage, settings)
	return settings
}

export function saveSiteSettings(storage: Storage, values: Partial<SiteSettings>) {
	const entries = Object.entries(values).filter(([key]) => (keys as string[]).includes(key))
	return storage.settings.set(
		Object.fromEntries(entries.map(([key, value]) => [`site.${key}`, String(value)])),
	)
}
