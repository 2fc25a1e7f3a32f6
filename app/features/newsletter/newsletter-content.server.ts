// What a newsletter mail says, from the site's data: the site, an article or a digest's articles,
// and the reader's own links. Rendering (newsletter-mail.tsx, React) is given to the callers that
// need it: the server's delivery job cannot import JSX, so it takes the renderers from the build.
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { versionUpTo } from '#app/features/uploads/responsive-image.ts'
import type { ArticleCard } from '#storage/port/articles.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { MailArticle, MailLinks, MailSite, RenderedMail } from './newsletter-mail.tsx'

/** The renderers of newsletter-mail.tsx, as the build exports them (app/entry.server.tsx). */
export interface NewsletterMails {
	articleMail(input: {
		site: MailSite
		article: MailArticle
		links: MailLinks
		timeZone: string
	}): Promise<RenderedMail>
	digestMail(input: {
		site: MailSite
		articles: MailArticle[]
		links: MailLinks
		periodLabel: string
		timeZone: string
	}): Promise<RenderedMail>
}

/** Twice the mail's 600 px column, for sharp covers on dense screens. */
const coverWidth = 1200

export async function mailSite(storage: Storage, siteUrl: string): Promise<MailSite> {
	const settings = await getSiteSettings(storage)
	return {
		title: settings.title,
		siteUrl,
		logoUrl: absolute(settings.logoUrl, siteUrl),
		// Mails go out in the site's language (decision 033).
		language: settings.language,
	}
}

export function mailArticle(card: ArticleCard, siteUrl: string): MailArticle {
	const cover = card.coverImageUrl
		? versionUpTo(
				{ url: card.coverImageUrl, width: card.coverImageWidth, height: card.coverImageHeight },
				coverWidth,
			).url
		: null
	return {
		title: card.title,
		summary: card.summary,
		url: new URL(publicPath('article', card.slug), siteUrl).toString(),
		publishedAt: card.publishedAt,
		coverUrl: absolute(cover, siteUrl),
		coverAlt: card.coverImageAlt,
		tags: card.tags.map((tag) => tag.name),
		authors: card.authors.map((author) => author.name),
	}
}

/** "18–25 November 2026", in the site's time zone and language ("18–25 de noviembre de 2026"). */
export function periodLabel(start: string, end: string, timeZone: string, locale = 'en'): string {
	const format = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, {
		day: 'numeric',
		month: 'long',
		year: 'numeric',
		timeZone,
	})
	// The period ends at the digest's hour: its last day is the one before, unless it has hours in it.
	const last = new Date(new Date(end).getTime() - 1)
	return format.formatRange(new Date(start), last)
}

/** A site path or an absolute address, as an absolute address (mail has no page to be relative to). */
export function absolute(url: string | null | undefined, siteUrl: string): string | null {
	if (!url) return null
	try {
		return new URL(url, siteUrl).toString()
	} catch {
		return null
	}
}
