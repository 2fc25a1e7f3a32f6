// What the webhooks pages do: endpoints made and changed with their address checked, a new
// signing secret, a test event. The pages themselves are app/routes/admin/webhooks.tsx and
// webhook.tsx.
import { randomBytes } from 'node:crypto'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { WebhookEndpoint } from '#storage/port/webhooks.ts'
import { checkWebhookUrl } from './webhook-address.server.ts'
import type { EndpointForm } from './webhook-admin.schema.ts'
import { allowsPrivateAddresses } from './webhook-settings.server.ts'

/** A Standard Webhooks secret: 'whsec_' and 24 random bytes in base64 (192 bits). */
export function newWebhookSecret(): string {
	return `whsec_${randomBytes(24).toString('base64')}`
}

export type EndpointSave =
	| { ok: true; endpoint: WebhookEndpoint }
	| { ok: false; errors: FieldErrors; missing?: boolean }

/** Stores a new endpoint, or changes endpoint `id`, once its address passes the checks. */
export async function saveWebhookEndpoint(
	storage: Storage,
	form: EndpointForm,
	id?: number,
): Promise<EndpointSave> {
	const checked = await checkWebhookUrl(form.url, {
		allowPrivate: await allowsPrivateAddresses(storage),
	})
	if (!checked.ok) return { ok: false, errors: { url: [checked.error] } }
	const input = { ...form, url: checked.url.href }
	const now = new Date()
	if (id === undefined)
		return {
			ok: true,
			endpoint: await storage.webhooks.createEndpoint(input, newWebhookSecret(), now),
		}
	const endpoint = await storage.webhooks.updateEndpoint(id, input, now)
	return endpoint ? { ok: true, endpoint } : { ok: false, errors: {}, missing: true }
}

/** Queues a `webhook.test` event for the endpoint, due now. */
export async function sendTestEvent(storage: Storage, endpoint: WebhookEndpoint) {
	return storage.webhooks.queueTest(
		endpoint.id,
		{
			message: 'A test event from Canopy: if it arrived, the endpoint works.',
			endpointId: endpoint.id,
		},
		new Date(),
	)
}
