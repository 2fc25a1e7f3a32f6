// The site's menus: the header's links (Articles and Contact unless an admin says otherwise) and
// the footer's. Kept as one setting (site.navigation, JSON); read with the site's settings.
import { z } from 'zod'

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

export const navigationLimits = { header: 8, footer: 12 } as const

const ownPath = /^\/(?!\/)\S*$/

export const menuLinkSchema = z.object({
	label: z
		.string()
		.trim()
		.min(1, 'Give the link a label, e.g. About us.')
		.max(40, 'Keep the label under 40 characters.'),
	href: z
		.string()
		.trim()
		.max(2000, 'Keep the address under 2,000 characters.')
		.refine(
			(value) => ownPath.test(value) || (URL.canParse(value) && value.startsWith('https://')),
			'Give an address of this site starting with /, e.g. /about, or a whole https:// address.',
		),
})

export const navigationSchema = z.object({
	header: z.array(menuLinkSchema).max(navigationLimits.header),
	footer: z.array(menuLinkSchema).max(navigationLimits.footer),
})

/** The stored setting as menus; anything unreadable gives the default menus. */
export function parseNavigation(stored: string | undefined): Navigation {
	if (!stored) return defaultNavigation
	try {
		const parsed = navigationSchema.safeParse(JSON.parse(stored))
		return parsed.success ? parsed.data : defaultNavigation
	} catch {
		return defaultNavigation
	}
}

/** Whether a link leaves the site: it opens as a plain link, not a client-side navigation. */
export function isOutside(href: string): boolean {
	return !href.startsWith('/')
}
