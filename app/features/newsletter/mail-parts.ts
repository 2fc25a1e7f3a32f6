// The non-visual half of the newsletter's mails: which URLs may appear in them, dates and
// bylines, and turning a rendered element into the HTML and plain-text parts.
import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { I18nProvider } from '@lingui/react'
import { render, toPlainText } from '@react-email/render'
import { createElement, type ReactElement } from 'react'
import type { MailArticle, MailLinks, RenderedMail } from './newsletter-mail.tsx'

// Outlook for Windows ignores max-width: a fixed table only it can see keeps its column 600 px
// wide. React cannot write a comment, so a marker element is swapped for it after rendering.
const msoOpenMarker = '<i data-mso="open"></i>'
const msoCloseMarker = '<i data-mso="close"></i>'
const msoOpen =
	'<!--[if mso]><table role="presentation" width="600" align="center" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->'
const msoClose = '<!--[if mso]></td></tr></table><![endif]-->'

/** The URL when it is http(s), else null: a link or image from data never runs script. */
export function webUrl(url: string | null | undefined): string | null {
	if (!url) return null
	try {
		const parsed = new URL(url)
		return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null
	} catch {
		return null
	}
}

/** For the links a mail is sent for: without them the mail must not go out. */
export function requiredWebUrl(url: string, what: string): string {
	const safe = webUrl(url)
	if (!safe) throw new Error(`The ${what} link must be an http(s) URL, not ${JSON.stringify(url)}`)
	return safe
}

// A subject is one header line, whatever the title holds.
function oneLine(text: string): string {
	return text.replace(/\s+/g, ' ').trim()
}

// Gmail cuts mails over 102 KB: a digest of fifty long summaries must stay under it.
export function clip(text: string, max: number): string {
	if (text.length <= max) return text
	const cut = text.slice(0, max)
	const space = cut.lastIndexOf(' ')
	return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`
}

/** English as Canopy writes it: day first, no comma before "and". */
const rules = (locale: string) => (locale === 'en' ? 'en-GB' : locale)

export function byline(article: MailArticle, day: Intl.DateTimeFormat, i18n: I18n): string {
	const date = new Date(article.publishedAt)
	const authors = new Intl.ListFormat(rules(i18n.locale), { type: 'conjunction' }).format(
		article.authors,
	)
	const parts = [
		article.authors.length > 0 ? i18n._(msg`By ${authors}`) : '',
		Number.isNaN(date.getTime()) ? '' : day.format(date).replaceAll(' ', '\u00a0'),
	]
	return parts.filter(Boolean).join(' · ')
}

export function dayFormat(timeZone: string, locale = 'en'): Intl.DateTimeFormat {
	return new Intl.DateTimeFormat(rules(locale), {
		day: 'numeric',
		month: 'long',
		year: 'numeric',
		timeZone,
	})
}

/** The mail in its language: `<Trans>` in it reads the site's language's messages. */
export async function toMail(
	subject: string,
	element: ReactElement,
	i18n: I18n,
): Promise<RenderedMail> {
	const html = (await render(createElement(I18nProvider, { i18n }, element)))
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

export function newsletterLinks(links: MailLinks) {
	return {
		unsubscribe: requiredWebUrl(links.unsubscribe, 'unsubscribe'),
		preferences: webUrl(links.preferences),
	}
}
