import type { I18n } from '@lingui/core'
import { useRouteLoaderData } from 'react-router'
import type { SiteSettings } from '#app/features/site/site-settings.ts'
import { defaultSiteSettings } from '#app/features/site/site-settings.ts'
import { i18nFor } from './i18n.ts'

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

/** The page's interface language's messages, for a meta function: `rootI18n(matches)._(msg…)`. */
export function rootI18n(
	matches: readonly ({ id: string; loaderData?: unknown } | undefined)[],
): I18n {
	const root = matches.find((match) => match?.id === 'root')?.loaderData as
		| { locale?: string }
		| undefined
	return i18nFor(root?.locale ?? 'en')
}

/** What components read of the root loader's data; absent only before it has loaded. */
function useRoot(): { site?: { language?: string }; timeZone?: string } | undefined {
	return useRouteLoaderData('root') as { site?: { language?: string }; timeZone?: string }
}

/** The site's language (a setting): content naming none is in it. */
export function useSiteLanguage(): string {
	return useRoot()?.site?.language ?? defaultSiteSettings.language
}

/** The site's time zone (a setting), where dates are shown in it. */
export function useSiteTimeZone(): string | undefined {
	return useRoot()?.timeZone
}
