// An admin's redirect, as the form sends it.
import { z } from 'zod'
import { readablePath } from './addresses.ts'

const ownPath = /^\/(?!\/)\S*$/

const path = z
	.string()
	.trim()
	.max(500, 'Keep the address under 500 characters.')
	.regex(ownPath, 'Start with / and leave out spaces, e.g. /old-blog/2019/heron-count.')
	// Kept as readers see it (/articles/森林), whether typed so or percent-encoded.
	.transform((value) => readablePath(value.length > 1 ? value.replace(/\/+$/, '') : value))

export const redirectFormSchema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('add'),
		from: path.refine((value) => value !== '/', 'The home address cannot be redirected.'),
		to: z
			.string()
			.trim()
			.max(2000, 'Keep the address under 2,000 characters.')
			.superRefine((value, context) => {
				if (ownPath.test(value) || (URL.canParse(value) && value.startsWith('https://'))) return
				context.addIssue({
					code: 'custom',
					message: value.startsWith('http://')
						? 'Only https:// addresses elsewhere.'
						: 'Give an address of this site starting with /, or a whole https:// address.',
				})
			})
			.transform((value) =>
				ownPath.test(value) && value.length > 1 ? value.replace(/\/+$/, '') : value,
			),
		status: z.enum(['301', '302'], {
			error: 'Choose permanent (301) or temporary (302).',
		}),
	}),
	z.object({ intent: z.literal('delete'), from: z.string().min(1).max(500) }),
])
