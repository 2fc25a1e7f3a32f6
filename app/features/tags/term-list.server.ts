// The loaders of a tag's page and an author's: the tag (or profile), its live list of articles,
// or, for an address that moved (a renamed or merged tag) or was typed in capitals, the 301 to
// where it is.

import { data } from 'react-router'
import { listInReaderLanguage } from '#app/features/articles/articles.server.ts'
import { movedAddress } from '#app/features/redirects/redirects.server.ts'
import type { AppServices } from '#app/lib/context.server.ts'
import type { LanguageFilter } from '#storage/port/articles.ts'
import type { AuthorProfile, Tag } from '#storage/port/terms.ts'

/** The term at this address with a page of its articles, or throws the 301 or 404 to answer. */
export async function termListing<T extends Tag | AuthorProfile>(
	{ storage, remoteConfig }: Pick<AppServices, 'storage' | 'remoteConfig'>,
	request: Request,
	/** The address's slug, and how the term is found by its slug. */
	slug: string,
	find: (slug: string) => Promise<T | undefined>,
	scope: (term: T) => { tag?: string; author?: string },
	/** The reader's language, where the site offers several (readerListLanguage). */
	language?: LanguageFilter,
) {
	const term = await find(slug)
	if (!term)
		throw (
			(await movedAddress(storage, request, { lowerCase: { slug, found: find } })) ??
			data(null, { status: 404 })
		)
	const cursor = new URL(request.url).searchParams.get('cursor')
	const { articles_page_size: limit } = await remoteConfig.valuesFor(request)
	const page = await listInReaderLanguage(storage, { cursor, limit, ...scope(term), language })
	return { term, ...page, isFirstPage: !cursor }
}
