// What the webhooks pages' forms post, checked before anything is stored. The URL's address is
// checked afterwards, on the server (webhook-address.server.ts), as it needs a DNS lookup.
import { z } from 'zod'
import { webhookEventTypes } from '#storage/port/webhooks.ts'

export const endpointFormSchema = z.object({
	url: z
		.string({ error: 'Enter the address that will receive the events.' })
		.trim()
		.min(1, 'Enter the address that will receive the events.')
		.max(2_000, 'Keep the address under 2,000 characters.'),
	description: z.string().trim().max(200, 'Keep the description under 200 characters.').default(''),
	events: z
		.array(z.enum(webhookEventTypes, { error: 'Choose events from the list.' }))
		.min(1, 'Choose at least one event.'),
	enabled: z.boolean(),
})

export type EndpointForm = z.infer<typeof endpointFormSchema>

/** The form as posted: several `events` boxes, and `enabled` present when ticked. */
export function endpointFormValues(form: FormData) {
	return {
		url: form.get('url'),
		description: form.get('description') ?? '',
		events: form.getAll('events'),
		enabled: form.has('enabled'),
	}
}

export const deliveryIdSchema = z.object({
	delivery: z.coerce
		.number({ error: 'Choose a delivery to send again.' })
		.int('Choose a delivery to send again.')
		.positive('Choose a delivery to send again.'),
})
