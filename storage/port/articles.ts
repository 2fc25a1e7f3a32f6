// Articles as stored and listed, and the repository that keeps them.
import type { Change, ChangeKind } from './changes.ts'
import type { RevisionNote } from './revisions.ts'
import type { SearchQuery } from './search.ts'

export type ArticleStatus = 'draft' | 'published'

/** An article (in lists and feeds, at /articles/<slug>) or a page (About, Donate: at /<slug>). */
export type ArticleKind = 'article' | 'page'

/** A tag or an author as an article shows it: a name, and the address of its page. */
export interface Term {
	name: string
	slug: string
}

/** What a list or a live event needs to show an article: no body. */
export interface ArticleCard {
	id: number
	slug: string
	title: string
	summary: string
	coverImageUrl: string | null
	coverImageAlt: string | null
	/** The cover's size in pixels, for its <img> (null: no cover, or one from elsewhere). */
	coverImageWidth: number | null
	coverImageHeight: number | null
	/** In the order the editor gave them. */
	tags: Term[]
	/** One or more, in the order the editor gave them (none only for an article that lost its last). */
	authors: Term[]
	readingMinutes: number
	publishedAt: string
	updatedAt: string
	/** A BCP 47 tag ('es', 'pt-BR', 'ar'); '' for the site's own language. */
	language: string
}

/** What search engines and social networks show instead of the title, summary and cover. */
export interface ArticleSeo {
	/** Empty: the title. */
	seoTitle: string
	/** Empty: the summary. */
	seoDescription: string
	/** Null: the cover. */
	socialImageUrl: string | null
}

export interface Article extends Omit<ArticleCard, 'publishedAt'>, ArticleSeo {
	kind: ArticleKind
	bodyMarkdown: string
	bodyHtml: string
	status: ArticleStatus
	publishedAt: string | null
	createdAt: string
	version: number
	/** When a scheduled draft goes public; null when nothing is scheduled. */
	publishAt: string | null
	/** Whether making it public notifies push subscribers (true unless an editor said not to). */
	notify?: boolean
	/** When push subscribers were told of it; an article is announced at most once. */
	notifiedAt?: string | null
	/** Whether making it public mails newsletter subscribers (true unless an editor said not to). */
	email?: boolean
	/** When it was mailed to newsletter subscribers; mailed at most once. */
	emailedAt?: string | null
	/** The id of the original this translates (ArticleRepository.translations); null: an original. */
	translationOf: number | null
}

/** The same article or page in another language: where its alternate link points. */
export interface Translation {
	id: number
	slug: string
	title: string
	language: string
	kind: ArticleKind
}

/**
 * A public list's language: articles in `tag`, and with includeUnset those in the site's own
 * (naming none). Given `others`, the site's other interface languages, a regional tag counts as
 * its language (es-MX as es), and includeUnset takes in every language but those: a Russian
 * article on a site in English and Spanish is listed for English readers, in the site's
 * language, rather than for no one.
 */
export interface LanguageFilter {
	tag: string
	includeUnset: boolean
	others?: readonly string[]
}

/** Whether a list in this language shows an article in `language` (LanguageFilter's rule). */
export function listsLanguage(filter: LanguageFilter, language: string): boolean {
	if (language === filter.tag) return true
	if (language === '') return filter.includeUnset
	if (!filter.others) return false
	const primary = language.split('-')[0]?.toLowerCase() ?? ''
	if (primary === filter.tag) return true
	return filter.includeUnset && primary !== '' && !filter.others.includes(primary)
}

/** A row of the editor's article list. */
export interface ArticleListItem {
	id: number
	slug: string
	title: string
	status: ArticleStatus
	authors: Term[]
	publishAt: string | null
	publishedAt: string | null
	updatedAt: string
	version: number
	/** As on Article: whether becoming public announces it, and when it was announced. */
	notify: boolean
	notifiedAt: string | null
}

/** The editor list's status filter: a scheduled article is a draft with a publishing time. */
export type ArticleStatusFilter = 'draft' | 'scheduled' | 'published'

export interface ArticleWrite {
	/** Set when the row is made (an article when not given); a save never changes it. */
	kind?: ArticleKind
	slug: string
	title: string
	summary: string
	bodyMarkdown: string
	bodyHtml: string
	coverImageUrl: string | null
	coverImageAlt: string | null
	/** The cover's size, when it is an image stored here; null otherwise. */
	coverImageWidth: number | null
	coverImageHeight: number | null
	/** Tag names: a tag not known yet is made (docs/decisions/026-tags-and-authors.md). */
	tags: string[]
	/** Author names, each a profile found by its name or address, or made. */
	authors: string[]
	status: ArticleStatus
	readingMinutes: number
	publishedAt: string | null
	/** For a draft: when the publishing job should make it public. Ignored when published. */
	publishAt?: string | null
	/**
	 * Whether becoming public announces it to push subscribers (once in its life, whatever
	 * happens after). New articles default to true; omitted on a save, the stored choice stays.
	 */
	notify?: boolean
	/**
	 * Whether becoming public for the first time mails it to newsletter subscribers, beside push.
	 * New articles default to true; omitted on a save, the stored choice stays.
	 */
	email?: boolean
	/**
	 * false: this save sends no webhook event (docs/webhooks.md), as an import of another site's
	 * old posts does not; omitted, it sends the one its change makes.
	 */
	webhooks?: boolean
	/** Omitted on a save: the stored ones stay (empty on a new article). */
	seoTitle?: string
	seoDescription?: string
	socialImageUrl?: string | null
	/** As on ArticleCard. Omitted on a save: the stored one stays ('' on a new article). */
	language?: string
	/**
	 * The id of the original this translates, or null for an original. Groups are flat: the
	 * original is of the same kind, is no translation itself, and is not this one; and an article
	 * with translations of its own cannot become one. Anything else is refused
	 * ('translation-invalid'). Omitted on a save: the stored link stays (none on a new article).
	 */
	translationOf?: number | null
	/** Who made this save and how, for the article's history; a plain save by no one in particular when omitted. */
	revision?: RevisionNote
}

export type ArticleUpdateResult =
	| { ok: true; saved: SavedArticle }
	| { ok: false; reason: 'missing' }
	/** Someone saved a newer version since this edit began: current is what they saved. */
	| { ok: false; reason: 'conflict'; current: Article }
	| { ok: false; reason: 'slug-taken' }
	/** translationOf names no article this one can be a translation of (ArticleWrite says which). */
	| { ok: false; reason: 'translation-invalid' }

export type ArticleCreateResult =
	| { ok: true; saved: SavedArticle }
	| { ok: false; reason: 'slug-taken' }
	/** As on ArticleUpdateResult: nothing was made. */
	| { ok: false; reason: 'translation-invalid' }
	/** Made by an earlier create with the same key; nothing was made now. As it stands now. */
	| { ok: false; reason: 'repeated'; article: Article }
	/** The key came before with another request. */
	| { ok: false; reason: 'key-reused' }

/** A create sent with an Idempotency-Key: made once for its caller, however often it is sent (for a day). */
export interface RepeatableRequest {
	userId: string
	key: string
	/** The request's body, hashed: the same key with another body is refused. */
	fingerprint: string
}

export interface EditorListOptions {
	/**
	 * Words looked for in the search index (title, summary, tags, authors, text; drafts too), as
	 * the search feature parses them: the same index and rules readers' search uses.
	 */
	query?: SearchQuery
	status?: ArticleStatusFilter
	/** Articles unless told: pages have a list of their own. */
	kind?: ArticleKind
	limit: number
	offset: number
}

/** An article's or page's address for the sitemap, with what its hreflang alternates need. */
export interface PublishedAddress {
	id: number
	slug: string
	updatedAt: string
	/** Its language tag; '' = the site's. */
	language: string
	/** The original it translates; null for an original. */
	translationOf: number | null
}

export interface ListCursor {
	publishedAt: string
	id: number
}

export interface SavedArticle {
	article: Article
	/** The change written to the feed with it, if the public saw a difference. */
	change: Change | null
}

export interface ArticleRepository {
	findBySlug(slug: string): Promise<Article | undefined>
	/** A published article (or, with kind 'page', a published page) by its slug. */
	findPublishedBySlug(slug: string, kind?: ArticleKind): Promise<Article | undefined>
	/**
	 * Published articles' addresses and when each last changed, newest first, at most `limit`:
	 * the sitemap, which needs no more of them (a card each, with its tags and authors, made a
	 * sitemap of 10,000 articles block the process for a quarter of a second).
	 */
	listPublishedAddresses(limit: number): Promise<PublishedAddress[]>
	/** Every published page, for the sitemap: slug, title and when it last changed. */
	listPublishedPages(): Promise<(PublishedAddress & { title: string })[]>
	/**
	 * Published articles, newest first, strictly after the cursor when one is given; with a tag's
	 * or an author's slug, only theirs; with a language, only those in it (LanguageFilter).
	 */
	listPublished(options: {
		limit: number
		after?: ListCursor
		tag?: string
		author?: string
		language?: LanguageFilter
	}): Promise<ArticleCard[]>
	listPublishedByIds(ids: number[]): Promise<ArticleCard[]>
	/** The published articles just before and just after this one, for reading on. */
	neighbours(
		of: ListCursor,
		/** Only articles in this language (and, with includeUnset, those naming none). */
		language?: LanguageFilter,
	): Promise<{ newer: ArticleCard | null; older: ArticleCard | null }>
	/**
	 * Published articles with their bodies, newest first (with a tag's or an author's slug, only
	 * theirs): feeds.
	 */
	listPublishedFull(
		limit: number,
		options?: { tag?: string; author?: string; language?: LanguageFilter },
	): Promise<Article[]>
	count(): Promise<number>
	/**
	 * The published versions of article `id` in other languages: the others of its group (its
	 * original, and the original's translations), never `id` itself nor a draft; by language in
	 * code point order, then by id. None for an article that is missing or has no translations.
	 */
	translations(id: number): Promise<Translation[]>
	/**
	 * The languages published articles and pages are in ('' left out), in code point order: feeds
	 * and sitemaps. With `kind`, only articles' or only pages'.
	 */
	languages(kind?: ArticleKind): Promise<string[]>
	/**
	 * Creates or updates the article with this slug and records the public change, atomically.
	 * Throws, writing nothing, when its translationOf is refused (see ArticleWrite).
	 */
	saveBySlug(write: ArticleWrite): Promise<SavedArticle>
	/** Deletes the article; records a removal when it was public. */
	deleteBySlug(slug: string): Promise<Change | null>
	findById(id: number): Promise<Article | undefined>
	/**
	 * Articles, drafts too, whose cover address or Markdown holds any of `fragments` (an image's
	 * hash: where it is used), most recently edited first, at most 500. A scan: staff pages only.
	 */
	referencing(fragments: string[]): Promise<Article[]>
	/** Whether another article than `exceptId` holds this slug. */
	slugTaken(slug: string, exceptId?: number): Promise<boolean>
	/** Every article, drafts too, most recently edited first: the editor's list. */
	listForEditor(options: EditorListOptions): Promise<{ items: ArticleListItem[]; total: number }>
	/** With `request`, a second create with the same key answers with the first article. */
	create(write: ArticleWrite, request?: RepeatableRequest): Promise<ArticleCreateResult>
	/** Saves over version `expectedVersion` only: a newer version is never overwritten. */
	update(id: number, expectedVersion: number, write: ArticleWrite): Promise<ArticleUpdateResult>
	/** Deletes the article when it is still at `expectedVersion` (any version when omitted). */
	deleteById(
		id: number,
		expectedVersion?: number,
	): Promise<{ ok: true; change: Change | null } | { ok: false; reason: 'missing' | 'conflict' }>
	/**
	 * Publishes scheduled drafts whose time has come, each in its own committed change. Safe to
	 * call from several instances at once: each article is published by exactly one of them.
	 */
	publishDue(now: Date, limit: number): Promise<Article[]>
}

/**
 * What a save means beyond the row, decided by the articles feature
 * (app/features/articles/publishing-rules.ts) and given to the storage when it is opened; the
 * repository applies it inside the save's transaction, so the article, its change row and its
 * push deliveries commit together.
 */
export interface ArticleRules {
	/** The change readers see when an article goes from `wasPublic` to `isPublic`; null: none. */
	publicChange(wasPublic: boolean, isPublic: boolean): ChangeKind | null
	/**
	 * Whether this save announces the article: one push delivery per live subscription, and
	 * the article marked announced. `notify` is the editor's choice (true unless turned off).
	 */
	announces(change: ChangeKind | null, notify: boolean, announcedBefore: boolean): boolean
	/** The public address of an article, a page, a tag or an author: where a rename redirects from. */
	address(kind: ArticleKind | 'tag' | 'author', slug: string): string
	/** The address made for a tag or an author named so (never empty). */
	termSlug(kind: 'tag' | 'author', name: string): string
	/** How many revisions of each article are kept (the newest; a pending one besides). */
	revisionsKept: number
}
