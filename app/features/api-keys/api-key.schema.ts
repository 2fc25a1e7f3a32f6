import { z } from 'zod'

/** What the API keys page can be asked to do: make a key, or revoke one. */
export const apiKeyFormSchema = z.discriminatedUnion(
	'intent',
	[
		z.object({
			intent: z.literal('create'),
			name: z
				.string({ error: 'Name the key after the script or service that will use it.' })
				.trim()
				.min(1, 'Name the key after the script or service that will use it.')
				.max(80, 'Keep the name under 80 characters.'),
		}),
		z.object({
			intent: z.literal('revoke'),
			id: z.coerce
				.number({ error: 'Choose a key to revoke.' })
				.int('Choose a key to revoke.')
				.positive('Choose a key to revoke.'),
		}),
	],
	{ error: 'Choose to create a key or revoke one.' },
)

export type ApiKeyForm = z.infer<typeof apiKeyFormSchema>
