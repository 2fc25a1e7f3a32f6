// Articles: the domain functions that routes, the live stream, the CLI and (later) the editor
// share, so every path that changes an article changes it the same way.

import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { Article, ArticleCard, LanguageFilter } from '#storage/port/articles.ts'
import type { Change } from '#storage/port/changes.ts'
import type { Storage } from '#storage/port/storage.ts'
import { articleInputSchema } from './article.schema.ts'
import { articleWriteOf, TranslationNotFound, toArticleWrite } from './article-write.server.ts'
import { decodeCursor, encodeCursor } from './cursor.ts'
import { MarkdownRefused } from './markdown.server.ts'
import { slugFor } from './slug.ts'

export type { FieldErrors }

export type SaveResult =
	| { ok: true; article: Article; change: Change | null }
	| { ok: false; errors: FieldErrors }

export async function saveArticle(
	storage: Storage,
	raw: unknown,
	status: 'draft' | 'published',
): Promise<SaveResult> {
	const parsed = articleInputSchema.safeParse(raw)
	if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) }
	const input = parsed.data
	const slug = input.slug ?? slugFor('article', input.title)
	if (!slug)
		return { ok: false, errors: { title: ['The title needs at least one letter or digit.'] } }
	const existing = await storage.articles.findBySlug(slug)
	const publishedAt =
		input.publishedAt?.toISOString() ??
		existing?.publishedAt ??
		(status === 'published' ? new Date().toISOString() : null)
	let write: Awaited<ReturnType<typeof toArticleWrite>>
	try {
		write = await toArticleWrite(storage, input, {
			slug,
			status,
			publishedAt,
			authors: input.authors.length > 0 ? input.authors : [input.author].filter(Boolean),
		})
	} catch (error) {
		if (error instanceof MarkdownRefused) return { ok: false, errors: { body: [error.message] } }
		if (error instanceof TranslationNotFound)
			return { ok: false, errors: { translationOf: [error.message] } }
		throw error
	}
	const saved = await storage.articles.saveBySlug(write)
	return { ok: true, ...saved }
}

/** Takes an article off the public site; it stays as a draft. Undefined when there is none. */
export async function unpublishArticle(storage: Storage, slug: string) {
	const article = await storage.articles.findBySlug(slug)
	if (!article) return undefined
	return storage.articles.saveBySlug({ ...articleWriteOf(article), slug, status: 'draft' })
}

export function getPublishedArticle(storage: Storage, slug: string) {
	return storage.articles.findPublishedBySlug(slug)
}

export interface ArticleListPage {
	items: ArticleCard[]
	nextCursor: string | null
	/** The change id this list was read at: the live stream resumes after it. */
	changeId: number
}

type ListOptions = {
	cursor?: string | null
	limit: number
	tag?: string
	author?: string
	/** Only articles in this language (LanguageFilter). */
	language?: LanguageFilter
}

/**
 * A list in the reader's language; while that language has nothing, its first page is every
 * language's (`everyLanguage`), so a site that has just offered a second language does not look
 * empty to its readers.
 */
export async function listInReaderLanguage(
	storage: Storage,
	options: ListOptions,
): Promise<ArticleListPage & { everyLanguage: boolean }> {
	const page = await listArticles(storage, options)
	if (!options.language || options.cursor || page.items.length > 0)
		return { ...page, everyLanguage: false }
	const every = await listArticles(storage, { ...options, language: undefined })
	return every.items.length > 0
		? { ...every, everyLanguage: true }
		: { ...page, everyLanguage: false }
}

export async function listArticles(
	storage: Storage,
	options: ListOptions,
): Promise<ArticleListPage> {
	// Read the position before the list: a change landing in between is then sent again by the
	// stream, and the page applies events idempotently, so nothing is missed or shown twice.
	const changeId = await storage.changes.latestId()
	const after = decodeCursor(options.cursor)
	const { tag, author, language } = options
	const rows = await storage.articles.listPublished({
		limit: options.limit + 1,
		after,
		tag,
		author,
		language,
	})
	const items = rows.slice(0, options.limit)
	const last = items.at(-1)
	return {
		items,
		nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null,
		changeId,
	}
}
