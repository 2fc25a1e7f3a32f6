import { dayIn } from '#app/lib/format.ts'
import type { Storage } from '#storage/port/storage.ts'
import { storageOutage } from '#storage/port/unavailable.ts'
import { parseNavigation } from './navigation.schema.ts'
import type { Navigation } from './navigation.ts'
import { defaultSiteSettings, type SiteSettings } from './site-settings.ts'

const keys = Object.keys(defaultSiteSettings) as (keyof SiteSettings)[]
/** Settings an admin may empty on purpose (no introduction on the contact page). */
const mayBeEmpty: (keyof SiteSettings)[] = ['contactIntro']

// The settings last read, per database: while it is away (decision 016), pages that need nothing
// else, and the outage page itself, still carry the site's own title, logo and texts. Nothing
// can change them meanwhile: a change would need the database.
const lastRead = new WeakMap<Storage, { settings: SiteSettings; navigation: Navigation }>()

type Site = { settings: SiteSettings; navigation: Navigation }

// A read under way is shared: a page's root and its own loader both ask, at once, as do the
// requests that arrive together. A read started before a settings change committed is not taken
// by one that starts after it finished.
const reading = new WeakMap<Storage, Promise<Site>>()

/** The site's settings and menus, in one read; each setting falls back to its default. */
export function getSite(storage: Storage): Promise<Site> {
	const under = reading.get(storage)
	if (under) return under
	const read = readSite(storage).finally(() => reading.delete(storage))
	reading.set(storage, read)
	return read
}

async function readSite(storage: Storage): Promise<Site> {
	let stored: Record<string, string>
	try {
		stored = await storage.settings.all()
	} catch (error) {
		const known = lastRead.get(storage)
		if (known && storageOutage(error)) return known
		throw error
	}
	const site = {
		settings: siteSettingsFrom(stored),
		navigation: parseNavigation(stored[navigationKey]),
	}
	lastRead.set(storage, site)
	return site
}

/** The site's settings in the stored ones (`storage.settings.all()`), each falling back to its
 * default when unset or (but for those that may be empty) empty. */
export function siteSettingsFrom(stored: Record<string, string>): SiteSettings {
	const settings = { ...defaultSiteSettings }
	for (const key of keys) {
		const value = stored[`site.${key}`]
		if (value || (value === '' && mayBeEmpty.includes(key))) settings[key] = value
	}
	// Sites that set the newsletter digest's time zone before they had one of their own: that
	// zone is the site's until an admin sets the site's (there is one time zone for both).
	if (!stored['site.timeZone'] && stored[legacyDigestTimeZone])
		settings.timeZone = stored[legacyDigestTimeZone]
	return settings
}

/** The site's settings from the database, each falling back to its default when unset or (but
 * for those that may be empty) empty. */
export async function getSiteSettings(storage: Storage): Promise<SiteSettings> {
	return (await getSite(storage)).settings
}

/** The site's day at `now`, yyyy-mm-dd, in its time zone (a setting). */
export async function siteDay(storage: Storage, now: Date): Promise<string> {
	return dayIn(now, (await getSiteSettings(storage)).timeZone)
}

const navigationKey = 'site.navigation'
const legacyDigestTimeZone = 'newsletter.time_zone'

export function saveNavigation(storage: Storage, navigation: Navigation) {
	return storage.settings.set({ [navigationKey]: JSON.stringify(navigation) })
}

export function saveSiteSettings(storage: Storage, values: Partial<SiteSettings>) {
	const entries = Object.entries(values).filter(([key]) => (keys as string[]).includes(key))
	return storage.settings.set(
		Object.fromEntries(entries.map(([key, value]) => [`site.${key}`, String(value)])),
	)
}
