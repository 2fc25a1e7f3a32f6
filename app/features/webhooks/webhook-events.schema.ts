// What each webhook event's body holds, as zod schemas: the OpenAPI description's `webhooks`
// section is generated from them (api-keys/openapi.ts), and the delivery tests parse every body
// the worker sends with them, strictly, so the description cannot drift from what is sent.
import { z } from 'zod'
import type { WebhookEventType } from '#storage/port/webhooks.ts'

const id = z.number().int().positive()
const moment = z.iso.datetime({ offset: true })

export const webhookArticleSchema = z
	.strictObject({
		id,
		slug: z.string(),
		title: z.string(),
		summary: z.string(),
		status: z.enum(['published', 'draft']).describe('Its state after the event.'),
		language: z.string().describe('BCP 47 tag; empty: the site’s own language.'),
		publishedAt: moment.nullable(),
		updatedAt: moment.nullable(),
		url: z
			.url()
			.optional()
			.describe(
				'Its public address: in article.published, article.updated, page.published and page.updated only.',
			),
	})
	.describe(
		'The article or page as it was when the event happened. The Admin API’s GET /api/admin/articles/{id} gives the rest.',
	)
	.meta({ id: 'WebhookArticle' })

export const webhookContactMessageSchema = z
	.strictObject({
		id,
		name: z.string(),
		email: z.string(),
		subject: z.string(),
		message: z.string(),
		receivedAt: moment,
	})
	.meta({ id: 'WebhookContactMessage' })

export const webhookSubscriberSchema = z
	.strictObject({
		id,
		email: z.string(),
		cadence: z.enum(['each', 'digest']).describe('Every new article, or the weekly digest.'),
		source: z.enum(['form', 'import', 'staff']),
		confirmedAt: moment.nullable(),
		createdAt: moment,
		tagIds: z.array(id).describe('The tags they follow; none: every article.'),
	})
	.meta({ id: 'WebhookSubscriber' })

export const webhookTestSchema = z
	.strictObject({ message: z.string(), endpointId: id })
	.meta({ id: 'WebhookTest' })

function envelope<Type extends string>(type: Type, data: z.ZodType, name: string) {
	return z
		.strictObject({
			type: z.literal(type),
			timestamp: moment.describe('When the event happened (not when this attempt was made).'),
			data,
		})
		.meta({ id: name })
}

/** Each event's body, by its type. */
export const webhookEventSchemas = {
	'article.published': envelope('article.published', webhookArticleSchema, 'ArticlePublishedEvent'),
	'article.updated': envelope('article.updated', webhookArticleSchema, 'ArticleUpdatedEvent'),
	'article.unpublished': envelope(
		'article.unpublished',
		webhookArticleSchema,
		'ArticleUnpublishedEvent',
	),
	'article.deleted': envelope('article.deleted', webhookArticleSchema, 'ArticleDeletedEvent'),
	'page.published': envelope('page.published', webhookArticleSchema, 'PagePublishedEvent'),
	'page.updated': envelope('page.updated', webhookArticleSchema, 'PageUpdatedEvent'),
	'page.unpublished': envelope('page.unpublished', webhookArticleSchema, 'PageUnpublishedEvent'),
	'page.deleted': envelope('page.deleted', webhookArticleSchema, 'PageDeletedEvent'),
	'contact.received': envelope(
		'contact.received',
		webhookContactMessageSchema,
		'ContactReceivedEvent',
	),
	'subscriber.added': envelope('subscriber.added', webhookSubscriberSchema, 'SubscriberAddedEvent'),
	'webhook.test': envelope('webhook.test', webhookTestSchema, 'WebhookTestEvent'),
} satisfies Record<WebhookEventType | 'webhook.test', z.ZodType>

/** What the description says of each event. */
export const webhookEventDescriptions: Record<keyof typeof webhookEventSchemas, string> = {
	'article.published': 'An article became public: published now, or at its scheduled time.',
	'article.updated':
		'A published article was saved again (each save, even one that changed nothing).',
	'article.unpublished': 'A published article was turned back into a draft.',
	'article.deleted': 'A published article was deleted (a draft deleted sends nothing).',
	'page.published':
		'A page (About, Donate…) became public: published now, or at its scheduled time.',
	'page.updated': 'A published page was saved again.',
	'page.unpublished': 'A published page was turned back into a draft.',
	'page.deleted': 'A published page was deleted (a draft deleted sends nothing).',
	'contact.received': 'A reader sent the contact form.',
	'subscriber.added': 'A reader confirmed their newsletter subscription.',
	'webhook.test': 'Sent when an admin presses “Send a test event” on the endpoint’s page.',
}
