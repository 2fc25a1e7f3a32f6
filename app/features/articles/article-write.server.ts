import { imageSize } from '#app/features/uploads/uploads.server.ts'
import type { Article, ArticleWrite } from '#storage/port/articles.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { ParsedArticleInput } from './article.schema.ts'
import { renderMarkdown } from './markdown.server.ts'
import { readingMinutes } from './markdown-pipeline.server.ts'

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
	const [bodyHtml, cover] = await Promise.all([
		renderMarkdown(input.body),
		input.cover ? imageSize(storage, input.cover) : undefined,
	])
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
		readingMinutes: readingMinutes(input.body),
		seoTitle: input.seoTitle,
		seoDescription: input.seoDescription,
		socialImageUrl: input.socialImage,
		...at,
	}
}

/** An article as a save takes it back, unchanged: its tags and authors by name. */
export function articleWriteOf(article: Article): ArticleWrite {
	return {
		...article,
		tags: article.tags.map((tag) => tag.name),
		authors: article.authors.map((author) => author.name),
	}
}
