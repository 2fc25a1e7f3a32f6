import type { SiteSettings } from '#app/features/site/site-settings.ts'
import { defaultSiteSettings } from '#app/features/site/site-settings.ts'

interface RootData {
	site: SiteSettings
	siteUrl: string
}

/** The root loader's data from a meta function's matches (a route's meta replaces the root's). */
export function rootData(
	matches: readonly ({ id: string; loaderData?: unknown } | undefined)[],
): RootData {
	const root = matches.find((match) => match?.id === 'root')?.loaderData as RootData | undefined
	return root ?? { site: defaultSiteSettings, siteUrl: '' }
}
