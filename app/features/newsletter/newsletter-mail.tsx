// The newsletter's mails, rendered on the server to an HTML part and a plain-text part.
// Mail clients strip <link>, most of <style> and every script, so the layout is tables with inline
// styles; the one <style> only adds what clients that honour it can use (dark mode, narrow screens).
import { Body } from '@react-email/body'
import { Button } from '@react-email/button'
import { Column } from '@react-email/column'
import { Container } from '@react-email/container'
import { Head } from '@react-email/head'
import { Heading } from '@react-email/heading'
import { Html } from '@react-email/html'
import { Img } from '@react-email/img'
import { Link } from '@react-email/link'
import { Preview } from '@react-email/preview'
import { render, toPlainText } from '@react-email/render'
import { Row } from '@react-email/row'
import { Section } from '@react-email/section'
import { Text } from '@react-email/text'
import type { CSSProperties, ReactElement, ReactNode } from 'react'

export interface MailSite {
	title: string
	siteUrl: string
	/** Absolute URL, or null for none. */
	logoUrl: string | null
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

// Every colour is set on the element that shows it, background and text together: a client that
// inverts light mails (Gmail, Outlook) then inverts both, and no text is left light-on-light.
// Each pair is AA or better on its own background, in both schemes.
const colour = {
	page: '#f2f2ee',
	card: '#ffffff',
	text: '#1c1c1c',
	muted: '#585858',
	accent: '#1d6438',
	rule: '#e0e0da',
	bar: '#000000',
	onBar: '#ffffff',
}
// Unquoted names keep the markup short: it is repeated on every text element, since Outlook for
// Windows does not pass a table cell's font down to the paragraphs in it.
const font = '-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif'
const pad = '40px'

const bodyText = {
	margin: '0',
	fontFamily: font,
	fontSize: '18px',
	lineHeight: '30px',
	color: colour.text,
}
const smallText = {
	margin: '0',
	fontFamily: font,
	fontSize: '14px',
	lineHeight: '22px',
	color: colour.muted,
}
const buttonStyle = {
	fontFamily: font,
	backgroundColor: '#111111',
	color: '#ffffff',
	fontSize: '16px',
	fontWeight: 600,
	padding: '15px 28px',
	borderRadius: '4px',
}

const headingText = { margin: 0, fontFamily: font, fontWeight: 700, color: colour.text }

// Apple Mail, iOS Mail and Outlook for Mac honour this; Gmail drops it and inverts by itself.
// The page colour also goes on Body's inner cell, which copies Body's style but takes no class.
const css = `:root{color-scheme:light dark;supported-color-schemes:light dark}
@media (prefers-color-scheme:dark){
.m-page,.m-page>table>tbody>tr>td{background-color:#111111!important}
.m-card{background-color:#1c1c1c!important}
.m-text{color:#ececec!important}
.m-muted{color:#b8b8b8!important}
.m-accent{color:#8fd3a6!important}
.m-rule{border-color:#3a3a3a!important}
.m-button{background-color:#ececec!important;color:#111111!important}
}
@media (max-width:620px){
.m-pad{padding-left:20px!important;padding-right:20px!important}
.m-pl{padding-left:20px!important}
.m-pr{padding-right:20px!important}
.m-h1{font-size:26px!important}
.m-thumb{width:80px!important}
}`

// Outlook for Windows ignores max-width: a fixed table only it can see keeps its column 600 px
// wide. React cannot write a comment, so a marker element is swapped for it after rendering.
const msoOpenMarker = '<i data-mso="open"></i>'
const msoCloseMarker = '<i data-mso="close"></i>'
const msoOpen =
	'<!--[if mso]><table role="presentation" width="600" align="center" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->'
const msoClose = '<!--[if mso]></td></tr></table><![endif]-->'

/** The URL when it is http(s), else null: a link or image from data never runs script. */
function webUrl(url: string | null | undefined): string | null {
	if (!url) return null
	try {
		const parsed = new URL(url)
		return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null
	} catch {
		return null
	}
}

/** For the links a mail is sent for: without them the mail must not go out. */
function requiredWebUrl(url: string, what: string): string {
	const safe = webUrl(url)
	if (!safe) throw new Error(`The ${what} link must be an http(s) URL, not ${JSON.stringify(url)}`)
	return safe
}

// A subject is one header line, whatever the title holds.
function oneLine(text: string): string {
	return text.replace(/\s+/g, ' ').trim()
}

// Gmail cuts mails over 102 KB: a digest of fifty long summaries must stay under it.
function clip(text: string, max: number): string {
	if (text.length <= max) return text
	const cut = text.slice(0, max)
	const space = cut.lastIndexOf(' ')
	return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`
}

const authorList = new Intl.ListFormat('en-GB', { type: 'conjunction' })

function byline(article: MailArticle, day: Intl.DateTimeFormat): string {
	const date = new Date(article.publishedAt)
	const parts = [
		article.authors.length > 0 ? `By ${authorList.format(article.authors)}` : '',
		Number.isNaN(date.getTime()) ? '' : day.format(date).replaceAll(' ', '\u00a0'),
	]
	return parts.filter(Boolean).join(' · ')
}

function dayFormat(timeZone: string): Intl.DateTimeFormat {
	return new Intl.DateTimeFormat('en-GB', {
		day: 'numeric',
		month: 'long',
		year: 'numeric',
		timeZone,
	})
}

function Frame(props: {
	site: MailSite
	preview: string
	viewInBrowser?: string | null
	footer: ReactNode
	children: ReactNode
}) {
	const { site } = props
	const home = webUrl(site.siteUrl)
	const logo = webUrl(site.logoUrl)
	const viewInBrowser = webUrl(props.viewInBrowser)
	const title = (
		<Text
			style={{
				margin: 0,
				fontFamily: font,
				fontSize: '18px',
				lineHeight: '24px',
				fontWeight: 700,
				letterSpacing: '0.14em',
				textTransform: 'uppercase',
				color: colour.onBar,
			}}
		>
			{home ? (
				<Link href={home} style={{ color: colour.onBar, textDecoration: 'none' }}>
					{site.title}
				</Link>
			) : (
				site.title
			)}
		</Text>
	)
	return (
		<Html lang="en">
			<Head>
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="color-scheme" content="light dark" />
				<meta name="supported-color-schemes" content="light dark" />
				<style>{css}</style>
			</Head>
			<Body
				className="m-page"
				style={{ backgroundColor: colour.page, margin: 0, padding: '24px 0', fontFamily: font }}
			>
				<Preview>{props.preview}</Preview>
				<i data-mso="open" />
				<Container style={{ maxWidth: '600px', width: '100%' }}>
					{viewInBrowser && (
						<Text
							style={{
								...smallText,
								margin: '0 0 8px',
								padding: '0 12px',
								fontSize: '13px',
								textAlign: 'right',
							}}
						>
							<Link href={viewInBrowser} className="m-muted" style={{ color: colour.muted }}>
								View in browser
							</Link>
						</Text>
					)}
					<Section style={{ backgroundColor: colour.bar }}>
						<Row>
							{logo && (
								// A width of 1% shrinks the cell to the logo, however wide it is.
								<Column style={{ width: '1%', padding: `20px 0 20px ${pad}` }} className="m-pl">
									<Img
										src={logo}
										alt={site.title}
										height="40"
										style={{ height: '40px', width: 'auto' }}
									/>
								</Column>
							)}
							<Column
								className={logo ? 'm-pr' : 'm-pad'}
								style={{ padding: logo ? `28px ${pad} 28px 12px` : `28px ${pad}` }}
							>
								{title}
							</Column>
						</Row>
					</Section>
					<Section className="m-card" style={{ backgroundColor: colour.card }}>
						{props.children}
					</Section>
					{props.footer}
				</Container>
				<i data-mso="close" />
			</Body>
		</Html>
	)
}

// Padding on a table is lost in Outlook; on a cell it holds everywhere.
function Block(props: { style: CSSProperties; children: ReactNode }) {
	return (
		<Row>
			<Column className="m-pad" style={props.style}>
				{props.children}
			</Column>
		</Row>
	)
}

function Footer(props: { children: ReactNode }) {
	return (
		<Section>
			<Block style={{ padding: `28px ${pad} 8px` }}>{props.children}</Block>
		</Section>
	)
}

function NewsletterFooter(props: {
	site: MailSite
	unsubscribe: string
	preferences: string | null
}) {
	const home = webUrl(props.site.siteUrl)
	const link = { color: colour.muted, textDecoration: 'underline' }
	return (
		<Footer>
			<Text className="m-muted" style={{ ...smallText, fontSize: '13px', textAlign: 'center' }}>
				You receive this because you subscribed to{' '}
				{home ? (
					<Link href={home} className="m-muted" style={link}>
						{props.site.title}
					</Link>
				) : (
					props.site.title
				)}
				.
			</Text>
			<Text
				className="m-muted"
				style={{ ...smallText, margin: '10px 0 0', fontSize: '13px', textAlign: 'center' }}
			>
				{props.preferences && (
					<>
						<Link href={props.preferences} className="m-muted" style={link}>
							Change what you receive
						</Link>
						{' · '}
					</>
				)}
				<Link href={props.unsubscribe} className="m-muted" style={link}>
					Unsubscribe
				</Link>
			</Text>
		</Footer>
	)
}

function ArticleBody(props: { article: MailArticle; day: Intl.DateTimeFormat }) {
	const { article } = props
	const url = webUrl(article.url)
	const cover = webUrl(article.coverUrl)
	const meta = byline(article, props.day)
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
							Read the article
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
	const meta = byline(article, props.day)
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

async function toMail(subject: string, element: ReactElement): Promise<RenderedMail> {
	const html = (await render(element))
		.replace(msoOpenMarker, msoOpen)
		.replace(msoCloseMarker, msoClose)
	// html-to-text shouts headings in capitals by default; a title reads better as written.
	const text = toPlainText(html, {
		selectors: [
			{ selector: 'h1', options: { uppercase: false } },
			{ selector: 'h2', options: { uppercase: false } },
		],
	})
	return { subject: oneLine(subject), html, text }
}

function newsletterLinks(links: MailLinks) {
	return {
		unsubscribe: requiredWebUrl(links.unsubscribe, 'unsubscribe'),
		preferences: webUrl(links.preferences),
	}
}

export async function articleMail(input: {
	site: MailSite
	article: MailArticle
	links: MailLinks
	timeZone: string
}): Promise<RenderedMail> {
	const { site, article, links } = input
	return toMail(
		article.title,
		<Frame
			site={site}
			preview={clip(article.summary, 140)}
			viewInBrowser={links.viewInBrowser}
			footer={<NewsletterFooter site={site} {...newsletterLinks(links)} />}
		>
			<ArticleBody article={article} day={dayFormat(input.timeZone)} />
		</Frame>,
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
	const day = dayFormat(input.timeZone)
	const count = articles.length === 1 ? 'One new article' : `${articles.length} new articles`
	return toMail(
		`${site.title}: new articles, ${input.periodLabel}`,
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
					{count}
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
	const days = validDays === 1 ? '1 day' : `${validDays} days`
	return toMail(
		`Confirm your subscription to ${site.title}`,
		<Frame
			site={site}
			preview={`Confirm that you want the articles of ${site.title} by email.`}
			footer={
				<Footer>
					<Text className="m-muted" style={{ ...smallText, fontSize: '13px', textAlign: 'center' }}>
						This address was entered in the subscription form of {site.title}.
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
					Confirm your subscription
				</Heading>
				<Text className="m-text" style={{ ...bodyText, margin: '20px 0 0' }}>
					Someone, hopefully you, asked to receive the articles of {site.title} by email at this
					address.
				</Text>
				<Section style={{ marginTop: '28px' }}>
					<Button href={confirmUrl} className="m-button" style={buttonStyle}>
						Confirm subscription
					</Button>
				</Section>
				<Text
					className="m-text"
					style={{ ...bodyText, margin: '28px 0 0', fontSize: '16px', lineHeight: '26px' }}
				>
					The link works for {days}. If it was not you, ignore this mail: you will not be
					subscribed, and nothing will be sent to you.
				</Text>
				<Text className="m-muted" style={{ ...smallText, margin: '20px 0 0' }}>
					If the button does not work, paste this address into your browser:{' '}
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
	)
}
