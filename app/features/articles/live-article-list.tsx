// A live list of articles with its pager: /articles, a tag's page and an author's. New, changed
// and removed articles show without a reload (use-live-articles.ts); a tag's or an author's list
// keeps to its own.
import { Trans, useLingui } from '@lingui/react/macro'
import { PlainLink } from '#app/components/ui/plain-link.tsx'
import type { ArticleCard as Card, LanguageFilter } from '#storage/port/articles.ts'
import { ArticleCard } from './article-card.tsx'
import { useLiveArticles } from './use-live-articles.ts'

export function LiveArticleList({
	initial,
	changeId,
	isFirstPage,
	nextCursor,
	path,
	tag,
	author,
	language,
	empty,
}: {
	initial: Card[]
	changeId: number
	isFirstPage: boolean
	nextCursor: string | null
	/** The list's own address, for its pager. */
	path: string
	tag?: string
	author?: string
	/** A list in one language (the reader's); undefined: every language. */
	language?: LanguageFilter
	empty: string
}) {
	const { t } = useLingui()
	const { items, announcement, fresh } = useLiveArticles(initial, changeId, {
		acceptsNew: isFirstPage,
		tag,
		author,
		language,
	})
	return (
		<>
			<p
				className="visually-hidden"
				role="status"
				aria-live="polite"
				data-testid="live-announcement"
			>
				{announcement}
			</p>
			{items.length === 0 ? (
				<p className="empty-list">{empty}</p>
			) : (
				<div className="article-list" data-testid="article-list">
					{items.map((article) => (
						<ArticleCard key={article.id} article={article} fresh={fresh.has(article.id)} />
					))}
				</div>
			)}
			{/* No empty landmark where there is neither a newer nor an older page. */}
			{isFirstPage && !nextCursor ? null : (
				<nav className="pager" aria-label={t`More articles`}>
					{isFirstPage ? null : (
						<PlainLink to={path}>
							<Trans>Newest articles</Trans>
						</PlainLink>
					)}
					{nextCursor ? (
						<PlainLink
							to={`${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(nextCursor)}`}
						>
							<Trans>Older articles</Trans>
						</PlainLink>
					) : null}
				</nav>
			)}
		</>
	)
}
