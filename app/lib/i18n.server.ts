// The interface language of a request, for what loaders and actions write in words (a form's
// errors, a notice): the same choice root.tsx makes for the page.
import type { I18n } from '@lingui/core'
import { createContext, type RouterContextProvider } from 'react-router'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { type SiteSettings, siteLocales } from '#app/features/site/site-settings.ts'
import type { LanguageFilter } from '#storage/port/articles.ts'
import { servicesContext } from './context.server.ts'
import {
	chooseLocale,
	cookieValue,
	type InterfaceLocale,
	i18nFor,
	interfaceLocaleOf,
	isInterfaceLocale,
	languageCookie,
	requestedLocales,
} from './i18n.ts'

/**
 * The interface language the signed-in account chose on its own page, set by the staff area's
 * guard (requireEditorMiddleware): any of Canopy's languages, whichever the site offers readers.
 * Null outside the staff area and for an account that chose none.
 */
export const accountLocaleContext = createContext<InterfaceLocale | null>(null)

export async function requestLocale(
	request: Request,
	context: Readonly<RouterContextProvider>,
): Promise<InterfaceLocale> {
	const { storage } = context.get(servicesContext)
	return pageLocale(request, context, await getSiteSettings(storage))
}

/** The interface language of a page: the account's choice in the staff area, else the reader's. */
export function pageLocale(
	request: Request,
	context: Readonly<RouterContextProvider>,
	settings: Pick<SiteSettings, 'language' | 'languages'>,
): InterfaceLocale {
	return context.get(accountLocaleContext) ?? localeFor(request, settings)
}

/** The interface language for a request on a site with these settings (root.tsx's too). */
export function localeFor(
	request: Request,
	settings: Pick<SiteSettings, 'language' | 'languages'>,
): InterfaceLocale {
	const { language, offered } = siteLocales(settings)
	const requested = requestedLocales(
		request.headers.get('accept-language'),
		cookieValue(request.headers.get('cookie'), languageCookie),
	)
	return chooseLocale(requested, offered, language)
}

/**
 * Whether the reader chose the interface language with the switcher (its cookie names one the
 * site offers): the page then keeps it, whatever the language of the article shown.
 */
export function localeChosen(
	request: Request,
	settings: Pick<SiteSettings, 'language' | 'languages'>,
): boolean {
	const chosen = cookieValue(request.headers.get('cookie'), languageCookie)
	return isInterfaceLocale(chosen) && siteLocales(settings).offered.includes(chosen)
}

/** The request's interface language's messages: `i18n._(msg\`…\`)`. */
export async function requestI18n(
	request: Request,
	context: Readonly<RouterContextProvider>,
): Promise<I18n> {
	return i18nFor(await requestLocale(request, context))
}

/** A list's language: only articles in it, plus those naming none when it is the site's. */
export interface ListLanguage {
	tag: InterfaceLocale
	includeUnset: boolean
	/** The site's other interface languages (LanguageFilter: what the site's language takes in). */
	others: InterfaceLocale[]
}

/** A list's language as read: every language's when the reader's had nothing (listInReaderLanguage). */
export function listLanguage<T extends { filter: ListLanguage | undefined }>(
	language: T,
	everyLanguage: boolean,
): T & { noneInReaderLanguage: boolean } {
	return everyLanguage
		? { ...language, filter: undefined, noneInReaderLanguage: true }
		: { ...language, noneInReaderLanguage: false }
}

/**
 * The language /articles and the home page list for a reader: theirs, where the site offers more
 * than one; every language with `?lang=all` (the list's "Show every language" link), or where the
 * site offers one.
 */
export async function readerListLanguage(
	request: Request,
	context: Readonly<RouterContextProvider>,
): Promise<{ filter: ListLanguage | undefined; offered: boolean; locale: InterfaceLocale }> {
	const { storage } = context.get(servicesContext)
	const settings = await getSiteSettings(storage)
	const { language, offered } = siteLocales(settings)
	const locale = localeFor(request, settings)
	const several = offered.length > 1
	const all = new URL(request.url).searchParams.get('lang') === 'all'
	return {
		filter: several && !all ? listIn(locale, language, offered) : undefined,
		offered: several,
		locale,
	}
}

/**
 * The list content in `language` is read in, as readers' lists are made: a regional variety with
 * its language where the site offers that language (es-MX with es, and a Spanish feed or an
 * article's "reading on" takes in both), any other language on its own; content naming none is
 * in the site's language.
 */
export function contentListLanguage(
	settings: Pick<SiteSettings, 'language' | 'languages'>,
	language: string,
): LanguageFilter {
	const { language: siteLanguage, offered } = siteLocales(settings)
	const locale = interfaceLocaleOf(language)
	if (locale && offered.includes(locale)) return listIn(locale, siteLanguage, offered)
	return { tag: language, includeUnset: language === settings.language }
}

/**
 * The list an article is read on in ("Next", "Previous", more on its tag): the one readers find
 * it in, so reading on goes both ways. That is its language's list where the site offers that
 * language, else the site's language's, which takes in every language the site does not offer
 * (LanguageFilter): a Russian article on a Spanish site sits in the Spanish list, beside the
 * Spanish articles that lead to it. A feed's `?lang=ru` keeps contentListLanguage: Russian alone.
 */
export function readingOnLanguage(
	settings: Pick<SiteSettings, 'language' | 'languages'>,
	language: string,
): LanguageFilter {
	const own = contentListLanguage(settings, language)
	// A list of the site's languages has their `others`; a language of its own, the site's list.
	return own.others ? own : contentListLanguage(settings, siteLocales(settings).language)
}

/** The list in one of the site's languages (LanguageFilter's rule, with its `others`). */
function listIn(
	locale: InterfaceLocale,
	siteLanguage: InterfaceLocale,
	offered: readonly InterfaceLocale[],
): ListLanguage {
	return {
		tag: locale,
		includeUnset: locale === siteLanguage,
		others: offered.filter((code) => code !== siteLanguage),
	}
}
