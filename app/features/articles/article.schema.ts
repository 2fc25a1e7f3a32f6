import { z } from 'zod'
import { normaliseLanguageTag } from '#app/lib/i18n.ts'
import { isImageAddress } from '#app/lib/image-address.ts'
import { markdownLimitProblem } from './markdown-limits.ts'
import { slugPattern } from './slug.ts'

const optionalText = z
	.string()
	.trim()
	.transform((value) => value || null)
	.nullish()
	.transform((value) => value ?? null)

/** What an author provides for an article: front matter plus body, or (later) the editor's form. */
export const articleInputSchema = z
	.object({
		title: z
			.string()
			.trim()
			.min(1, 'Give the article a title.')
			.max(200, 'Keep the title under 200 characters.'),
		slug: z
			.string()
			.trim()
			.normalize('NFC')
			.max(80, 'Keep the slug under 80 characters.')
			.regex(slugPattern, 'Use lowercase letters, digits and single hyphens in the slug.')
			.optional(),
		summary: z.string().trim().max(300, 'Keep the summary under 300 characters.').default(''),
		body: z
			.string()
			.min(1, 'The article has no text.')
			.max(200_000, 'The article is longer than 200,000 characters.')
			.superRefine((body, context) => {
				const problem = markdownLimitProblem(body)
				if (problem) context.addIssue({ code: 'custom', message: problem })
			}),
		/** One author by name: what the API and front matter took before an article had several. */
		author: z.string().trim().max(100, 'Keep the author name under 100 characters.').default(''),
		authors: z
			.array(z.string().trim().min(1).max(100, 'Keep each author name under 100 characters.'))
			.max(10, 'Name at most 10 authors.')
			.default([]),
		tags: z
			.array(z.string().trim().min(1).max(40, 'Keep each tag under 40 characters.'))
			.max(10, 'Use at most 10 tags.')
			.default([]),
		cover: z
			.string()
			.trim()
			.refine(isImageAddress, 'The cover image must be a path on this site or an https:// address.')
			.nullish()
			.transform((value) => value || null),
		coverAlt: optionalText,
		/**
		 * What search engines show instead of the title and the summary (empty: those); the image a
		 * shared link shows instead of the cover (empty: none). Left out, the stored ones stay.
		 */
		seoTitle: z
			.string()
			.trim()
			.max(120, 'Keep the title for search engines under 120 characters.')
			.optional(),
		seoDescription: z
			.string()
			.trim()
			.max(300, 'Keep the description for search engines under 300 characters.')
			.optional(),
		socialImage: z
			.string()
			.trim()
			.refine(
				(value) => value === '' || isImageAddress(value),
				'The image for shared links must be a path on this site or an https:// address.',
			)
			.nullish()
			.transform((value) => (value === undefined ? undefined : value || null)),
		/** A language tag (es, pt-BR, ar); empty: the site's language. Left out, the stored one stays. */
		language: z
			.string()
			.trim()
			.max(35, 'Give the language as a code like es, pt-BR or ar.')
			.refine(
				(value) => value === '' || normaliseLanguageTag(value) !== undefined,
				'Give the language as a code like es, pt-BR or ar.',
			)
			.transform((value) => (value === '' ? '' : (normaliseLanguageTag(value) ?? '')))
			.optional(),
		/**
		 * The article this one translates: its id (the API) or its address (the editor's form);
		 * empty or null: none. Left out, the stored link stays.
		 */
		translationOf: z
			.union([
				z.number().int().positive(),
				z
					.string()
					.trim()
					.max(200, 'Give the address of the article this one translates.')
					.normalize('NFC'),
			])
			.nullish(),
		publishedAt: z.coerce
			.date({ error: 'publishedAt must be a date, e.g. 2026-10-05T08:00:00Z.' })
			.optional(),
	})
	.refine((input) => !input.cover || input.coverAlt, {
		path: ['coverAlt'],
		message: 'Describe the cover image: what it shows, for people who cannot see it.',
	})

export type ArticleInput = z.input<typeof articleInputSchema>
export type ParsedArticleInput = z.output<typeof articleInputSchema>
