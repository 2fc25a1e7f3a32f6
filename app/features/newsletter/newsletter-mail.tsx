// The newsletter's mails, rendered on the server to an HTML part and a plain-text part.
// entry.server.tsx re-exports this module whole for the server, so it exports the mails and their
// types only; the shared frame and styles are in mail-layout.tsx, the helpers in mail-parts.ts.
import type { I18n } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Button } from '@react-email/button'
import { Heading } from '@react-email/heading'
import { Img } from '@react-email/img'
import { Link } from '@react-email/link'
import { Section } from '@react-email/section'
import { Text } from '@react-email/text'
import { i18nFor } from '#app/lib/i18n.ts'
import {
	Block,
	bodyText,
	buttonStyle,
	colour,
	Footer,
	Frame,
	headingText,
	NewsletterFooter,
	pad,
	smallText,
} from './mail-layout.tsx'
import {
	byline,
	clip,
	dayFormat,
	newsletterLinks,
	requiredWebUrl,
	toMail,
	webUrl,
} from './mail-parts.ts'

export interface MailSite {
	title: string
	siteUrl: string
	/** Absolute URL, or null for none. */
	logoUrl: string | null
	/** The site's language: the mail's words are in it (English where it has none). */
	language?: string
}

export interface MailLinks {
	unsubscribe: string
	preferences: string
	viewInBrowser: string | null
}

export interface MailArticle {
	title: string
	summary: string
	url: string
	/** ISO 8601. */
	publishedAt: string
	/** Absolute URL, or null for none. */
	coverUrl: string | null
	coverAlt: string | null
	tags: string[]
	authors: string[]
}

export interface RenderedMail {
	subject: string
	html: string
	text: string
}

function ArticleBody(props: { article: MailArticle; day: Intl.DateTimeFormat }) {
	const { article } = props
	const url = webUrl(article.url)
	const cover = webUrl(article.coverUrl)
	const { i18n } = useLingui()
	const meta = byline(article, props.day, i18n)
	return (
		<>
			{cover && (
				<Img
					src={cover}
					alt={article.coverAlt ?? ''}
					width="600"
					style={{ width: '100%', maxWidth: '600px', height: 'auto' }}
				/>
			)}
			<Block style={{ padding: `36px ${pad} 44px` }}>
				<Heading
					as="h1"
					className="m-text m-h1"
					style={{ ...headingText, margin: 0, fontSize: '32px', lineHeight: '1.2' }}
				>
					{url ? (
						<Link
							href={url}
							className="m-text"
							style={{ color: colour.text, textDecoration: 'none' }}
						>
							{article.title}
						</Link>
					) : (
						article.title
					)}
				</Heading>
				{meta && (
					<Text className="m-muted" style={{ ...smallText, margin: '14px 0 0', fontSize: '15px' }}>
						{meta}
					</Text>
				)}
				{article.tags.length > 0 && (
					<Text
						className="m-accent"
						style={{
							...smallText,
							margin: '6px 0 0',
							fontSize: '13px',
							fontWeight: 600,
							letterSpacing: '0.06em',
							textTransform: 'uppercase',
							color: colour.accent,
						}}
					>
						{article.tags.join(' · ')}
					</Text>
				)}
				<Text className="m-text" style={{ ...bodyText, margin: '24px 0 0' }}>
					{article.summary}
				</Text>
				{url && (
					<Section style={{ marginTop: '32px' }}>
						<Button href={url} className="m-button" style={buttonStyle}>
							<Trans>Read the article</Trans>
						</Button>
					</Section>
				)}
			</Block>
		</>
	)
}

// Gmail cuts a mail past 102 KB, and a digest repeats this fifty times: plain elements here, as
// react-email's write every table and margin out in full. Outlook for Windows floats an image by
// its align attribute, which React's types leave out; the others read the style.
const floatRight = { align: 'right' } as Record<string, string>
const digestTitle = { ...headingText, fontSize: '21px', lineHeight: '28px' }
const digestSummary = { ...bodyText, margin: '10px 0 0', fontSize: '16px', lineHeight: '26px' }

function DigestItem(props: { article: MailArticle; day: Intl.DateTimeFormat }) {
	const { article } = props
	const url = webUrl(article.url)
	const cover = webUrl(article.coverUrl)
	const { i18n } = useLingui()
	const meta = byline(article, props.day, i18n)
	return (
		<tr>
			<td className="m-rule" style={{ borderTop: `1px solid ${colour.rule}`, padding: '24px 0' }}>
				{cover && (
					// The title beside it already names the article: the thumbnail is decoration.
					<img
						{...floatRight}
						src={cover}
						alt=""
						width="112"
						className="m-thumb"
						style={{
							float: 'right',
							width: '112px',
							height: 'auto',
							margin: '4px 0 8px 16px',
							borderRadius: '4px',
						}}
					/>
				)}
				<h2 className="m-text" style={digestTitle}>
					{url ? (
						<a href={url} className="m-text" style={{ color: colour.text, textDecoration: 'none' }}>
							{article.title}
						</a>
					) : (
						article.title
					)}
				</h2>
				{meta && (
					<p className="m-muted" style={{ ...smallText, margin: '6px 0 0' }}>
						{meta}
					</p>
				)}
				<p className="m-text" style={digestSummary}>
					{clip(article.summary, 280)}
				</p>
			</td>
		</tr>
	)
}

export async function articleMail(input: {
	site: MailSite
	article: MailArticle
	links: MailLinks
	timeZone: string
}): Promise<RenderedMail> {
	const { site, article, links } = input
	const i18n = mailI18n(site)
	return toMail(
		article.title,
		<Frame
			site={site}
			preview={clip(article.summary, 140)}
			viewInBrowser={links.viewInBrowser}
			footer={<NewsletterFooter site={site} {...newsletterLinks(links)} />}
		>
			<ArticleBody article={article} day={dayFormat(input.timeZone, i18n.locale)} />
		</Frame>,
		i18n,
	)
}

export async function digestMail(input: {
	site: MailSite
	articles: MailArticle[]
	links: MailLinks
	/** Such as "18–25 November 2026". */
	periodLabel: string
	timeZone: string
}): Promise<RenderedMail> {
	const { site, articles, links } = input
	if (articles.length === 0) throw new Error('A digest needs at least one article to send.')
	const i18n = mailI18n(site)
	const day = dayFormat(input.timeZone, i18n.locale)
	const count = articles.length
	const siteTitle = site.title
	const period = input.periodLabel
	return toMail(
		i18n._(msg`${siteTitle}: new articles, ${period}`),
		<Frame
			site={site}
			preview={articles.map((article) => article.title).join(' · ')}
			viewInBrowser={links.viewInBrowser}
			footer={<NewsletterFooter site={site} {...newsletterLinks(links)} />}
		>
			<Block style={{ padding: `36px ${pad} 20px` }}>
				<Text
					className="m-accent"
					style={{
						...smallText,
						fontSize: '13px',
						fontWeight: 600,
						letterSpacing: '0.06em',
						textTransform: 'uppercase',
						color: colour.accent,
					}}
				>
					{i18n._(msg`${plural(count, { one: 'One new article', other: '# new articles' })}`)}
				</Text>
				<Heading
					as="h1"
					className="m-text m-h1"
					style={{ ...headingText, margin: '8px 0 28px', fontSize: '30px', lineHeight: '1.2' }}
				>
					{input.periodLabel}
				</Heading>
				<table role="presentation" width="100%" cellPadding="0" cellSpacing="0" border={0}>
					<tbody>
						{articles.map((article, index) => (
							// Articles carry no id here, and the list never reorders.
							// biome-ignore lint/suspicious/noArrayIndexKey: see above
							<DigestItem key={index} article={article} day={day} />
						))}
					</tbody>
				</table>
			</Block>
		</Frame>,
		i18n,
	)
}

export async function confirmationMail(input: {
	site: MailSite
	confirmUrl: string
	validDays: number
}): Promise<RenderedMail> {
	const { site, validDays } = input
	// A confirmation without its link cannot do its one job: better no mail than a useless one.
	const confirmUrl = requiredWebUrl(input.confirmUrl, 'confirmation')
	const i18n = mailI18n(site)
	const siteTitle = site.title
	return toMail(
		i18n._(msg`Confirm your subscription to ${siteTitle}`),
		<Frame
			site={site}
			preview={i18n._(msg`Confirm that you want the articles of ${siteTitle} by email.`)}
			footer={
				<Footer>
					<Text className="m-muted" style={{ ...smallText, fontSize: '13px', textAlign: 'center' }}>
						<Trans>This address was entered in the subscription form of {siteTitle}.</Trans>
					</Text>
				</Footer>
			}
		>
			<Block style={{ padding: `36px ${pad} 44px` }}>
				<Heading
					as="h1"
					className="m-text m-h1"
					style={{ ...headingText, margin: 0, fontSize: '30px', lineHeight: '1.2' }}
				>
					<Trans>Confirm your subscription</Trans>
				</Heading>
				<Text className="m-text" style={{ ...bodyText, margin: '20px 0 0' }}>
					<Trans>
						Someone, hopefully you, asked to receive the articles of {siteTitle} by email at this
						address.
					</Trans>
				</Text>
				<Section style={{ marginTop: '28px' }}>
					<Button href={confirmUrl} className="m-button" style={buttonStyle}>
						<Trans>Confirm subscription</Trans>
					</Button>
				</Section>
				<Text
					className="m-text"
					style={{ ...bodyText, margin: '28px 0 0', fontSize: '16px', lineHeight: '26px' }}
				>
					<Trans>
						The link works for <Plural value={validDays} one="# day" other="# days" />. If it was
						not you, ignore this mail: you will not be subscribed, and nothing will be sent to you.
					</Trans>
				</Text>
				<Text className="m-muted" style={{ ...smallText, margin: '20px 0 0' }}>
					<Trans>If the button does not work, paste this address into your browser:</Trans>{' '}
					<Link
						href={confirmUrl}
						className="m-muted"
						style={{ color: colour.muted, wordBreak: 'break-all' }}
					>
						{confirmUrl}
					</Link>
				</Text>
			</Block>
		</Frame>,
		i18n,
	)
}

/** A mail's words: in the site's language. */
function mailI18n(site: MailSite): I18n {
	return i18nFor(site.language ?? 'en')
}
