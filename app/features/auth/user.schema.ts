import { z } from 'zod'

export const roles = ['admin', 'editor'] as const
export type Role = (typeof roles)[number]

/** A new account, as the setup page, a team invite or the CLI gives it. */
export const newUserSchema = z.object({
	email: z
		.string()
		.trim()
		.toLowerCase()
		.pipe(z.email({ error: 'Enter an email address like name@example.org.' })),
	name: z.string().trim().min(1, 'Enter a name.').max(100, 'Keep the name under 100 characters.'),
	role: z.enum(roles, { error: 'The role must be admin or editor.' }),
	password: z.string(),
})
