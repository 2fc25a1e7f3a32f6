import { type ArticleCard, type LanguageFilter, listsLanguage } from '#storage/port/articles.ts'
import type { ArticleEvent } from './article-types.ts'

/** A list of one tag's or one author's articles; without, a list of all. */
export interface ListScope {
	tag?: string
	author?: string
	/** A list in one language (LanguageFilter). */
	language?: LanguageFilter
}

/** Whether the article belongs on a list of this scope. */
export function inScope(article: ArticleCard, scope: ListScope | undefined): boolean {
	if (scope?.tag && !article.tags.some((tag) => tag.slug === scope.tag)) return false
	if (scope?.author && !article.authors.some((author) => author.slug === scope.author)) return false
	return !scope?.language || listsLanguage(scope.language, article.language)
}

function newestFirst(a: ArticleCard, b: ArticleCard): number {
	return b.publishedAt.localeCompare(a.publishedAt) || b.id - a.id
}

/**
 * Applies one live event to a newest-first list. Idempotent: an event that arrives twice (the
 * stream may resend what the snapshot already had) leaves the list as once.
 * `acceptsNew` is false on older pages, where a new article does not belong. On a tag's or an
 * author's list, an article that no longer has the tag (or the author) leaves it.
 */
export function applyArticleEvent(
	list: ArticleCard[],
	event: ArticleEvent,
	acceptsNew: boolean,
	scope?: ListScope,
): ArticleCard[] {
	const gone =
		event.kind === 'removed' ? event.id : inScope(event.article, scope) ? null : event.article.id
	if (gone !== null) {
		return list.some((item) => item.id === gone) ? list.filter((item) => item.id !== gone) : list
	}
	if (event.kind === 'removed') return list
	const present = list.some((item) => item.id === event.article.id)
	if (!present && !acceptsNew) return list
	const rest = list.filter((item) => item.id !== event.article.id)
	return [...rest, event.article].sort(newestFirst)
}
