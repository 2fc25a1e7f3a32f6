// Subscribing to the newsletter: double opt-in. The form's answer is the same whether or not the
// address is known (no one learns who subscribes), rate-limited per visitor and per address, and
// nothing but one confirmation mail is sent before the link in it is followed.
import { createHash } from 'node:crypto'
import type { I18n } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { visitorHash } from '#app/features/privacy/visitor-hash.server.ts'
import type { AppServices } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { Subscriber } from '#storage/port/newsletter.ts'
import { mailSite } from './newsletter-content.server.ts'
import { confirmLink, confirmValidDays, newsletterSecret } from './newsletter-links.server.ts'
import { subscribeSchema } from './subscribe.schema.ts'

/** Per visitor: a few tries in ten minutes. */
export const visitorLimit = { max: 5, windowMs: 10 * 60 * 1000 } as const
/** Per address: at most three confirmation mails a day, whoever asks. */
export const addressLimit = { max: 3, windowMs: 24 * 60 * 60 * 1000 } as const

export type SubscribeResult =
	| { outcome: 'invalid'; errors: FieldErrors }
	| { outcome: 'limited'; retryAfterSeconds: number; error: string }
	/** Said for every well-formed address, known or not. */
	| { outcome: 'asked'; email: string }

type Services = Pick<AppServices, 'storage' | 'logger' | 'siteUrl' | 'wakeMailOutbox'>

// Rendered once with this in place of the link, swapped for each reader's own after.
const confirmPlaceholder = 'https://confirm.canopy.invalid/'

/**
 * Queues one confirmation mail per subscriber, through the mail outbox: rendered once, each
 * with its own link, written in batches (an import may bring thousands).
 */
export async function sendConfirmations(services: Services, subscribers: Subscriber[]) {
	if (subscribers.length === 0) return
	const { storage, siteUrl } = services
	const [secret, site] = await Promise.all([newsletterSecret(storage), mailSite(storage, siteUrl)])
	const now = new Date()
	// The mail templates (React Email) are loaded with the first mail, not at the server's start.
	const { confirmationMail } = await import('./newsletter-mail.tsx')
	const mail = await confirmationMail({
		site,
		confirmUrl: confirmPlaceholder,
		validDays: confirmValidDays,
	})
	for (let i = 0; i < subscribers.length; i += 1_000) {
		await storage.outbox.enqueue(
			subscribers.slice(i, i + 1_000).map((subscriber) => {
				const link = confirmLink(secret, siteUrl, subscriber.id, now)
				return {
					kind: 'newsletter-confirmation',
					recipient: subscriber.email,
					subject: mail.subject,
					textBody: mail.text.replaceAll(confirmPlaceholder, link),
					htmlBody: mail.html.replaceAll(confirmPlaceholder, link),
					replyTo: null,
				}
			}),
		)
	}
	services.wakeMailOutbox()
}

/** The refusal of a visitor past their limit, in the request's language (`i18n`). */
function limitedText(i18n: I18n, seconds: number) {
	const minutes = Math.max(1, Math.ceil(seconds / 60))
	return i18n._(
		msg`Too many tries from here. Please try again in ${plural(minutes, { 1: 'a minute', one: '# minute', other: '# minutes' })}.`,
	)
}

export async function requestSubscription(
	services: Services,
	clientIp: string,
	input: Record<string, string>,
	i18n: I18n,
	now = new Date(),
): Promise<SubscribeResult> {
	const parsed = subscribeSchema.safeParse(input)
	if (!parsed.success) return { outcome: 'invalid', errors: fieldErrors(parsed.error) }
	const { storage, logger } = services
	const email = parsed.data.email.toLowerCase()
	const visitor = await visitorHash(storage, ['newsletter', clientIp], now)
	const hit = await storage.rateLimits.hit(
		`newsletter:${visitor}`,
		visitorLimit.max,
		visitorLimit.windowMs,
		now.getTime(),
	)
	if (!hit.allowed) {
		const retryAfterSeconds = Math.max(1, Math.ceil((hit.resetAt - now.getTime()) / 1000))
		return {
			outcome: 'limited',
			retryAfterSeconds,
			error: limitedText(i18n, retryAfterSeconds),
		}
	}
	// A robot is answered as a person is, and nothing is stored or sent.
	if (parsed.data.website) return { outcome: 'asked', email }
	// Past the address's own limit the answer is the same too: a stranger cannot flood an inbox.
	const addressKey = createHash('sha256').update(`newsletter-address:${email}`).digest('base64url')
	const perAddress = await storage.rateLimits.hit(
		`newsletter-address:${addressKey}`,
		addressLimit.max,
		addressLimit.windowMs,
		now.getTime(),
	)
	if (!perAddress.allowed) return { outcome: 'asked', email }
	const { subscriber } = await storage.newsletter.subscribe(email, 'form', now)
	// A confirmed reader asking again gets nothing: the answer alone must not tell it apart.
	if (subscriber.status === 'pending') {
		await sendConfirmations(services, [subscriber])
		logger.info('newsletter: confirmation queued', { subscriber: subscriber.id })
	}
	return { outcome: 'asked', email }
}
