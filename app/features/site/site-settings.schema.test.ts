import { describe, expect, it } from 'vitest'
import { fieldErrors } from '#app/lib/field-errors.ts'
import { siteLanguageSchema, siteSettingsSchema } from './site-settings.schema.ts'

const valid = {
	title: '  Rivers First ',
	tagline: 'Reporting on rivers.',
	logoUrl: '/media/abc.png',
	contactEmail: 'write@rivers.example',
	contactAddress: '1 Quay\nPort',
	contactIntro: 'Tell us about your river.',
}

function errorsFor(values: Partial<typeof valid>) {
	const result = siteSettingsSchema.safeParse({ ...valid, ...values })
	return result.success ? {} : fieldErrors(result.error)
}

describe('site settings schema', () => {
	it('accepts good values, trimmed', () => {
		expect(siteSettingsSchema.parse(valid)).toEqual({ ...valid, title: 'Rivers First' })
	})

	it('accepts an empty logo (the default) and https addresses', () => {
		expect(errorsFor({ logoUrl: '' })).toEqual({})
		expect(errorsFor({ logoUrl: 'https://cdn.example.org/logo.png' })).toEqual({})
	})

	it.each([
		'javascript:alert(1)',
		'data:image/svg+xml,<svg/>',
		'//evil.example/logo.png',
		'/\\evil.example',
		'http://example.org/logo.png',
		'logo.png',
		'/a b.png',
	])('refuses %s as a logo address', (logoUrl) => {
		expect(errorsFor({ logoUrl }).logoUrl?.[0]).toMatch(/starting with \//)
	})

	it('names each empty or over-long field', () => {
		const errors = errorsFor({ title: ' ', tagline: '', contactAddress: 'x'.repeat(501) })
		expect(errors.title).toEqual(["Enter the site's title."])
		expect(errors.tagline?.[0]).toMatch(/^Enter a tagline/)
		expect(errors.contactAddress).toEqual(['Keep the address to 500 characters or fewer.'])
		expect(errorsFor({ title: 'x'.repeat(81) }).title?.[0]).toMatch(/80 characters/)
	})

	it('takes the contact email trimmed, and refuses what is not one', () => {
		expect(siteSettingsSchema.parse({ ...valid, contactEmail: ' news@rivers.example ' })).toEqual(
			expect.objectContaining({ contactEmail: 'news@rivers.example' }),
		)
		expect(errorsFor({ contactEmail: '' }).contactEmail).toEqual([
			'Enter the email address readers can write to.',
		])
		for (const contactEmail of ['rivers', 'a@b', 'mailto:a@b.example', 'a b@rivers.example'])
			expect(errorsFor({ contactEmail }).contactEmail).toEqual([
				'Enter an email address like hello@your-group.org.',
			])
		expect(errorsFor({ contactEmail: `${'a'.repeat(250)}@b.example` }).contactEmail?.[0]).toBe(
			'Keep the email address to 254 characters or fewer.',
		)
	})

	it('allows an empty introduction, not a long one', () => {
		expect(errorsFor({ contactIntro: '  ' })).toEqual({})
		expect(siteSettingsSchema.parse({ ...valid, contactIntro: '  ' }).contactIntro).toBe('')
		expect(errorsFor({ contactIntro: 'x'.repeat(501) }).contactIntro).toEqual([
			'Keep the introduction to 500 characters or fewer.',
		])
	})

	it('names a time zone as it is named, however it was typed, and refuses an unknown one', () => {
		const zone = (timeZone: string) =>
			siteLanguageSchema.safeParse({ language: 'en', languages: [], timeZone })
		expect(zone(' europe/madrid ').data?.timeZone).toBe('Europe/Madrid')
		expect(zone('utc').data?.timeZone).toBe('UTC')
		expect(zone('Mars/Olympus').success).toBe(false)
	})
})
