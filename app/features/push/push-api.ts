// The calls a page and the service worker make to Canopy about push: the public key to
// subscribe with, and a subscription sent or withdrawn (server/app.ts answers them). Both run in
// the browser, in a window or in the service worker, so this uses fetch and nothing else.

export const pushKeyPath = '/api/push/key'
export const pushSubscriptionsPath = '/api/push/subscriptions'

/** A refusal or failure from Canopy, with the sentence to show the reader. */
export class PushApiError extends Error {
	override name = 'PushApiError'
	readonly status: number
	constructor(message: string, status: number) {
		super(message)
		this.status = status
	}
}

async function refusal(response: Response, fallback: string): Promise<PushApiError> {
	let message = fallback
	try {
		const body = (await response.json()) as { error?: unknown }
		if (typeof body.error === 'string') message = body.error
	} catch {}
	return new PushApiError(message, response.status)
}

/** The site's VAPID public key, as the bytes PushManager.subscribe takes. */
export async function fetchPublicKey(): Promise<Uint8Array<ArrayBuffer>> {
	const response = await fetch(pushKeyPath)
	if (!response.ok) throw await refusal(response, 'The site’s push key could not be read.')
	const { publicKey } = (await response.json()) as { publicKey: string }
	return Uint8Array.from(atob(publicKey.replace(/-/g, '+').replace(/_/g, '/')), (char) =>
		char.charCodeAt(0),
	)
}

const jsonRequest = (method: string, body: unknown): RequestInit => ({
	method,
	headers: { 'Content-Type': 'application/json' },
	body: JSON.stringify(body),
})

/** Stores the subscription, or refreshes it when Canopy knows its endpoint already. */
export async function sendSubscription(subscription: PushSubscription): Promise<void> {
	const response = await fetch(pushSubscriptionsPath, jsonRequest('POST', subscription.toJSON()))
	if (!response.ok) throw await refusal(response, 'The subscription could not be saved.')
}

/** Withdraws a subscription: Canopy sends it nothing more. */
export async function withdrawSubscription(endpoint: string): Promise<void> {
	const response = await fetch(pushSubscriptionsPath, jsonRequest('DELETE', { endpoint }))
	if (!response.ok) throw await refusal(response, 'The subscription could not be removed.')
}
