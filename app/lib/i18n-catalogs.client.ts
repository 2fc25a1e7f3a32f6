// A browser loads its language's public catalogue with the page; the forms' pages' catalogue
// (contact, newsletter, search) with those pages; the staff area's only there. Each is a chunk of
// its own per language (decision 033).
import type { Messages } from '@lingui/core'
import { addMessages, type InterfaceLocale, interfaceLocaleOf, isInterfaceLocale } from './i18n.ts'

type Area = 'public' | 'forms' | 'staff'

const catalogues: Record<Area, Record<string, () => Promise<Messages>>> = {
	public: import.meta.glob<Messages>('../locales/*/public.po', { import: 'messages' }),
	forms: import.meta.glob<Messages>('../locales/*/forms.po', { import: 'messages' }),
	staff: import.meta.glob<Messages>('../locales/*/staff.po', { import: 'messages' }),
}
const loaded = new Set<string>()

/** Loads a language's catalogue for an area before anything renders with it. */
export async function loadCatalogue(locale: InterfaceLocale, area: Area) {
	const key = `${locale}/${area}`
	if (loaded.has(key)) return
	const load = catalogues[area][`../locales/${key}.po`]
	if (!load) return
	addMessages(locale, await load())
	loaded.add(key)
}

/**
 * The areas a page at this path needs, besides the public one. Only pages: a fetcher's resource
 * route (/search/suggest, typed into from any page) needs none of the forms' messages.
 */
export function areasOf(pathname: string): Area[] {
	if (/^\/admin(?:\/|$)/.test(pathname)) return ['public', 'staff']
	if (/^\/(?:contact|search)$|^\/newsletter(?:\/|$)/.test(pathname)) return ['public', 'forms']
	return ['public']
}

/** A language's messages for the areas a page at this path needs. */
function loadFor(locales: Iterable<InterfaceLocale>, pathname: string): Promise<unknown> {
	return Promise.all(
		[...locales].flatMap((locale) => areasOf(pathname).map((area) => loadCatalogue(locale, area))),
	)
}

/**
 * The messages a page reached in the browser is drawn in (root.tsx's clientMiddleware): the
 * reader's language's, loaded beside the navigation's data; then the root's language when it was
 * read again, and the language of an article or a page in that data (`contentLanguage`; empty:
 * the site's), which the interface follows.
 */
export async function withPageMessages<Results>(
	pathname: string,
	data: () => Promise<Results>,
): Promise<Results> {
	const { readerLocale, siteLanguage } = document.documentElement.dataset
	const [results] = await Promise.all([
		data(),
		isInterfaceLocale(readerLocale) ? loadFor([readerLocale], pathname) : undefined,
	])
	const content = new Set<InterfaceLocale>()
	const outcomes = (results ?? {}) as Record<string, { result?: unknown }>
	// The root's language read again (entering or leaving the staff area, whose language may be
	// the account's own, or after the account chose another).
	const rootLocale = (outcomes.root?.result as { locale?: unknown } | undefined)?.locale
	if (isInterfaceLocale(rootLocale)) content.add(rootLocale)
	for (const outcome of Object.values(outcomes)) {
		const loaded = outcome?.result
		if (!loaded || typeof loaded !== 'object' || !('contentLanguage' in loaded)) continue
		const tag = loaded.contentLanguage
		const locale = typeof tag === 'string' ? interfaceLocaleOf(tag || siteLanguage) : undefined
		if (locale) content.add(locale)
	}
	await loadFor(content, pathname)
	return results
}
