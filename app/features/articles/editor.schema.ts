import { z } from 'zod'

/** What a save does: keep it a draft, make it public now, or have the job publish it later. */
export const articleIntents = ['draft', 'publish', 'schedule'] as const
export type ArticleIntent = (typeof articleIntents)[number]

/** The parts of an editor save beyond the article's fields (article.schema.ts). */
export const saveIntentSchema = z
	.object({
		intent: z.enum(articleIntents, { error: 'Choose to save a draft, publish or schedule.' }),
		publishAt: z.coerce
			.date({ error: 'Give a date and time to publish at, e.g. 2026-12-01T09:00.' })
			.optional(),
		/** Whether becoming public tells push subscribers; left out, the stored choice stays. */
		notify: z
			.boolean({
				error: 'Use true or false for notify: whether publishing tells push subscribers.',
			})
			.optional(),
		/** Whether becoming public mails newsletter subscribers; left out, the stored choice stays. */
		email: z
			.boolean({
				error: 'Use true or false for email: whether publishing mails newsletter subscribers.',
			})
			.optional(),
	})
	.refine((value) => value.intent !== 'schedule' || value.publishAt, {
		path: ['publishAt'],
		message: 'Choose when to publish.',
	})
	.refine(
		(value) => value.intent !== 'schedule' || (value.publishAt?.getTime() ?? 0) > Date.now(),
		{ path: ['publishAt'], message: 'Choose a time in the future, or publish now.' },
	)

/** The version an edit started from: a save over a newer one is refused. */
export const versionSchema = z.coerce
	.number({ error: 'The form is missing the version it was opened at; reload the page.' })
	.int()
	.positive()

export const editorListSchema = z.object({
	q: z.string().trim().max(100).optional().catch(undefined),
	status: z.enum(['draft', 'scheduled', 'published']).optional().catch(undefined),
	page: z.coerce.number().int().min(1).max(10_000).catch(1),
})
