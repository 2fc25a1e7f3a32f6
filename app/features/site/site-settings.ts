import { type InterfaceLocale, isInterfaceLocale } from '#app/lib/i18n.ts'

export interface SiteSettings {
	title: string
	tagline: string
	/** A path on this site or an absolute URL. */
	logoUrl: string
	contactEmail: string
	contactAddress: string
	contactIntro: string
	/** The site's own language (an interface language): what a reader gets when none of theirs is offered. */
	language: string
	/** The interface languages readers may get, comma-separated ("es,ar"); the site's language always. */
	languages: string
	/** The IANA time zone dates and times are shown in ("Europe/Madrid"). */
	timeZone: string
}

export const defaultSiteSettings: SiteSettings = {
	title: 'Preserve the Planet',
	tagline: 'Clear, checkable reporting on climate, nature and the people working to protect them.',
	logoUrl: '/logo.svg',
	contactEmail: 'hello@example.org',
	contactAddress: 'Preserve the Planet\n1 Greenway\nRiverside\nEarth',
	contactIntro:
		'We read every message. Write to us with a correction, a story we should follow, or to work with us.',
	language: 'en',
	languages: 'en',
	timeZone: 'UTC',
}

/** The site's language and the interface languages it offers (its own first), as known codes. */
export function siteLocales(settings: Pick<SiteSettings, 'language' | 'languages'>): {
	language: InterfaceLocale
	offered: InterfaceLocale[]
} {
	const language = isInterfaceLocale(settings.language) ? settings.language : 'en'
	const offered = [language]
	for (const code of settings.languages.split(',')) {
		const trimmed = code.trim()
		if (isInterfaceLocale(trimmed) && !offered.includes(trimmed)) offered.push(trimmed)
	}
	return { language, offered }
}

// Whether this runtime knows a zone: asked once per zone name, as making a DateTimeFormat to
// ask costs more than the rest of a page's root data (read on every page).
const knownZones = new Map<string, boolean>()

/** The site's time zone, or UTC where the stored one is not known to this runtime. */
export function siteTimeZone(settings: Pick<SiteSettings, 'timeZone'>): string {
	const zone = settings.timeZone
	let known = knownZones.get(zone)
	if (known === undefined) {
		try {
			new Intl.DateTimeFormat('en', { timeZone: zone })
			known = true
		} catch {
			known = false
		}
		// Settings hold one zone; a bound all the same, as the value is an admin's text.
		if (knownZones.size >= 100) knownZones.clear()
		knownZones.set(zone, known)
	}
	return known ? zone : 'UTC'
}
