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

/** The areas a page at this path needs, besides the public one. */
export function areasOf(pathname: string): Area[] {
	if (/^\/admin(?:\/|$)/.test(pathname)) return ['public', 'staff']
	if (/^\/(?:contact|search|newsletter)(?:\/|$)/.test(pathname)) return ['public', 'forms']
	return ['public']
}

/**
 * A route's clientLoader for pages whose messages are in another area: coming from a page that
 * did not need them, the browser loads them beside the route's data. (A document opened on such
 * a page loads them before hydrating: entry.client.tsx.)
 */
export async function withMessages<T>(area: Area, serverLoader: () => Promise<T>): Promise<T> {
	const locale = document.documentElement.dataset.locale
	const [data] = await Promise.all([
		serverLoader(),
		isInterfaceLocale(locale) ? loadCatalogue(locale, area) : undefined,
	])
	return data
}

/**
 * The messages a page reached in the browser is drawn in (root.tsx's clientMiddleware): the
 * reader's language's, and the language of an article or a page in the navigation's data
 * (`contentLanguage`; empty: the site's), in the areas the page needs.
 */
export async function loadPageMessages(pathname: string, results: unknown): Promise<void> {
	const { readerLocale, siteLanguage } = document.documentElement.dataset
	const wanted = new Set<InterfaceLocale>()
	if (isInterfaceLocale(readerLocale)) wanted.add(readerLocale)
	for (const outcome of Object.values((results ?? {}) as Record<string, { result?: unknown }>)) {
		const data = outcome?.result
		if (!data || typeof data !== 'object' || !('contentLanguage' in data)) continue
		const tag = data.contentLanguage
		const locale = typeof tag === 'string' ? interfaceLocaleOf(tag || siteLanguage) : undefined
		if (locale) wanted.add(locale)
	}
	await Promise.all(
		[...wanted].flatMap((locale) => areasOf(pathname).map((area) => loadCatalogue(locale, area))),
	)
}
