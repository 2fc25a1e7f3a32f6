// The admin API's OpenAPI 3.1 description (docs/decisions/036-openapi.md), generated from the zod
// schemas the handlers validate requests with and type their answers by, so the two cannot part:
// a field added to a schema is in the description, and the contract test
// (tests/integration/openapi.test.ts) checks every answer against it.
import { z } from 'zod'
import { articleInputSchema } from '#app/features/articles/article.schema.ts'
import { apiStatuses } from '#app/features/articles/article-api.schema.ts'
import { articleIntents, saveIntentSchema } from '#app/features/articles/editor.schema.ts'
import {
	webhookEventDescriptions,
	webhookEventSchemas,
} from '#app/features/webhooks/webhook-events.schema.ts'

type JsonSchema = Record<string, unknown>

/** The webhook events' bodies and their data, by their ids (webhook-events.schema.ts). */
const webhookSchemas = [
	...Object.values(webhookEventSchemas).map((schema) => String(schema.meta()?.id)),
	'WebhookArticle',
	'WebhookContactMessage',
	'WebhookSubscriber',
	'WebhookTest',
]

/** The answers' schemas by their ids (article-api.schema.ts registers them), and the events'. */
const answerSchemas = [
	'Article',
	'ArticleAnswer',
	'ArticleList',
	'ArticleListItem',
	'Error',
	'Upload',
	...webhookSchemas,
]

/** A date the schemas coerce from a string: in JSON, an ISO 8601 string. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
	const json = z.toJSONSchema(schema, {
		io,
		target: 'draft-2020-12',
		unrepresentable: 'any',
		override(context) {
			if (context.zodSchema._zod.def.type === 'date') {
				context.jsonSchema.type = 'string'
				context.jsonSchema.format = 'date-time'
			}
		},
	}) as JsonSchema
	delete json.$schema
	return json
}

/** What a create or an update may send: the article's fields and what to do with them. */
function articleWriteSchema(update: boolean): JsonSchema {
	const fields = jsonSchemaOf(articleInputSchema, 'input')
	const intent = jsonSchemaOf(saveIntentSchema, 'input')
	const properties = {
		...(fields.properties as JsonSchema),
		...(intent.properties as JsonSchema),
		intent: {
			type: 'string',
			enum: [...articleIntents],
			description:
				'draft (the default for a new article), publish, or schedule (with publishAt). Left out on an update: status decides, else the article keeps its state.',
		},
		status: {
			type: 'string',
			enum: [...apiStatuses],
			description: 'As GET answers it: sent back unchanged, the article keeps its state.',
		},
		...(update
			? {
					version: {
						type: 'integer',
						minimum: 1,
						description: 'The version this change starts from (GET answers it).',
					},
				}
			: {}),
	}
	return {
		type: 'object',
		properties,
		required: [...((fields.required as string[]) ?? []), ...(update ? ['version'] : [])],
	}
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
const json = (schema: JsonSchema) => ({ 'application/json': { schema } })
const error = (description: string) => ({ description, content: json(ref('Error')) })

const common = {
	'401': error('No valid API key or editor session.'),
}
const versioned = {
	required: true,
	content: json({
		type: 'object',
		properties: { version: { type: 'integer', minimum: 1 } },
		required: ['version'],
	}),
}
const idParameter = {
	name: 'id',
	in: 'path',
	required: true,
	schema: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
}

/** Every operation of the admin API, by path and method: the route table's /api/admin routes. */
export function adminApiPaths(): Record<string, Record<string, JsonSchema>> {
	const article = { description: 'The article.', content: json(ref('ArticleAnswer')) }
	const invalid = error('A field needs fixing: `errors` says which and how.')
	const missing = error('There is no article with this id.')
	const stale = error('Another change came first: `current` is the article as it stands.')
	/** Publish and unpublish: a POST of the version it starts from. */
	const stateChange = (operationId: string, summary: string) => ({
		parameters: [idParameter] as unknown as JsonSchema,
		post: {
			operationId,
			summary,
			requestBody: versioned,
			responses: { '200': article, '400': invalid, ...common, '404': missing, '409': stale },
		},
	})
	return {
		'/api/admin/articles': {
			get: {
				operationId: 'listArticles',
				summary: 'List articles, most recently edited first',
				parameters: [
					{
						name: 'q',
						in: 'query',
						schema: { type: 'string', maxLength: 100 },
						description: 'Words in the title, summary or text.',
					},
					{ name: 'status', in: 'query', schema: { type: 'string', enum: [...apiStatuses] } },
					{
						name: 'page',
						in: 'query',
						schema: { type: 'integer', minimum: 1, maximum: 10_000, default: 1 },
					},
				],
				responses: {
					'200': { description: 'A page of 20.', content: json(ref('ArticleList')) },
					...common,
				},
			},
			post: {
				operationId: 'createArticle',
				summary: 'Create an article (a draft unless intent says otherwise)',
				parameters: [
					{
						name: 'Idempotency-Key',
						in: 'header',
						schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
						description:
							'The same key and body within a day answer with the article the first request made.',
					},
				],
				requestBody: { required: true, content: json(articleWriteSchema(false)) },
				responses: {
					'201': {
						...article,
						description: 'Made (or, with an Idempotency-Key sent before, the one made then).',
					},
					'400': invalid,
					...common,
					'415': error('The body is not JSON.'),
					'422': error('This Idempotency-Key came before with another body.'),
				},
			},
		},
		'/api/admin/articles/{id}': {
			parameters: [idParameter] as unknown as JsonSchema,
			get: {
				operationId: 'getArticle',
				summary: 'One article, with its Markdown, HTML and version',
				responses: { '200': article, ...common, '404': missing },
			},
			put: {
				operationId: 'updateArticle',
				summary: 'Replace its fields; version is required',
				requestBody: { required: true, content: json(articleWriteSchema(true)) },
				responses: { '200': article, '400': invalid, ...common, '404': missing, '409': stale },
			},
			delete: {
				operationId: 'deleteArticle',
				summary: 'Delete it',
				parameters: [
					{
						name: 'version',
						in: 'query',
						schema: { type: 'integer', minimum: 1 },
						description: 'Refused (409) when it is not the latest.',
					},
				],
				responses: { '204': { description: 'Deleted.' }, ...common, '404': missing, '409': stale },
			},
		},
		'/api/admin/articles/{id}/publish': stateChange(
			'publishArticle',
			'Make it public now, as it stands',
		),
		'/api/admin/articles/{id}/unpublish': stateChange(
			'unpublishArticle',
			'Take it off the site; it stays as a draft',
		),
		'/api/admin/uploads': {
			post: {
				operationId: 'uploadImage',
				summary: 'Store an image (PNG, JPEG, WebP or AVIF), cleaned of its metadata',
				requestBody: {
					required: true,
					content: {
						'image/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
						'multipart/form-data': {
							schema: {
								type: 'object',
								properties: {
									file: { type: 'string', contentMediaType: 'application/octet-stream' },
								},
								required: ['file'],
							},
						},
					},
				},
				responses: {
					'201': {
						description: 'Stored (the same bytes twice are stored once).',
						content: json(ref('Upload')),
					},
					'400': invalid,
					...common,
					'413': error('Larger than UPLOAD_MAX_MB.'),
					'415': error('Not an image of an accepted type (its bytes decide, not its name).'),
				},
			},
		},
	}
}

const signatureHeaders = [
	{
		name: 'webhook-id',
		description: 'The event’s id: the same on every attempt. Drop an event whose id you have seen.',
	},
	{
		name: 'webhook-timestamp',
		description:
			'When this attempt was signed, in seconds since 1970. Refuse one over 5 minutes old.',
	},
	{
		name: 'webhook-signature',
		description:
			'v1, and the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint’s secret, in base64 (Standard Webhooks). For a day after a new secret is made, two such signatures, space-separated: one with each secret. Check it with a Standard Webhooks library, which accepts either.',
	},
].map((header) => ({ ...header, in: 'header', required: true, schema: { type: 'string' } }))

/**
 * The events Canopy posts to the endpoints admins register in /admin/webhooks (OpenAPI 3.1's
 * webhooks): each a signed POST, retried for a day until the receiver answers 2xx.
 */
function webhooks(): JsonSchema {
	return Object.fromEntries(
		Object.entries(webhookEventSchemas).map(([type, schema]) => [
			type,
			{
				post: {
					summary: type,
					description: webhookEventDescriptions[type as keyof typeof webhookEventSchemas],
					operationId: `webhook-${type.replace('.', '-')}`,
					parameters: signatureHeaders,
					requestBody: {
						required: true,
						content: json(ref(String(schema.meta()?.id))),
					},
					responses: {
						'2XX': { description: 'Taken: not sent again.' },
						'410': { description: 'Gone: Canopy turns the endpoint off and sends no more.' },
						default: {
							description:
								'Anything else, or no answer within 15 seconds, is tried again: after 5 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h and 8 h. A 3xx is not followed.',
						},
					},
				},
			},
		]),
	)
}

/** The whole description, for /api/admin/openapi.json and the staff's reference page. */
export function adminApiDescription(siteUrl: string): JsonSchema {
	// The answers' schemas, each with an id (article-api.schema.ts), as components that refer to
	// each other by it.
	const { schemas } = z.toJSONSchema(z.globalRegistry, {
		io: 'output',
		target: 'draft-2020-12',
		unrepresentable: 'any',
		uri: (id) => `#/components/schemas/${id}`,
	}) as unknown as { schemas: Record<string, JsonSchema> }
	const components: Record<string, JsonSchema> = {}
	for (const id of answerSchemas) {
		const { $schema: _, $id: __, id: ___, ...schema } = schemas[id] ?? {}
		components[id] = schema
	}
	return {
		openapi: '3.1.0',
		info: {
			title: 'Canopy Admin API',
			version: '1',
			description:
				'Articles, their publishing and images, as JSON. Authenticate with an API key an admin makes in /admin/api-keys (Authorization: Bearer cnp_…) or a signed-in editor’s session cookie.',
		},
		servers: [{ url: siteUrl }],
		security: [{ apiKey: [] }, { session: [] }],
		paths: adminApiPaths(),
		webhooks: webhooks(),
		components: {
			schemas: components,
			securitySchemes: {
				apiKey: {
					type: 'http',
					scheme: 'bearer',
					description: 'An API key: cnp_ followed by 43 characters.',
				},
				session: { type: 'apiKey', in: 'cookie', name: 'canopy.session_token' },
			},
		},
	}
}
