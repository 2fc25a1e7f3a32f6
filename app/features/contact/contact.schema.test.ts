import { describe, expect, it } from 'vitest'
import {
	contactFieldError,
	contactFieldsSchema,
	contactSubmissionSchema,
} from './contact.schema.ts'

const valid = { name: 'Ana Costa', email: 'ana@example.org', message: 'The river needs help.' }

function errorsOf(input: unknown) {
	const parsed = contactFieldsSchema.safeParse(input)
	if (parsed.success) return {}
	return Object.fromEntries(
		parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
	)
}

describe('the contact schema', () => {
	it('takes a valid message, trimmed, with an empty subject when none is given', () => {
		expect(
			contactFieldsSchema.parse({ ...valid, name: '  Ana Costa ', email: ' ana@example.org\t' }),
		).toEqual({ ...valid, subject: '' })
	})

	it('asks for each required field, one message per field', () => {
		expect(errorsOf({ name: '', email: '', message: '' })).toEqual({
			name: 'Enter your name, so we know who is writing.',
			email: 'Enter your email address, so we can reply.',
			message: 'Write your message.',
		})
		expect(errorsOf({ name: '   ', email: '\n', message: ' \t ' })).toEqual({
			name: 'Enter your name, so we know who is writing.',
			email: 'Enter your email address, so we can reply.',
			message: 'Write your message.',
		})
	})

	it('refuses values that are not text, with the same words', () => {
		expect(
			errorsOf({ name: 7, email: ['a@b.org'], message: ['a list', 'of words'], subject: null }),
		).toEqual({
			name: 'Enter your name.',
			email: 'Enter your email address.',
			message: 'Write your message.',
			subject: 'The subject must be text.',
		})
	})

	it.each(['ana', 'ana@', '@example.org', 'ana@example', 'ana example@x.org', 'a@b@c.org'])(
		'refuses %s as an email address',
		(email) => {
			expect(errorsOf({ ...valid, email })).toEqual({
				email: 'Enter an email address like name@example.org, so we can reply.',
			})
		},
	)

	it('holds each length limit, counting what is left after trimming', () => {
		expect(errorsOf({ ...valid, name: 'n'.repeat(100) })).toEqual({})
		expect(errorsOf({ ...valid, name: 'n'.repeat(101) })).toEqual({
			name: 'Keep your name to 100 characters or fewer.',
		})
		expect(errorsOf({ ...valid, subject: 's'.repeat(150) })).toEqual({})
		expect(errorsOf({ ...valid, subject: 's'.repeat(151) })).toEqual({
			subject: 'Keep the subject to 150 characters or fewer.',
		})
		expect(errorsOf({ ...valid, message: ` ${'m'.repeat(10)} ` })).toEqual({})
		expect(errorsOf({ ...valid, message: ` ${'m'.repeat(9)} ` })).toEqual({
			message: 'Write at least 10 characters, so we understand what you need.',
		})
		expect(errorsOf({ ...valid, message: 'm'.repeat(5000) })).toEqual({})
		expect(errorsOf({ ...valid, message: 'm'.repeat(5001) })).toEqual({
			message: 'Keep your message to 5,000 characters or fewer.',
		})
		expect(errorsOf({ ...valid, email: `${'e'.repeat(250)}@x.org` })).toEqual({
			email: 'This email address is too long. Check it and try again.',
		})
	})

	it('strips control characters, keeping the message’s line breaks and tabs', () => {
		const parsed = contactFieldsSchema.parse({
			name: 'Ana\u0000 Costa\u001b',
			email: 'ana@example.org\u0007',
			subject: 'Hello\r\nBcc: everyone@example.org',
			message: 'Line one\r\nLine two\u0008\n\tindented\u007f\u0085 end',
		})
		expect(parsed).toEqual({
			name: 'Ana Costa',
			email: 'ana@example.org',
			subject: 'HelloBcc: everyone@example.org',
			message: 'Line one\nLine two\n\tindented end',
		})
	})

	it('does not count stripped characters towards the message’s minimum', () => {
		expect(errorsOf({ ...valid, message: `short\u0000\u0000\u0000\u0000\u0000` })).toEqual({
			message: 'Write at least 10 characters, so we understand what you need.',
		})
	})

	it('checks one field at a time for the form', () => {
		expect(contactFieldError('email', 'nope')).toBe(
			'Enter an email address like name@example.org, so we can reply.',
		)
		expect(contactFieldError('email', 'ana@example.org')).toBeUndefined()
		expect(contactFieldError('subject', '')).toBeUndefined()
	})

	it('needs the form’s idempotency key, but not a token or honeypot to say it is wrong', () => {
		const key = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'
		expect(contactSubmissionSchema.safeParse({ ...valid, idempotencyKey: key }).success).toBe(true)
		for (const idempotencyKey of [undefined, 'short', 'has spaces in it, too many', 42]) {
			const parsed = contactSubmissionSchema.safeParse({ ...valid, idempotencyKey })
			expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
				'This form is out of date. Reload the page, then send your message again.',
			])
		}
	})
})
