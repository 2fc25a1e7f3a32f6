// What an admin may put in a menu (navigation.server.ts), and reading the stored menus back.
import { z } from 'zod'
import { defaultNavigation, type Navigation } from './navigation.ts'

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
