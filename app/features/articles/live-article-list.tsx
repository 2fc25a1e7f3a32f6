// A live list of articles with its pager: /articles, a tag's page and an author's. New, changed
// and removed articles show without a reload (use-live-articles.ts); a tag's or an author's list
// keeps to its own.
import { Link } from 'react-router'
import type { ArticleCard as Card } from '#storage/port/articles.ts'
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
	empty: string
}) {
	const { items, announcement, fresh } = useLiveArticles(initial, changeId, {
		acceptsNew: isFirstPage,
		tag,
		author,
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
			<nav className="pager" aria-label="More articles">
				{isFirstPage ? null : <Link to={path}>Newest articles</Link>}
				{nextCursor ? (
					<Link to={`${path}?cursor=${encodeURIComponent(nextCursor)}`}>Older articles</Link>
				) : null}
			</nav>
		</>
	)
}
