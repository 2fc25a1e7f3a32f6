import type { ArticleCard } from '#storage/port/articles.ts'
import type { ArticleEvent } from './article-types.ts'

function newestFirst(a: ArticleCard, b: ArticleCard): number {
	return b.publishedAt.localeCompare(a.publishedAt) || b.id - a.id
}

/**
 * Applies one live event to a newest-first list. Idempotent: an event that arrives twice (the
 * stream may resend what the snapshot already had) leaves the list as once.
 * `acceptsNew` is false on older pages, where a new article does not belong.
 */
export function applyArticleEvent(
	list: ArticleCard[],
	event: ArticleEvent,
	acceptsNew: boolean,
): ArticleCard[] {
	if (event.kind === 'removed') {
		return list.some((item) => item.id === event.id)
			? list.filter((item) => item.id !== event.id)
			: list
	}
	const present = list.some((item) => item.id === event.article.id)
	if (!present && !acceptsNew) return list
	const rest = list.filter((item) => item.id !== event.article.id)
	return [...rest, event.article].sort(newestFirst)
}
