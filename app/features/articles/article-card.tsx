import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Link, useRouteLoaderData } from 'react-router'
import { PlainLink } from '#app/components/ui/plain-link.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { Cover } from '#app/features/uploads/picture.tsx'
import { formatDate } from '#app/lib/format.ts'
import { directionOf, isInterfaceLocale } from '#app/lib/i18n.ts'
import type { ArticleCard as Card, Term } from '#storage/port/articles.ts'

// One list formatter per language: making one costs far more than using it.
const listFormats = new Map<string, Intl.ListFormat>()

function listFormat(locale: string): Intl.ListFormat {
	let format = listFormats.get(locale)
	if (!format) {
		// Canopy's English has no comma before "and", as en-GB writes it ("en" adds one).
		const rules = locale === 'en' ? 'en-GB' : locale
		format = new Intl.ListFormat(rules, { style: 'long', type: 'conjunction' })
		listFormats.set(locale, format)
	}
	return format
}

/**
 * "Ana Lima, Ben Okafor and Chloé Martin", each a link to their page, joined as the interface's
 * language joins a list ("A, B y C", "A, B et C", "A وB وC").
 */
export function AuthorLinks({ authors }: { authors: Term[] }) {
	const { i18n } = useLingui()
	const parts = listFormat(i18n.locale).formatToParts(authors.map((author) => author.name))
	let next = 0
	return (
		<>
			{parts.map((part) => {
				if (part.type === 'literal') return part.value
				// The names come back in order, each where the language puts it.
				const author = authors[next++]
				return author ? (
					<PlainLink
						key={author.slug}
						to={publicPath('author', author.slug)}
						className="author-link"
					>
						{author.name}
					</PlainLink>
				) : (
					part.value
				)
			})}
		</>
	)
}

export function ArticleMeta({
	article,
}: {
	article: Pick<Card, 'publishedAt' | 'readingMinutes' | 'authors'>
}) {
	const { i18n } = useLingui()
	// Dates in the site's time zone (a setting), the same on the server and in the browser.
	const timeZone = (useRouteLoaderData('root') as { timeZone?: string } | undefined)?.timeZone
	const authors = article.authors
	const minutes = article.readingMinutes
	return (
		<p className="article-meta">
			{authors.length > 0 ? (
				<>
					<span>
						<Trans>
							By <AuthorLinks authors={authors} />
						</Trans>
					</span>
					<span aria-hidden="true"> · </span>
				</>
			) : null}
			<time dateTime={article.publishedAt}>
				{formatDate(article.publishedAt, i18n.locale, timeZone)}
			</time>
			<span aria-hidden="true"> · </span>
			<span>
				<Plural value={minutes} one="# min read" other="# min read" />
			</span>
		</p>
	)
}

/** An article's tags, each a link to its page. */
export function TagLinks({ tags }: { tags: Term[] }) {
	const { t } = useLingui()
	if (tags.length === 0) return null
	return (
		<ul className="tags" aria-label={t`Tags`}>
			{tags.map((tag) => (
				<li key={tag.slug}>
					<PlainLink to={publicPath('tag', tag.slug)}>{tag.name}</PlainLink>
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
	const { i18n } = useLingui()
	// Its title and summary in its own language; an article in another interface language opens
	// as a whole page load, so the page comes in that language (root.tsx).
	const language = article.language || undefined
	const own = language ? { lang: language, dir: directionOf(language) } : {}
	const otherInterface = isInterfaceLocale(language) && language !== i18n.locale
	return (
		<article className={classes.filter(Boolean).join(' ')} data-article-id={article.id}>
			{/* The title beside it names the article: the picture adds nothing to read aloud. */}
			<Cover of={article} alt="" className="article-card-cover" sizes={cardCoverSizes} />
			<Heading className="article-card-title" {...own}>
				<Link
					to={`/articles/${article.slug}`}
					prefetch={otherInterface ? 'none' : 'intent'}
					reloadDocument={otherInterface}
				>
					{article.title}
				</Link>
			</Heading>
			<ArticleMeta article={article} />
			{article.summary ? (
				<p className="article-card-summary" {...own}>
					{article.summary}
				</p>
			) : null}
			<TagLinks tags={article.tags} />
			{fresh ? (
				<p className="badge">
					<Trans comment="Marks an article published since the page was opened">New</Trans>
				</p>
			) : null}
		</article>
	)
}
