// The contact form's rules, shared by the form (checked as each field is left), the page's action
// and the JSON API, so a visitor meets the same messages wherever they write from.
import { z } from 'zod'

export const contactLimits = {
	name: 100,
	email: 254,
	subject: 150,
	messageMin: 10,
	messageMax: 5_000,
} as const

// Control characters can hide text or break a mail header; one-line fields lose them all, the
// message keeps its line breaks and tabs (Windows line ends become plain ones first).
const oneLine = (value: string) => value.replace(/\p{Cc}/gu, '').trim()
const multiLine = (value: string) =>
	value
		.replace(/\r\n?/g, '\n')
		.replace(/[^\P{Cc}\n\t]/gu, '')
		.trim()

const count = (value: number) => value.toLocaleString('en-US')

/** A text field: anything but a string (a number, a list) gets `message` too. */
const text = (message: string, clean: (value: string) => string) =>
	z.string({ error: message }).transform(clean)

export const contactFieldsSchema = z.object({
	name: text('Enter your name.', oneLine).pipe(
		z
			.string()
			.min(1, { error: 'Enter your name, so we know who is writing.', abort: true })
			.max(contactLimits.name, `Keep your name to ${contactLimits.name} characters or fewer.`),
	),
	email: text('Enter your email address.', oneLine).pipe(
		z
			.string()
			.min(1, { error: 'Enter your email address, so we can reply.', abort: true })
			.max(contactLimits.email, {
				error: 'This email address is too long. Check it and try again.',
				abort: true,
			})
			.pipe(z.email({ error: 'Enter an email address like name@example.org, so we can reply.' })),
	),
	subject: text('The subject must be text.', oneLine)
		.pipe(
			z
				.string()
				.max(
					contactLimits.subject,
					`Keep the subject to ${contactLimits.subject} characters or fewer.`,
				),
		)
		.optional()
		.transform((value) => value ?? ''),
	message: text('Write your message.', multiLine).pipe(
		z
			.string()
			.min(1, { error: 'Write your message.', abort: true })
			.min(
				contactLimits.messageMin,
				`Write at least ${contactLimits.messageMin} characters, so we understand what you need.`,
			)
			.max(contactLimits.messageMax, {
				error: (issue) =>
					`Keep your message to ${count(contactLimits.messageMax)} characters or fewer (it has ${count(
						typeof issue.input === 'string' ? issue.input.length : 0,
					)}).`,
			}),
	),
})

export type ContactFields = z.infer<typeof contactFieldsSchema>
export type ContactField = keyof ContactFields
export const contactFields = Object.keys(contactFieldsSchema.shape) as ContactField[]

/**
 * One submission: the fields, plus what the form carries besides them. The honeypot and the token
 * are read leniently on purpose: a wrong one is answered as if accepted, never with an error that
 * would teach a robot what to fix.
 */
export const contactSubmissionSchema = contactFieldsSchema.extend({
	idempotencyKey: z
		.string({ error: 'This form is out of date. Reload the page, then send your message again.' })
		.regex(
			/^[\w-]{16,100}$/,
			'This form is out of date. Reload the page, then send your message again.',
		),
	token: z.unknown().optional(),
	website: z.unknown().optional(),
})

export type ContactSubmission = z.infer<typeof contactSubmissionSchema>

/** The error of one field for the form's checks as it is left; undefined when it is fine. */
export function contactFieldError(field: ContactField, value: string): string | undefined {
	const parsed = contactFieldsSchema.shape[field].safeParse(value)
	return parsed.success ? undefined : parsed.error.issues[0]?.message
}
