import { z } from 'zod'

/** A delete button's subscriber: an id that could be one. */
export const deleteSubscriberSchema = z.object({
	id: z.coerce
		.number()
		.int()
		.positive()
		.max(2 ** 31),
})

/** The import form's boxes; the file is checked apart, as zod does not read files. */
export const importSubscribersSchema = z.object({
	consent: z.literal('on', {
		error: 'Tick this box: only import people who agreed to receive this newsletter.',
	}),
	confirmed: z.literal('on').optional().catch(undefined),
})
