import type { ArticleWrite } from '#storage/port/articles.ts'
import type { ParsedArticleInput } from './article.schema.ts'
import { renderMarkdown } from './markdown.server.ts'
import { readingMinutes } from './markdown-pipeline.server.ts'

/**
 * What is stored for checked input: the body rendered and sanitised once, here, for every path
 * that writes an article (the editor, the admin API, the CLI, the seed).
 */
export async function toArticleWrite(
	input: ParsedArticleInput,
	at: Pick<ArticleWrite, 'slug' | 'status' | 'publishedAt' | 'authorName' | 'notify'> & {
		publishAt?: string | null
	},
): Promise<ArticleWrite> {
	return {
		title: input.title,
		summary: input.summary,
		bodyMarkdown: input.body,
		bodyHtml: await renderMarkdown(input.body),
		coverImageUrl: input.cover,
		coverImageAlt: input.cover ? input.coverAlt : null,
		tags: [...new Set(input.tags)],
		readingMinutes: readingMinutes(input.body),
		...at,
	}
}
