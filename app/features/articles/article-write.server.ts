import { readablePath } from '#app/features/redirects/addresses.ts'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { imageSize } from '#app/features/uploads/uploads.server.ts'
import type { Article, ArticleWrite } from '#storage/port/articles.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { ParsedArticleInput } from './article.schema.ts'
import { renderMarkdown } from './markdown.server.ts'
import { readingMinutes } from './reading-time.ts'

/**
 * What is stored for checked input: the body rendered and sanitised once, here, for every path
 * that writes an article (the editor, the admin API, the CLI, the seed); a cover stored here
 * with its size, which lists and feeds give to its <img>.
 */
export async function toArticleWrite(
	storage: Storage,
	input: ParsedArticleInput,
	at: Pick<ArticleWrite, 'slug' | 'status' | 'publishedAt' | 'authors' | 'notify' | 'email'> & {
		publishAt?: string | null
	},
): Promise<ArticleWrite> {
	const [bodyHtml, cover, site, translationOf] = await Promise.all([
		renderMarkdown(input.body),
		input.cover ? imageSize(storage, input.cover) : undefined,
		getSiteSettings(storage),
		translationTarget(storage, input.translationOf),
	])
	if (translationOf === false) throw new TranslationNotFound()
	return {
		title: input.title,
		summary: input.summary,
		bodyMarkdown: input.body,
		bodyHtml,
		coverImageUrl: input.cover,
		coverImageAlt: input.cover ? input.coverAlt : null,
		coverImageWidth: cover?.width ?? null,
		coverImageHeight: cover?.height ?? null,
		tags: [...new Set(input.tags)],
		// Read at the article's language's pace; one that names none is in the site's.
		readingMinutes: readingMinutes(input.body, input.language || site.language),
		language: input.language,
		translationOf,
		seoTitle: input.seoTitle,
		seoDescription: input.seoDescription,
		socialImageUrl: input.socialImage,
		...at,
	}
}

/** The original an input names does not exist (the editor gives its address). */
export class TranslationNotFound extends Error {
	constructor() {
		super(translationNotFoundMessage)
	}
}

export const translationNotFoundMessage =
	'There is no article or page at that address. Give the address (slug) of the one this translates.'
export const translationRefusedMessage =
	'This cannot be marked a translation of that one. Link a translation to the original (not to another translation, nor to itself, nor to one that has translations of its own), an article to an article and a page to a page.'

/**
 * The id of the original a translation names: undefined keeps the stored link, null clears it,
 * false: nothing has that address.
 */
async function translationTarget(
	storage: Storage,
	named: number | string | null | undefined,
): Promise<number | null | undefined | false> {
	if (named === undefined || typeof named === 'number') return named
	if (named === null || named === '') return null
	// An address, as the editor shows it, with or without the path before it.
	const found = await storage.articles.findBySlug(readablePath(named.replace(/^.*\//, '')))
	return found ? found.id : false
}

/** An article as a save takes it back, unchanged: its tags and authors by name. */
export function articleWriteOf(article: Article): ArticleWrite {
	return {
		...article,
		tags: article.tags.map((tag) => tag.name),
		authors: article.authors.map((author) => author.name),
	}
}
