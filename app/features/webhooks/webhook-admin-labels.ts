// The webhooks' events as the staff pages name and explain them.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { WebhookEventType } from '#storage/port/webhooks.ts'

export const eventLabels: Record<
	WebhookEventType,
	{ name: MessageDescriptor; when: MessageDescriptor }
> = {
	'article.published': {
		name: msg`Article published`,
		when: msg`An article becomes public: published now, or at its scheduled time.`,
	},
	'article.updated': {
		name: msg`Article updated`,
		when: msg`A published article is saved again (each save, even one that changes nothing).`,
	},
	'article.unpublished': {
		name: msg`Article unpublished`,
		when: msg`A published article is turned back into a draft.`,
	},
	'article.deleted': {
		name: msg`Article deleted`,
		when: msg`A published article is deleted.`,
	},
	'page.published': {
		name: msg`Page published`,
		when: msg`A page (About, Donate…) becomes public: published now, or at its scheduled time.`,
	},
	'page.updated': {
		name: msg`Page updated`,
		when: msg`A published page is saved again.`,
	},
	'page.unpublished': {
		name: msg`Page unpublished`,
		when: msg`A published page is turned back into a draft.`,
	},
	'page.deleted': {
		name: msg`Page deleted`,
		when: msg`A published page is deleted.`,
	},
	'contact.received': {
		name: msg`Contact message received`,
		when: msg`A reader sends the contact form (with their name, address and message).`,
	},
	'subscriber.added': {
		name: msg`Subscriber added`,
		when: msg`A reader confirms their newsletter subscription.`,
	},
}
