import { Link } from 'react-router'
import { formatDate } from '#app/lib/format.ts'
import type { ArticleCard as Card } from '#storage/port/articles.ts'

export function ArticleMeta({
	article,
}: {
	article: Pick<Card, 'publishedAt' | 'readingMinutes' | 'authorName'>
}) {
	return (
		<p className="article-meta">
			<time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>
			<span aria-hidden="true"> · </span>
			<span>{article.readingMinutes} min read</span>
			{article.authorName ? (
				<>
					<span aria-hidden="true"> · </span>
					<span>{article.authorName}</span>
				</>
			) : null}
		</p>
	)
}

export function ArticleCard({
	article,
	headingLevel = 2,
	fresh = false,
}: {
	article: Card
	headingLevel?: 2 | 3
	fresh?: boolean
}) {
	const Heading = headingLevel === 2 ? 'h2' : 'h3'
	return (
		<article className={fresh ? 'article-card fresh' : 'article-card'} data-article-id={article.id}>
			<Heading className="article-card-title">
				<Link to={`/articles/${article.slug}`} prefetch="intent">
					{article.title}
				</Link>
			</Heading>
			<ArticleMeta article={article} />
			{article.summary ? <p className="article-card-summary">{article.summary}</p> : null}
			{fresh ? <p className="badge">New</p> : null}
		</article>
	)
}
