// What a reader does from a link in a newsletter mail, without signing in: confirm, change what
// they receive, unsubscribe. Each link is signed (newsletter-links.server.ts).
import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { AppServices } from '#app/lib/context.server.ts'
import type { Cadence, Subscriber } from '#storage/port/newsletter.ts'
import {
	checkLink,
	type LinkPurpose,
	newsletterSecret,
	subscriberLinks,
} from './newsletter-links.server.ts'

type Services = Pick<AppServices, 'storage' | 'logger' | 'siteUrl'>

export type LinkedSubscriber =
	| { ok: true; subscriber: Subscriber; token: string }
	| { ok: false; reason: 'invalid' | 'expired' | 'gone' }

/** The subscriber a link names, when the link is genuine, in date and the address still here. */
export async function subscriberOfLink(
	services: Services,
	token: string | null,
	purpose: LinkPurpose,
	now = new Date(),
): Promise<LinkedSubscriber> {
	const secret = await newsletterSecret(services.storage)
	const checked = checkLink(secret, token, purpose, now)
	if (!checked.ok) return checked
	const subscriber = await services.storage.newsletter.find(checked.subscriberId)
	if (!subscriber) return { ok: false, reason: 'gone' }
	return { ok: true, subscriber, token: token as string }
}

/** Confirms the address a confirmation link names; the reader's manage link comes back with it. */
export async function confirmSubscription(services: Services, token: string | null) {
	const linked = await subscriberOfLink(services, token, 'confirm')
	if (!linked.ok) return linked
	const now = new Date()
	const { subscriber } = linked
	// A link followed after unsubscribing does not undo the unsubscribe: they must ask again.
	if (subscriber.status !== 'pending' && subscriber.status !== 'confirmed')
		return { ok: false as const, reason: 'gone' as const }
	const confirmed = (await services.storage.newsletter.confirm(subscriber.id, now)) ?? subscriber
	if (subscriber.status === 'pending')
		services.logger.info('newsletter: subscription confirmed', { subscriber: subscriber.id })
	const secret = await newsletterSecret(services.storage)
	return {
		ok: true as const,
		subscriber: confirmed,
		links: subscriberLinks(secret, services.siteUrl, subscriber.id),
	}
}

export async function unsubscribeByLink(services: Services, token: string | null) {
	const linked = await subscriberOfLink(services, token, 'manage')
	if (!linked.ok) return linked
	const subscriber = await services.storage.newsletter.unsubscribe(linked.subscriber.id, new Date())
	services.logger.info('newsletter: unsubscribed', { subscriber: linked.subscriber.id })
	return { ok: true as const, subscriber: subscriber ?? linked.subscriber }
}

export async function savePreferences(
	services: Services,
	token: string | null,
	preferences: { cadence: Cadence; tagIds: number[] },
) {
	const linked = await subscriberOfLink(services, token, 'manage')
	if (!linked.ok) return linked
	const subscriber = await services.storage.newsletter.setPreferences(
		linked.subscriber.id,
		preferences,
		new Date(),
	)
	if (!subscriber) return { ok: false as const, reason: 'gone' as const }
	return { ok: true as const, subscriber }
}

// Their English text is their id: app/lib/form-messages.ts registers the same messages, and one
// id keeps them one entry in the catalogue.
const linkProblems = {
	expired: msg({
		id: 'This confirmation link has expired. Subscribe again and follow the link in the new mail.',
		message:
			'This confirmation link has expired. Subscribe again and follow the link in the new mail.',
	}),
	gone: msg({
		id: 'This address is no longer subscribed. Subscribe again if you would like the newsletter.',
		message:
			'This address is no longer subscribed. Subscribe again if you would like the newsletter.',
	}),
	invalid: msg({
		id: 'This link is not complete or not one of ours. Open it again from the mail, or copy the whole address into the browser.',
		message:
			'This link is not complete or not one of ours. Open it again from the mail, or copy the whole address into the browser.',
	}),
}

/** What a reader sees when a link does not open, in the request's language (`i18n`). */
export function linkProblem(i18n: I18n, reason: 'invalid' | 'expired' | 'gone'): string {
	return i18n._(linkProblems[reason])
}
