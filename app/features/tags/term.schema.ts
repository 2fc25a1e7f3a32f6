// A tag's and an author profile's edit forms, and merging, as staff send them.
import { z } from 'zod'
import { slugPattern } from '#app/features/articles/slug.ts'
import { isImageAddress } from '#app/lib/image-address.ts'

const slug = z
	.string()
	.trim()
	.normalize('NFC')
	.min(1, 'Give it an address.')
	.max(80, 'Keep the address under 80 characters.')
	.regex(slugPattern, 'Use lowercase letters, digits and single hyphens, e.g. climate-crisis.')

const optionalText = (max: number, message: string) =>
	z
		.string()
		.trim()
		.max(max, message)
		.transform((value) => value || null)

/** An image of this site (/media/…) or an https address. */
const imageAddress = z
	.string()
	.trim()
	.max(2000, 'Keep the address under 2,000 characters.')
	.refine(
		(value) => value === '' || isImageAddress(value),
		'Give an image of this site (/media/…) or a whole https:// address.',
	)
	.transform((value) => value || null)

export const tagEditSchema = z
	.object({
		intent: z.literal('save'),
		name: z
			.string()
			.trim()
			.min(1, 'Give the tag a name.')
			.max(40, 'Keep the name under 40 characters.'),
		slug,
		description: z.string().trim().max(500, 'Keep the description under 500 characters.'),
		coverImageUrl: imageAddress,
		coverImageAlt: optionalText(300, 'Keep the description under 300 characters.'),
	})
	.refine((tag) => !tag.coverImageUrl || tag.coverImageAlt, {
		path: ['coverImageAlt'],
		message: 'Describe the cover image for people who cannot see it.',
	})

export const authorEditSchema = z.object({
	intent: z.literal('save'),
	name: z
		.string()
		.trim()
		.min(1, 'Give the author a name.')
		.max(100, 'Keep the name under 100 characters.'),
	slug,
	bio: z.string().trim().max(1000, 'Keep the bio under 1,000 characters.'),
	avatarUrl: imageAddress,
	website: z
		.string()
		.trim()
		.max(2000, 'Keep the address under 2,000 characters.')
		.refine(
			(value) => value === '' || (URL.canParse(value) && /^https?:\/\//.test(value)),
			'Give a whole address, e.g. https://example.org.',
		)
		.transform((value) => value || null),
	/** The team account it belongs to ('' for none); admins only. */
	userId: z.string().trim().max(100).optional(),
})

export const mergeSchema = z.object({
	intent: z.literal('merge'),
	into: z.coerce
		.number({ error: 'Choose the one to merge into.' })
		.int()
		.positive('Choose the one to merge into.'),
})

export const deleteSchema = z.object({ intent: z.literal('delete') })
