// The contact form's rules, shared by the form (checked as each field is left), the page's action
// and the JSON API, so a visitor meets the same messages wherever they write from.
// zod/mini: the same rules in a fraction of the size, since this file is in the page's JavaScript.
import * as z from 'zod/mini'

// In the browser zod would probe for `new Function` to compile faster parsers; the page's CSP
// forbids eval, and the probe alone is reported as a violation.
if (typeof document !== 'undefined') z.config({ jitless: true })

/**
 * The fields' limits. Each message below says its number in words as written (not from these),
 * so it can be listed for translation word for word (app/lib/form-messages.ts).
 */
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

/**
 * Anything but a string (a number, a list) is refused with `message` alone (the pipe stops
 * there, so no length check runs on a list); a string is cleaned, then checked.
 */
const text = (
	message: string,
	clean: (value: string) => string,
	...checks: z.core.$ZodCheck<string>[]
) => z.pipe(z.string({ error: message }), z.string().check(z.overwrite(clean), ...checks))

const emailMessage = 'Enter an email address like name@example.org, so we can reply.'

export const contactFieldsSchema = z.object({
	name: text(
		'Enter your name.',
		oneLine,
		z.minLength(1, { error: 'Enter your name, so we know who is writing.', abort: true }),
		z.maxLength(contactLimits.name, 'Keep your name to 100 characters or fewer.'),
	),
	email: text(
		'Enter your email address.',
		oneLine,
		z.minLength(1, { error: 'Enter your email address, so we can reply.', abort: true }),
		z.maxLength(contactLimits.email, {
			error: 'This email address is too long. Check it and try again.',
			abort: true,
		}),
		z.regex(z.regexes.email, emailMessage),
	),
	subject: z.pipe(
		z.optional(
			text(
				'The subject must be text.',
				oneLine,
				z.maxLength(contactLimits.subject, 'Keep the subject to 150 characters or fewer.'),
			),
		),
		z.transform((value: string | undefined) => value ?? ''),
	),
	message: text(
		'Write your message.',
		multiLine,
		z.minLength(1, { error: 'Write your message.', abort: true }),
		z.minLength(
			contactLimits.messageMin,
			'Write at least 10 characters, so we understand what you need.',
		),
		z.maxLength(contactLimits.messageMax, 'Keep your message to 5,000 characters or fewer.'),
	),
})

export type ContactFields = z.infer<typeof contactFieldsSchema>
export type ContactField = keyof ContactFields
export const contactFields = Object.keys(contactFieldsSchema.shape) as ContactField[]

const outOfDate = 'This form is out of date. Reload the page, then send your message again.'

/**
 * One submission: the fields, plus what the form carries besides them. The honeypot and the token
 * are read leniently on purpose: a wrong one is answered as if accepted, never with an error that
 * would teach a robot what to fix.
 */
export const contactSubmissionSchema = z.extend(contactFieldsSchema, {
	idempotencyKey: z.string({ error: outOfDate }).check(z.regex(/^[\w-]{16,100}$/, outOfDate)),
	token: z.optional(z.unknown()),
	website: z.optional(z.unknown()),
})

export type ContactSubmission = z.infer<typeof contactSubmissionSchema>

/** The error of one field for the form's checks as it is left; undefined when it is fine. */
export function contactFieldError(field: ContactField, value: string): string | undefined {
	const parsed = contactFieldsSchema.shape[field].safeParse(value)
	return parsed.success ? undefined : parsed.error.issues[0]?.message
}
