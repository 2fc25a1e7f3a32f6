// What the admin API answers about articles, as schemas: the handlers' types come from these
// (article-api.server.ts), the OpenAPI description is generated from them (api-keys/openapi.ts),
// and the contract test checks every answer against that description.
import { z } from 'zod'

const instant = z.iso.datetime().describe('An instant, in UTC (ISO 8601).')
const version = z
	.number()
	.int()
	.positive()
	.describe(
		'Goes up by one with every save: send it back with a change, which is refused (409) when another came first.',
	)

export const apiStatuses = ['draft', 'scheduled', 'published'] as const

export const apiArticleSchema = z
	.object({
		id: z.number().int().positive(),
		slug: z.string().describe('Its address: readers find it at /articles/{slug}.'),
		title: z.string(),
		summary: z.string(),
		body: z.string().describe('The text, in Markdown.'),
		html: z.string().describe('The text as readers get it: rendered and sanitised.'),
		author: z
			.string()
			.describe('The authors’ names, joined: the field from before an article had several.'),
		authors: z.array(z.string()).describe('The authors’ names, in order.'),
		tags: z.array(z.string()).describe('The tags’ names, in order.'),
		cover: z.string().nullable().describe('The cover image’s address; null: none.'),
		coverAlt: z.string().nullable(),
		seoTitle: z
			.string()
			.describe('What search engines show instead of the title; empty: the title.'),
		seoDescription: z
			.string()
			.describe('What search engines show instead of the summary; empty: the summary.'),
		socialImage: z
			.string()
			.nullable()
			.describe('The image a shared link shows instead of the cover; null: the cover.'),
		language: z.string().describe('Its language tag (es, pt-BR); empty: the site’s language.'),
		translationOf: z
			.number()
			.int()
			.positive()
			.nullable()
			.describe('The id of the article this translates; null: an original.'),
		status: z
			.enum(apiStatuses)
			.describe('A scheduled article is a draft with a time to publish at.'),
		publishAt: instant.nullable(),
		publishedAt: instant.nullable(),
		createdAt: instant,
		updatedAt: instant,
		version,
		url: z.url().nullable().describe('Where readers find it; null while it is not public.'),
		notify: z.boolean().describe('Whether becoming public announces it to push subscribers.'),
		notifiedAt: instant.nullable().describe('When push subscribers were told of it; at most once.'),
		email: z
			.boolean()
			.describe('Whether becoming public for the first time mails newsletter subscribers.'),
		emailedAt: instant.nullable().describe('When it was mailed to them; at most once.'),
	})
	.strict()
	.meta({ id: 'Article' })

export type ApiArticle = z.infer<typeof apiArticleSchema>

export const apiListItemSchema = apiArticleSchema
	.pick({
		id: true,
		slug: true,
		title: true,
		author: true,
		authors: true,
		status: true,
		publishAt: true,
		publishedAt: true,
		updatedAt: true,
		version: true,
		url: true,
		notify: true,
		notifiedAt: true,
	})
	.strict()
	.meta({ id: 'ArticleListItem' })

export const apiListSchema = z
	.object({
		items: z.array(apiListItemSchema),
		total: z.number().int().min(0),
		page: z.number().int().min(1),
		pages: z.number().int().min(0),
	})
	.strict()
	.meta({ id: 'ArticleList' })

export const apiArticleAnswerSchema = z
	.object({ article: apiArticleSchema })
	.strict()
	.meta({ id: 'ArticleAnswer' })

export const apiErrorSchema = z
	.object({
		error: z.string().describe('What went wrong, and what to do, in words.'),
		errors: z
			.record(z.string(), z.array(z.string()))
			.optional()
			.describe('Per field: what to fix in it.'),
		current: apiArticleSchema.optional().describe('With a 409: the article as it stands now.'),
	})
	.strict()
	.meta({ id: 'Error' })

export const apiUploadSchema = z
	.object({
		upload: z
			.object({
				url: z.string().describe('The image’s address on this site: /media/{sha256}.{ext}.'),
				absoluteUrl: z.url(),
				hash: z.string().regex(/^[0-9a-f]{64}$/),
				mime: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/avif']),
				size: z.number().int().positive(),
				width: z.number().int().positive().nullable(),
				height: z.number().int().positive().nullable(),
				name: z.string().nullable(),
				alt: z.string().nullable(),
			})
			.strict(),
	})
	.strict()
	.meta({ id: 'Upload' })
