// The layout every newsletter mail shares: colours, text styles, the frame with its header bar,
// and the footers. Mail clients strip <link>, most of <style> and every script, so the layout is
// tables with inline styles; the one <style> only adds what clients that honour it can use (dark
// mode, narrow screens).

import { Trans } from '@lingui/react/macro'
import { Body } from '@react-email/body'
import { Column } from '@react-email/column'
import { Container } from '@react-email/container'
import { Head } from '@react-email/head'
import { Html } from '@react-email/html'
import { Img } from '@react-email/img'
import { Link } from '@react-email/link'
import { Preview } from '@react-email/preview'
import { Row } from '@react-email/row'
import { Section } from '@react-email/section'
import { Text } from '@react-email/text'
import type { CSSProperties, ReactNode } from 'react'
import { directionOf } from '#app/lib/i18n.ts'
import { webUrl } from './mail-parts.ts'
import type { MailSite } from './newsletter-mail.tsx'

// Every colour is set on the element that shows it, background and text together: a client that
// inverts light mails (Gmail, Outlook) then inverts both, and no text is left light-on-light.
// Each pair is AA or better on its own background, in both schemes.
export const colour = {
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
export const pad = '40px'

export const bodyText = {
	margin: '0',
	fontFamily: font,
	fontSize: '18px',
	lineHeight: '30px',
	color: colour.text,
}
export const smallText = {
	margin: '0',
	fontFamily: font,
	fontSize: '14px',
	lineHeight: '22px',
	color: colour.muted,
}
export const buttonStyle = {
	fontFamily: font,
	backgroundColor: '#111111',
	color: '#ffffff',
	fontSize: '16px',
	fontWeight: 600,
	padding: '15px 28px',
	borderRadius: '4px',
}

export const headingText = { margin: 0, fontFamily: font, fontWeight: 700, color: colour.text }

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

// The <i data-mso> markers become Outlook's fixed-width table in toMail (mail-parts.ts).
export function Frame(props: {
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
		<Html lang={site.language ?? 'en'} dir={directionOf(site.language ?? 'en')}>
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
								<Trans>View in browser</Trans>
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
export function Block(props: { style: CSSProperties; children: ReactNode }) {
	return (
		<Row>
			<Column className="m-pad" style={props.style}>
				{props.children}
			</Column>
		</Row>
	)
}

export function Footer(props: { children: ReactNode }) {
	return (
		<Section>
			<Block style={{ padding: `28px ${pad} 8px` }}>{props.children}</Block>
		</Section>
	)
}

export function NewsletterFooter(props: {
	site: MailSite
	unsubscribe: string
	preferences: string | null
}) {
	const home = webUrl(props.site.siteUrl)
	const siteTitle = props.site.title
	const link = { color: colour.muted, textDecoration: 'underline' }
	return (
		<Footer>
			<Text className="m-muted" style={{ ...smallText, fontSize: '13px', textAlign: 'center' }}>
				{home ? (
					<Trans>
						You receive this because you subscribed to{' '}
						<Link href={home} className="m-muted" style={link}>
							{siteTitle}
						</Link>
						.
					</Trans>
				) : (
					<Trans>You receive this because you subscribed to {siteTitle}.</Trans>
				)}
			</Text>
			<Text
				className="m-muted"
				style={{ ...smallText, margin: '10px 0 0', fontSize: '13px', textAlign: 'center' }}
			>
				{props.preferences && (
					<>
						<Link href={props.preferences} className="m-muted" style={link}>
							<Trans>Change what you receive</Trans>
						</Link>
						{' · '}
					</>
				)}
				<Link href={props.unsubscribe} className="m-muted" style={link}>
					<Trans>Unsubscribe</Trans>
				</Link>
			</Text>
		</Footer>
	)
}
