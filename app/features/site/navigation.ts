// The site's menus: the header's links (Articles and Contact unless an admin says otherwise) and
// the footer's. Kept as one setting (site.navigation, JSON); read with the site's settings.
// What the public pages need is here; the checks, with zod, in navigation.schema.ts.
export interface MenuLink {
	label: string
	/** A path of this site (/about, /tags/climate) or an https address elsewhere. */
	href: string
}

export interface Navigation {
	header: MenuLink[]
	footer: MenuLink[]
}

export const defaultNavigation: Navigation = {
	header: [
		{ label: 'Articles', href: '/articles' },
		{ label: 'Contact', href: '/contact' },
	],
	footer: [
		{ label: 'RSS feed', href: '/feed.xml' },
		{ label: 'Contact', href: '/contact' },
	],
}

/** Whether a link leaves the site: it opens as a plain link, not a client-side navigation. */
export function isOutside(href: string): boolean {
	return !href.startsWith('/')
}

/**
 * Whether a link opens as a plain link, not a client-side navigation: one leaving the site, or
 * a file of this site's (a feed: /feed.xml, /atom.xml?lang=es), which is no page to draw.
 */
export function opensPlainly(href: string): boolean {
	return isOutside(href) || /\.xml(?:[?#]|$)/.test(href)
}
