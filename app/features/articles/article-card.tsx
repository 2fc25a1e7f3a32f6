import { Fragment } from 'react'
import { Link } from 'react-router'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { Cover } from '#app/features/uploads/picture.tsx'
import { formatDate } from '#app/lib/format.ts'
import type { ArticleCard as Card, Term } from '#storage/port/articles.ts'

/** What goes before the name at `index` of `count` in a list read aloud: "A, B and C". */
function joiner(index: number, count: number): string {
	if (index === 0) return ''
	return index === count - 1 ? ' and ' : ', '
}

/** "Ana Lima, Ben Okafor and Chloé Martin", each a link to their page. */
export function AuthorLinks({ authors }: { authors: Term[] }) {
	return (
		<>
			{authors.map((author, index) => (
				<Fragment key={author.slug}>
					{joiner(index, authors.length)}
					<Link to={publicPath('author', author.slug)} className="author-link">
						{author.name}
					</Link>
				</Fragment>
			))}
		</>
	)
}

export function ArticleMeta({
	article,
}: {
	article: Pick<Card, 'publishedAt' | 'readingMinutes' | 'authors'>
}) {
	return (
		<p className="article-meta">
			{article.authors.length > 0 ? (
				<>
					<span>
						By <AuthorLinks authors={article.authors} />
					</span>
					<span aria-hidden="true"> · </span>
				</>
			) : null}
			<time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>
			<span aria-hidden="true"> · </span>
			<span>{article.readingMinutes} min read</span>
		</p>
	)
}

/** An article's tags, each a link to its page. */
export function TagLinks({ tags }: { tags: Term[] }) {
	if (tags.length === 0) return null
	return (
		<ul className="tags" aria-label="Tags">
			{tags.map((tag) => (
				<li key={tag.slug}>
					<Link to={publicPath('tag', tag.slug)}>{tag.name}</Link>
				</li>
			))}
		</ul>
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
			<TagLinks tags={article.tags} />
			{fresh ? <p className="badge">New</p> : null}
		</article>
	)
}
