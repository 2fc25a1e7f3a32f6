import { Link } from 'react-router'
import { Cover } from '#app/features/uploads/picture.tsx'
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

/** A card's cover: the card's width on a phone, a 12rem column beside the text from 40rem. */
const cardCoverSizes = '(min-width: 40rem) 12rem, calc(100vw - 2rem)'

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
	const classes = ['article-card', fresh && 'fresh', article.coverImageUrl && 'with-cover']
	return (
		<article className={classes.filter(Boolean).join(' ')} data-article-id={article.id}>
			{/* The title beside it names the article: the picture adds nothing to read aloud. */}
			<Cover of={article} alt="" className="article-card-cover" sizes={cardCoverSizes} />
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
