import type { I18n } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { PlainLink } from '#app/components/ui/plain-link.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { Cover } from '#app/features/uploads/picture.tsx'
import { formatDate } from '#app/lib/format.ts'
import { interfaceLocaleOf } from '#app/lib/i18n.ts'
import { type LanguageAttributes, textLanguage } from '#app/lib/interface-language.ts'
import { useSiteLanguage, useSiteTimeZone } from '#app/lib/root-data.ts'
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

// How each list of names is joined, per language: a list page joins the same few lists on
// every render, and joining costs more than the rest of a card. A number stands for the name at
// that place; the joining words depend on the names in some languages (Spanish "y" before "e").
// Up to this many are kept; then the store starts afresh.
const joinedLists = new Map<string, ReadonlyArray<string | number>>()
const joinedListsKept = 2_000

function joinedList(locale: string, names: string[]): ReadonlyArray<string | number> {
	const key = `${locale}\u0000${names.join('\u0000')}`
	let parts = joinedLists.get(key)
	if (!parts) {
		let next = 0
		// The names come back in order, each where the language puts it.
		parts = listFormat(locale)
			.formatToParts(names)
			.map((part) => (part.type === 'literal' ? part.value : next++))
		if (joinedLists.size >= joinedListsKept) joinedLists.clear()
		joinedLists.set(key, parts)
	}
	return parts
}

/**
 * "Ana Lima, Ben Okafor and Chloé Martin", each a link to their page, joined as the interface's
 * language joins a list ("A, B y C", "A, B et C", "A وB وC").
 */
export function AuthorLinks({ authors }: { authors: Term[] }) {
	const { i18n } = useLingui()
	const parts = joinedList(
		i18n.locale,
		authors.map((author) => author.name),
	)
	return (
		<>
			{parts.map((part) => {
				if (typeof part === 'string') return part
				const author = authors[part] as Term
				return (
					<PlainLink
						key={author.slug}
						to={publicPath('author', author.slug)}
						className="author-link"
					>
						{author.name}
					</PlainLink>
				)
			})}
		</>
	)
}

// A card's byline and reading time, made once per language (and number of minutes): a list
// writes them on every card, and a translated message with a plural or a link inside costs more
// to make than the rest of the card. Kept per catalogue, not per I18n: the one a component sees
// is a new wrapper on each render of I18nProvider. Made afresh when the language's messages
// change (a catalogue loaded into it).
interface CardTexts {
	byline?: readonly [string, string]
	readingTimes: Map<number, string>
}
const cardTexts = new WeakMap<object, CardTexts>()

function textsFor(i18n: I18n): CardTexts {
	const messages = i18n.messages
	// A language with no catalogue answers a new empty one each time: nothing to keep it by.
	if (messages !== i18n.messages) return { readingTimes: new Map() }
	let texts = cardTexts.get(messages)
	if (!texts) {
		texts = { readingTimes: new Map() }
		cardTexts.set(messages, texts)
		const forget = i18n.on('change', () => {
			cardTexts.delete(messages)
			forget()
		})
	}
	return texts
}

/** "By {authors}" in the interface's language, split where the names go. */
export function byline(i18n: I18n): readonly [string, string] {
	const texts = textsFor(i18n)
	if (!texts.byline) {
		const authors = '\u0000'
		const [before = '', after = ''] = i18n._(msg`By ${authors}`).split(authors)
		texts.byline = [before, after]
	}
	return texts.byline
}

/** "5 min read" / "5 min de lecture" / "قراءة في ٥ دقائق". */
export function readingTime(i18n: I18n, minutes: number): string {
	const { readingTimes } = textsFor(i18n)
	let text = readingTimes.get(minutes)
	if (text === undefined) {
		text = i18n._(msg`${plural(minutes, { one: '# min read', other: '# min read' })}`)
		readingTimes.set(minutes, text)
	}
	return text
}

/**
 * When an article came out, as every public page shows it ("October 15, 2026"): in the reader's
 * interface language and the site's time zone (a setting), the same on the server and in the
 * browser.
 */
export function PublishedDate({ iso }: { iso: string }) {
	const { i18n } = useLingui()
	const timeZone = useSiteTimeZone()
	return <time dateTime={iso}>{formatDate(iso, i18n.locale, timeZone)}</time>
}

export function ArticleMeta({
	article,
	language,
}: {
	article: Pick<Card, 'publishedAt' | 'readingMinutes' | 'authors'>
	/** The interface's language, where the line stands in content in another one. */
	language?: LanguageAttributes
}) {
	const { i18n } = useLingui()
	const authors = article.authors
	const [before, after] = byline(i18n)
	return (
		<p className="article-meta" {...language}>
			{authors.length > 0 ? (
				<>
					<span>
						{before}
						<AuthorLinks authors={authors} />
						{after}
					</span>
					<span aria-hidden="true">{'\u00a0· '}</span>
				</>
			) : null}
			<PublishedDate iso={article.publishedAt} />
			<span aria-hidden="true">{'\u00a0· '}</span>
			<span className="reading-time">{readingTime(i18n, article.readingMinutes)}</span>
		</p>
	)
}

/** An article's tags, each a link to its page. */
export function TagLinks({ tags, language }: { tags: Term[]; language?: LanguageAttributes }) {
	const { t } = useLingui()
	if (tags.length === 0) return null
	return (
		<ul className="tags" aria-label={t`Tags`} {...language}>
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
	// as a whole page load, so the page comes in that language (root.tsx), unless the reader
	// chose one with the switcher.
	const language = article.language || undefined
	// One naming none is in the site's language: said where the interface is in another, or an
	// English title in an Arabic list reads right to left ("?…Can 30x30 Turn It Around").
	const siteLanguage = useSiteLanguage()
	const own = textLanguage(language ?? (siteLanguage !== i18n.locale ? siteLanguage : undefined))
	const interfaceLocale = interfaceLocaleOf(language)
	const otherInterface = interfaceLocale !== undefined && interfaceLocale !== i18n.locale
	return (
		<article className={classes.filter(Boolean).join(' ')} data-article-id={article.id}>
			{/* The title beside it names the article: the picture adds nothing to read aloud. */}
			<Cover of={article} alt="" className="article-card-cover" sizes={cardCoverSizes} />
			<Heading className="article-card-title" {...own}>
				<PlainLink
					to={`/articles/${article.slug}`}
					prefetch="intent"
					reloadDocument={otherInterface}
				>
					{article.title}
				</PlainLink>
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
