// The staff's side of the newsletter: a mail previewed as readers get it, and sent to oneself.
import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { AppServices } from '#app/lib/context.server.ts'
import type { Storage } from '#storage/port/storage.ts'
import { mailArticle, mailSite, periodLabel } from './newsletter-content.server.ts'
import type { RenderedMail } from './newsletter-mail.tsx'
import { getDigestSchedule } from './newsletter-settings.server.ts'

type Services = Pick<AppServices, 'storage' | 'siteUrl' | 'wakeMailOutbox'>

/** In a preview or a test the reader's own links lead to the public pages. */
function sampleLinks(siteUrl: string) {
	return {
		unsubscribe: new URL('/newsletter', siteUrl).toString(),
		preferences: new URL('/newsletter', siteUrl).toString(),
	}
}

/** The newest published articles, to choose one to preview or send. */
export async function recentArticles(storage: Storage) {
	const cards = await storage.articles.listPublished({ limit: 10 })
	return cards.map(({ id, title }) => ({ id, title }))
}

/**
 * An article's mail (the newest article's when no id is given), or the digest of the last seven
 * days; undefined when there is nothing to show.
 */
export async function previewMail(
	services: Services,
	what: { kind: 'article'; articleId?: number } | { kind: 'digest' },
): Promise<RenderedMail | undefined> {
	const { storage, siteUrl } = services
	const [site, schedule, { articleMail, digestMail }] = await Promise.all([
		mailSite(storage, siteUrl),
		getDigestSchedule(storage),
		// The mail templates (React Email) are loaded when first shown, not at the server's start.
		import('./newsletter-mail.tsx'),
	])
	const links = sampleLinks(siteUrl)
	if (what.kind === 'article') {
		const cards =
			what.articleId === undefined
				? await storage.articles.listPublished({ limit: 1 })
				: await storage.articles.listPublishedByIds([what.articleId])
		const card = cards[0]
		if (!card) return undefined
		const article = mailArticle(card, siteUrl)
		return articleMail({
			site,
			article,
			links: { ...links, viewInBrowser: article.url },
			timeZone: schedule.timeZone,
		})
	}
	const end = new Date()
	const start = new Date(end.getTime() - 7 * 24 * 60 * 60 * 1000)
	const cards = await storage.articles.listPublished({ limit: 50 })
	const week = cards.filter((card) => new Date(card.publishedAt) >= start)
	const chosen = week.length > 0 ? week : cards.slice(0, 3)
	if (chosen.length === 0) return undefined
	return digestMail({
		site,
		articles: chosen.map((card) => mailArticle(card, siteUrl)),
		links: { ...links, viewInBrowser: null },
		periodLabel: periodLabel(
			start.toISOString(),
			end.toISOString(),
			schedule.timeZone,
			site.language,
		),
		timeZone: schedule.timeZone,
	})
}

/**
 * Queues the mail to one staff member's own address, through the outbox; false: nothing to send.
 * `i18n`: the sender's interface language, for the subject's "[Test]" (the mail is the readers').
 */
export async function sendTestMail(
	services: Services,
	recipient: string,
	what: { kind: 'article'; articleId?: number } | { kind: 'digest' },
	i18n: I18n,
): Promise<boolean> {
	const mail = await previewMail(services, what)
	if (!mail) return false
	const subject = mail.subject
	await services.storage.outbox.enqueue([
		{
			kind: 'newsletter-test',
			recipient,
			subject: i18n._(msg`[Test] ${subject}`),
			textBody: mail.text,
			htmlBody: mail.html,
			replyTo: null,
		},
	])
	services.wakeMailOutbox()
	return true
}
