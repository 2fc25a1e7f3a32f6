import { z } from 'zod'
import { interfaceLocales } from '#app/lib/i18n.ts'
import { isImageAddress } from '#app/lib/image-address.ts'

/** What an admin may change in /admin/settings. */
export const siteSettingsSchema = z.object({
	title: z
		.string()
		.trim()
		.min(1, "Enter the site's title.")
		.max(80, 'Keep the title to 80 characters or fewer: it has to fit in the header.'),
	tagline: z
		.string()
		.trim()
		.min(1, 'Enter a tagline: one sentence that says what the site is about.')
		.max(200, 'Keep the tagline to 200 characters or fewer.'),
	// Empty puts the default logo back.
	logoUrl: z
		.string()
		.trim()
		.max(2000, 'That address is too long. Upload the image here instead.')
		.refine((value) => value === '' || isImageAddress(value), {
			message:
				'Enter an address on this site starting with / (like one an upload gives) or one starting with https://.',
		}),
	// Shown on /contact, and where the contact form's messages are forwarded when mail is set up.
	contactEmail: z
		.string()
		.trim()
		.min(1, 'Enter the email address readers can write to.')
		.max(254, 'Keep the email address to 254 characters or fewer.')
		.pipe(z.email('Enter an email address like hello@your-group.org.')),
	contactAddress: z
		.string()
		.trim()
		.min(1, 'Enter the postal address shown on the contact page.')
		.max(500, 'Keep the address to 500 characters or fewer.'),
	// Empty: the contact page has no introduction.
	contactIntro: z.string().trim().max(500, 'Keep the introduction to 500 characters or fewer.'),
})

/** The site's languages and time zone (decision 033), from the settings form. */
export const siteLanguageSchema = z
	.object({
		language: z.enum(interfaceLocales, 'Choose the site’s language from the list.'),
		// One field per offered language, each "on" when ticked: the site's own always counts.
		languages: z.array(z.enum(interfaceLocales, 'Choose languages from the list.')).default([]),
		timeZone: z
			.string()
			.trim()
			.min(1, 'Choose the time zone dates and times are shown in.')
			.max(64, 'Choose the time zone dates and times are shown in.')
			.refine((zone) => {
				try {
					new Intl.DateTimeFormat('en', { timeZone: zone })
					return true
				} catch {
					return false
				}
			}, 'Choose a time zone from the list, like Europe/Madrid.'),
	})
	.transform(({ language, languages, timeZone }) => ({
		language,
		languages: [language, ...languages.filter((code) => code !== language)].join(','),
		// As the zone is named (Europe/Madrid), however it was typed (europe/madrid).
		timeZone: new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone,
	}))

export type SiteSettingsInput = z.infer<typeof siteSettingsSchema>
