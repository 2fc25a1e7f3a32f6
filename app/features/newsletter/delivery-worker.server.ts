// Sending the newsletter: each step claims due deliveries, renders each mail once (per digest
// reader's topics, once per set of topics) with the reader's own links swapped in, and sends them
// over SMTP_URL on a pool of connections at the configured rate. Several instances may run it on
// one database: each delivery is leased to one of them. Like all of Canopy's mail it is at least
// once: a worker killed between the server's acceptance and markSent leaves that delivery to go
// again when its lease runs out (docs/decisions/032-newsletter.md).
import { defaultRetry, type RetryPolicy, retryDelayMs } from '#app/features/mail/outbox.server.ts'
import { senderAddress, smtpTransport } from '#app/features/mail/smtp.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { ArticleCard } from '#storage/port/articles.ts'
import type { ClaimedMailDelivery } from '#storage/port/newsletter.ts'
import type { Storage } from '#storage/port/storage.ts'
import {
	mailArticle,
	mailSite,
	type NewsletterMails,
	periodLabel,
} from './newsletter-content.server.ts'
import { newsletterSecret, subscriberLinks } from './newsletter-links.server.ts'
import type { MailLinks, MailSite, RenderedMail } from './newsletter-mail.tsx'
import { getDigestSchedule } from './newsletter-settings.server.ts'
import { defaultRate, defaultSuspendAfter } from './newsletter-settings.ts'

export interface NewsletterDeliveryOutcome {
	claimed: number
	sent: number
	retried: number
	refused: number
	failed: number
}

export interface NewsletterDeliveryOptions {
	/** Mails per second this instance sends at most (NEWSLETTER_RATE). */
	ratePerSecond?: number
	/** Permanent refusals after which an address is suspended (NEWSLETTER_SUSPEND_AFTER). */
	suspendAfter?: number
	/** SMTP connections at once. */
	connections?: number
	batchSize?: number
	/** Longer than a batch can take at the rate. */
	leaseMs?: number
	/** The longest one send may take. */
	timeoutMs?: number
	intervalMs?: number
	retry?: Partial<RetryPolicy>
	clock?: () => Date
	random?: () => number
}

const nothing = (): NewsletterDeliveryOutcome => ({
	claimed: 0,
	sent: 0,
	retried: 0,
	refused: 0,
	failed: 0,
})

// Rendered once per mail with these in place of the reader's links, swapped per reader after.
const placeholder: MailLinks = {
	unsubscribe: 'https://unsubscribe.canopy.invalid/',
	preferences: 'https://preferences.canopy.invalid/',
	viewInBrowser: null,
}

function personal(mail: RenderedMail, links: { unsubscribe: string; preferences: string }) {
	const swap = (text: string) =>
		text
			.replaceAll(placeholder.unsubscribe, links.unsubscribe)
			.replaceAll(placeholder.preferences, links.preferences)
	return { subject: mail.subject, html: swap(mail.html), text: swap(mail.text) }
}

/** The SMTP reply code of a failed send, when the server gave one. */
function replyCode(error: unknown): number | undefined {
	const code = (error as { responseCode?: unknown })?.responseCode
	return typeof code === 'number' ? code : undefined
}

function describeError(error: unknown): string {
	const response = (error as { response?: unknown })?.response
	if (typeof response === 'string' && response) return response
	return error instanceof Error ? error.message : String(error)
}

export function newsletterDeliverySteps(
	storage: Storage,
	logger: Logger,
	config: { siteUrl: string; smtpUrl: string },
	mails: () => Promise<NewsletterMails>,
	options: NewsletterDeliveryOptions = {},
) {
	const rate = Math.max(0.1, options.ratePerSecond ?? defaultRate)
	// A batch is at most a minute's sending, so it ends well inside its lease.
	const batchSize = Math.max(1, Math.min(options.batchSize ?? 500, Math.floor(rate * 60)))
	const leaseMs = options.leaseMs ?? 10 * 60_000
	const timeoutMs = options.timeoutMs ?? 30_000
	const connections = options.connections ?? 5
	const suspendAfter = options.suspendAfter ?? defaultSuspendAfter
	const retry = { ...defaultRetry, ...options.retry }
	const clock = options.clock ?? (() => new Date())
	const from = senderAddress(config.smtpUrl, config.siteUrl)
	const transport = smtpTransport(config.smtpUrl, {
		maxConnections: connections,
		perSecond: Math.max(1, Math.round(rate)),
	})

	/** Everything one step's mails need, read once per step. */
	async function prepare(due: ClaimedMailDelivery[]) {
		const [render, site, secret, schedule] = await Promise.all([
			mails(),
			mailSite(storage, config.siteUrl),
			newsletterSecret(storage),
			getDigestSchedule(storage),
		])
		const articleIds = new Set<number>()
		for (const delivery of due) {
			if (delivery.mail.kind === 'article') articleIds.add(delivery.mail.articleId)
			else for (const id of delivery.mail.digest.articleIds) articleIds.add(id)
		}
		const cards = new Map<number, ArticleCard>()
		for (const card of await storage.articles.listPublishedByIds([...articleIds]))
			cards.set(card.id, card)
		// A digest reader's topics are tag ids; cards name their tags by address.
		const followed = due.some((d) => d.mail.kind === 'digest' && d.subscriber.tagIds.length > 0)
		const tagSlugs = new Map<number, string>()
		if (followed) for (const tag of await storage.tags.list()) tagSlugs.set(tag.id, tag.slug)
		const rendered = new Map<string, Promise<RenderedMail | null>>()
		/** The mail of a delivery with placeholder links; null when it has nothing left to say. */
		const mailOf = (delivery: ClaimedMailDelivery) => {
			const { mail } = delivery
			const topics =
				mail.kind === 'digest'
					? delivery.subscriber.tagIds.flatMap((id) => tagSlugs.get(id) ?? [])
					: []
			const key =
				mail.kind === 'article' ? `a${mail.articleId}` : `d${mail.digest.id}:${topics.join(',')}`
			let made = rendered.get(key)
			if (!made) {
				made = renderMail(render, site, mail, topics, cards, schedule.timeZone)
				rendered.set(key, made)
			}
			return made
		}
		return { secret, mailOf }
	}

	async function renderMail(
		render: NewsletterMails,
		site: MailSite,
		mail: ClaimedMailDelivery['mail'],
		/** The addresses of the tags a digest reader follows; none: every article. */
		topics: string[],
		cards: Map<number, ArticleCard>,
		timeZone: string,
	): Promise<RenderedMail | null> {
		if (mail.kind === 'article') {
			const card = cards.get(mail.articleId)
			if (!card) return null
			const article = mailArticle(card, config.siteUrl)
			return render.articleMail({
				site,
				article,
				links: { ...placeholder, viewInBrowser: article.url },
				timeZone,
			})
		}
		const { digest } = mail
		const chosen = digest.articleIds
			.map((id) => cards.get(id))
			.filter((card): card is ArticleCard => card !== undefined)
			.filter((card) => topics.length === 0 || card.tags.some((tag) => topics.includes(tag.slug)))
		if (chosen.length === 0) return null
		return render.digestMail({
			site,
			articles: chosen.map((card) => mailArticle(card, config.siteUrl)),
			links: {
				...placeholder,
				viewInBrowser: new URL(`/newsletter/digests/${digest.id}`, config.siteUrl).toString(),
			},
			periodLabel: periodLabel(digest.periodStart, digest.periodEnd, timeZone, site.language),
			timeZone,
		})
	}

	async function deliver(
		delivery: ClaimedMailDelivery,
		mail: RenderedMail | null,
		secret: string,
		outcome: NewsletterDeliveryOutcome,
	) {
		const { id, attempts } = delivery
		if (!mail) {
			await storage.newsletter.markFailed(
				id,
				'nothing to send: its articles are no longer public',
				clock(),
			)
			outcome.failed++
			return
		}
		const links = subscriberLinks(secret, config.siteUrl, delivery.subscriber.id)
		const own = personal(mail, links)
		let timer: NodeJS.Timeout | undefined
		try {
			const opened = await transport.open()
			await Promise.race([
				opened.sendMail({
					from,
					to: delivery.subscriber.email,
					subject: own.subject,
					text: own.text,
					html: own.html,
					list: {
						// RFC 2369 and RFC 8058: mail programs offer an unsubscribe button that POSTs here.
						unsubscribe: { url: links.unsubscribe, comment: 'Unsubscribe' },
					},
					headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
				}),
				new Promise<never>((_, reject) => {
					timer = setTimeout(
						() => reject(new Error(`the mail server took longer than ${timeoutMs / 1000} s`)),
						timeoutMs,
					)
				}),
			])
		} catch (error) {
			const code = replyCode(error)
			const reason = describeError(error)
			const fields = { id, subscriber: delivery.subscriber.id, attempts, error: reason }
			if (code !== undefined && code >= 500) {
				const suspended = await storage.newsletter.markRefused(id, reason, clock(), suspendAfter)
				logger.warn(
					suspended
						? 'newsletter: address refused too often; suspended'
						: 'newsletter: address refused; not retried',
					fields,
				)
				outcome.refused++
				return
			}
			if (attempts >= retry.maxAttempts) {
				await storage.newsletter.markFailed(
					id,
					`given up after ${attempts} attempts: ${reason}`,
					clock(),
				)
				logger.warn('newsletter: given up after the last retry', fields)
				outcome.failed++
				return
			}
			const wait = retryDelayMs(attempts, retry, options.random)
			await storage.newsletter.retryLater(id, reason, new Date(clock().getTime() + wait))
			logger.info('newsletter: could not send; will retry', { ...fields, retryInMs: wait })
			outcome.retried++
			return
		} finally {
			clearTimeout(timer)
		}
		await storage.newsletter.markSent(id, clock(), delivery.subscriber.failures > 0)
		outcome.sent++
	}

	async function step(): Promise<NewsletterDeliveryOutcome> {
		const due = await storage.newsletter.claimDue(clock(), leaseMs, batchSize)
		const outcome = { ...nothing(), claimed: due.length }
		if (due.length === 0) return outcome
		const { secret, mailOf } = await prepare(due)
		let next = 0
		const lane = async () => {
			while (next < due.length) {
				const delivery = due[next++] as ClaimedMailDelivery
				await mailOf(delivery)
					.then((mail) => deliver(delivery, mail, secret, outcome))
					.catch((error: unknown) =>
						// Not recorded: the lease runs out and it is sent again.
						logger.warn('newsletter: could not record a delivery; it will be retried', {
							id: delivery.id,
							error,
						}),
					)
			}
		}
		// The pool sends on `connections` connections; a lane per connection keeps each busy.
		await Promise.all(Array.from({ length: Math.min(connections * 2, due.length) }, lane))
		return outcome
	}

	return { step, nothing, batchSize, release: transport.close }
}
