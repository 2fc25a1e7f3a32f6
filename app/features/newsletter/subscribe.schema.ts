import { z } from 'zod'

/** The subscribe form: an address, and the honeypot robots fill in. */
export const subscribeSchema = z.object({
	email: z
		.string()
		.trim()
		.min(1, 'Enter your email address.')
		.max(254, 'That address is too long to be an email address.')
		.pipe(z.email('Enter an email address like name@example.org.')),
	// Hidden from people; a robot filling every field fills this one too.
	website: z.string().max(500).optional(),
})

export type SubscribeInput = z.infer<typeof subscribeSchema>
