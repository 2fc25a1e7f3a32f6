// Full-text search of articles and pages (docs/decisions/030-search.md): SQLite's FTS5 or
// PostgreSQL's tsvector behind one query shape, parsed by the search feature so no reader's text
// ever reaches either engine's query syntax.
import type { ArticleKind, ArticleStatus } from './articles.ts'

/** Words or a phrase: lower case, diacritics removed, letters and digits only (foldText). */
export interface SearchPhrase {
	words: string[]
	/** The last word matches as a prefix ("peat" finds "peatlands"). */
	prefix: boolean
	/**
	 * A single word's stems (folded, made by the site: "forest" for "forests"), matched as
	 * alternatives in the whole index, the articles' stems included. Phrases have none.
	 */
	stems?: string[]
}

/**
 * A parsed query: every clause of `all` must match, a clause matching when any of its phrases
 * does (OR); no phrase of `none` may match.
 */
export interface SearchQuery {
	all: SearchPhrase[][]
	none: SearchPhrase[]
}

export interface SearchOptions {
	/** Readers: published only. Staff: drafts too. */
	includeDrafts: boolean
	kinds: ArticleKind[]
	limit: number
	offset: number
	/** Read the start of each text for a snippet (suggestions show titles alone). Default true. */
	withText?: boolean
}

export interface SearchHit {
	id: number
	kind: ArticleKind
	slug: string
	title: string
	summary: string
	/** Its language tag; '' = the site's. */
	language: string
	status: ArticleStatus
	publishedAt: string | null
	updatedAt: string
	/** The start of the text, for the snippet (at most 20,000 characters; empty without withText). */
	bodyStart: string
}

/** An article whose stems are due: never made, or made in another language than its own now. */
export interface UnstemmedArticle {
	id: number
	version: number
	/** Its language tag; '' = the site's. */
	language: string
	title: string
	summary: string
	bodyMarkdown: string
}

/**
 * A step's hold on the articles it takes (decision 030, "Stems"): the steps of other instances
 * pass over them until `now + leaseMs`, so each article is stemmed once across instances; an
 * instance that dies leaves its lease to run out.
 */
export interface StemsLease {
	now: Date
	leaseMs: number
}

export interface ArticleStems {
	id: number
	/** The version they were made from: a save since then makes them due again. */
	version: number
	/** The title's stems, space-separated ('' for a language with no stemmer). */
	titleStems: string
	/** The summary's and the text's stems, space-separated. */
	stems: string
	/** The language they were made in (the site's, for an article naming none). */
	language: string
}

export interface SearchRepository {
	/**
	 * Best first (title above summary, tags and authors above the text). `total` counts up to
	 * 500 matches; `more` says there were more than that.
	 */
	search(
		query: SearchQuery,
		options: SearchOptions,
	): Promise<{ hits: SearchHit[]; total: number; more: boolean }>
	/**
	 * Up to `limit` articles and pages whose stems are due: every save makes them due (the stems
	 * are made after it, out of its transaction). With `siteLanguage`, also those naming no
	 * language whose stems were made in another (the site's language changed): a scan, asked
	 * for once after a start or a change of the setting. With `lease`, only those no other step
	 * holds, and they are held for this one until setStems lets them go.
	 */
	unstemmed(limit: number, siteLanguage?: string, lease?: StemsLease): Promise<UnstemmedArticle[]>
	/**
	 * Puts stems in the index, each only when its article is still at the version they were
	 * made from, each in a transaction of its own. An article whose stems the index cannot take
	 * (PostgreSQL's 1 MB limit on a tsvector) is stored without them and named in `unindexed`.
	 * Lets go of the leases of the entries and of `leftOver` (taken by the step, not stemmed in
	 * it): whatever is still due is taken by the next step, on any instance.
	 */
	setStems(
		entries: ArticleStems[],
		leftOver?: number[],
	): Promise<{ stored: number; unindexed: number[] }>
}

/**
 * Lower case, without diacritics ("Rhône" → "rhone"): how both indexes keep words and how a query
 * looks for them. Letters with no decomposition (ø, ł, đ) stay as they are.
 */
export function foldText(text: string): string {
	return text
		.normalize('NFD')
		.replace(/\p{M}+/gu, '')
		.toLowerCase()
}

/** The words of a text as both indexes keep them: runs of letters and digits, folded. */
export function searchWords(text: string): string[] {
	return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? []
}

/**
 * A text as the indexes take it: its searchWords, space-separated. SQLite's own tokenizer removes
 * the diacritics of Latin letters only, so "الأرض", "ελλάδα" or "новый" would be kept as written
 * while a query looks for "الارض", "ελλαδα" and "новыи": the index is given the folded words.
 */
export function indexedText(text: string): string {
	return searchWords(text).join(' ')
}
