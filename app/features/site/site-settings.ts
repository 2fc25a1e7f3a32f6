export interface SiteSettings {
	title: string
	tagline: string
	/** A path on this site or an absolute URL. */
	logoUrl: string
	contactEmail: string
	contactAddress: string
	contactIntro: string
}

export const defaultSiteSettings: SiteSettings = {
	title: 'Preserve the Planet',
	tagline: 'Clear, checkable reporting on climate, nature and the people working to protect them.',
	logoUrl: '/logo.svg',
	contactEmail: 'hello@example.org',
	contactAddress: 'Preserve the Planet\n1 Greenway\nRiverside\nEarth',
	contactIntro:
		'We read every message. Write to us with a correction, a story we should follow, or to work with us.',
}
