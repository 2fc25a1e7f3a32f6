// /search for readers: the query read safely, published articles and pages found by the index,
// each with a snippet of its text where the words are, ten to a page; titles as a reader types;
// a limit per address so a script cannot keep the database busy (docs/decisions/030-search.md).
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { createRateLimit } from '#app/lib/rate-limit.ts'
import type { ArticleKind } from '#storage/port/articles.ts'
import type { Storage } from '#storage/port/storage.ts'
import { maxQueryLength, resultsPerPage, suggestFrom } from './search-limits.ts'
import { parseQuery, queryWords } from './search-query.ts'
import { type SnippetPart, snippet } from './snippet.ts'
import { contentLanguages, stemMatcher, withStems } from './stems.server.ts'

/** Pages past this are not offered: a reader refines the words instead. */
const maxPage = 50

/** Searches per address per minute: a reader types a few; a script hammering gets 429. */
const limited = createRateLimit(30, 60_000, 20_000)

/** Suggestions per address per minute: one per pause in typing, a few per word. */
const suggestLimited = createRateLimit(120, 60_000, 20_000)
/** Titles offered as a reader types. */
const suggestionCount = 6

export interface SearchResult {
	kind: ArticleKind
	slug: string
	title: string
	/** Its language tag; '' = the site's. */
	language: string
	publishedAt: string | null
	snippet: SnippetPart[]
}

export type SearchPage =
	| { state: 'empty'; q: string }
	| { state: 'refused'; q: string; problem: string }
	| { state: 'limited'; q: string; retryAfterSeconds: number }
	| {
			state: 'results'
			q: string
			results: SearchResult[]
			total: number
			/** More matches than were counted (total is then 500). */
			more: boolean
			page: number
			pages: number
	  }

export async function searchSite(
	storage: Storage,
	params: URLSearchParams,
	clientIp: string,
	now = Date.now(),
): Promise<SearchPage> {
	const q = (params.get('q') ?? '').trim()
	if (!q) return { state: 'empty', q }
	if (q.length > maxQueryLength)
		return {
			state: 'refused',
			q: q.slice(0, maxQueryLength),
			problem: `Keep your search under ${maxQueryLength} characters: a few words find more than a paragraph.`,
		}
	const parsed = parseQuery(q)
	if (!parsed)
		return {
			state: 'refused',
			q,
			problem: 'Type a word to look for: letters or digits, not only signs or words to leave out.',
		}
	const wait = limited(clientIp, now)
	if (wait > 0) return { state: 'limited', q, retryAfterSeconds: wait }
	const page = Math.min(maxPage, Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1))
	// Each word also by its stems, in every language the site's content is in.
	const languages = await contentLanguages(storage)
	const query = await withStems(parsed, q, languages)
	const { hits, total, more } = await storage.search.search(query, {
		includeDrafts: false,
		kinds: ['article', 'page'],
		limit: resultsPerPage,
		offset: (page - 1) * resultsPerPage,
	})
	const words = queryWords(query)
	const stemmed = hits.length > 0 ? await stemMatcher(query, languages) : undefined
	return {
		state: 'results',
		q,
		results: hits.map((hit) => ({
			kind: hit.kind,
			slug: hit.slug,
			title: hit.title,
			language: hit.language,
			publishedAt: hit.publishedAt,
			snippet: snippet(hit.bodyStart, words, hit.summary, stemmed),
		})),
		total,
		more,
		page,
		pages: Math.min(maxPage, Math.max(1, Math.ceil(total / resultsPerPage))),
	}
}

export interface Suggestion {
	title: string
	href: string
	kind: ArticleKind
}

export type Suggestions =
	| { state: 'ok'; suggestions: Suggestion[] }
	| { state: 'limited'; retryAfterSeconds: number }

/**
 * The best-matching published titles for a query being typed, for the header's field: the same
 * index and parser as /search, titles only. Too short or unreadable queries suggest nothing.
 */
export async function suggestTitles(
	storage: Storage,
	params: URLSearchParams,
	clientIp: string,
	now = Date.now(),
): Promise<Suggestions> {
	const q = (params.get('q') ?? '').trim().slice(0, maxQueryLength)
	const parsed = q.length >= suggestFrom ? parseQuery(q) : null
	if (!parsed) return { state: 'ok', suggestions: [] }
	const wait = suggestLimited(clientIp, now)
	if (wait > 0) return { state: 'limited', retryAfterSeconds: wait }
	const query = await withStems(parsed, q, await contentLanguages(storage))
	const { hits } = await storage.search.search(query, {
		includeDrafts: false,
		kinds: ['article', 'page'],
		limit: suggestionCount,
		offset: 0,
		withText: false,
	})
	return {
		state: 'ok',
		suggestions: hits.map((hit) => ({
			title: hit.title,
			href: publicPath(hit.kind, hit.slug),
			kind: hit.kind,
		})),
	}
}
