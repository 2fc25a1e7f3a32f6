// Webhooks: the endpoints admins register and the deliveries of events to them. A delivery is
// written in the transaction of its event (an article's save, a contact message, a confirmed
// subscriber), one per endpoint that wants the event, and sent by a leased worker
// (docs/decisions/037-webhooks.md).

/** The events an endpoint can receive; `webhook.test` is sent only by an admin's test button. */
export const webhookEventTypes = [
	'article.published',
	'article.updated',
	'article.unpublished',
	'article.deleted',
	'page.published',
	'page.updated',
	'page.unpublished',
	'page.deleted',
	'contact.received',
	'subscriber.added',
] as const

export type WebhookEventType = (typeof webhookEventTypes)[number]

export interface WebhookEndpoint {
	id: number
	url: string
	description: string
	/** The Standard Webhooks signing secret: 'whsec_' and 24 random bytes in base64. */
	secret: string
	/**
	 * The secret before the last one made: events are signed with both until
	 * previousSecretUntil, so the receiver can change over without refusing one. Null when
	 * there is none, or its time is over.
	 */
	previousSecret: string | null
	previousSecretUntil: string | null
	events: WebhookEventType[]
	enabled: boolean
	/** Why Canopy turned it off itself (the receiver answered 410 Gone); null otherwise. */
	disabledReason: string | null
	createdAt: string
	updatedAt: string
}

export interface WebhookEndpointInput {
	url: string
	description: string
	events: WebhookEventType[]
	enabled: boolean
}

/** The endpoint with its deliveries' figures, for the list. */
export interface WebhookEndpointSummary extends WebhookEndpoint {
	pending: number
	failed: number
	/** The last finished delivery, if any. */
	lastDelivery: { state: WebhookDeliveryState; status: number | null; at: string } | null
}

/**
 * pending: to send, or to retry at nextAttemptAt; delivered: the receiver answered 2xx; failed:
 * out of time (24 hours of retries), or the receiver answered 410 Gone.
 */
export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed'

export interface WebhookDelivery {
	id: number
	endpointId: number
	/** The webhook-id header: one per event, the same on every attempt. */
	messageId: string
	eventType: WebhookEventType | 'webhook.test'
	/** The event's data as it was when it happened, JSON. */
	payload: string
	state: WebhookDeliveryState
	attempts: number
	createdAt: string
	nextAttemptAt: string
	lastStatus: number | null
	lastError: string | null
	/** How long the last attempt took, in milliseconds. */
	lastDurationMs: number | null
	finishedAt: string | null
	/** When an admin sent it again after it failed: its day of retries counts from then. */
	resentAt: string | null
}

/** A delivery leased to one worker, with the endpoint it goes to. */
export interface ClaimedWebhookDelivery extends WebhookDelivery {
	/** `secrets`: what to sign with now, the newest first (the previous one while it overlaps). */
	endpoint: Pick<WebhookEndpoint, 'id' | 'url'> & { secrets: string[] }
}

/** What one attempt found: the receiver's status (null when it never answered) and how long. */
export interface WebhookAttempt {
	status: number | null
	error: string | null
	durationMs: number
}

export interface WebhookRepository {
	listEndpoints(): Promise<WebhookEndpointSummary[]>
	findEndpoint(id: number): Promise<WebhookEndpoint | undefined>
	createEndpoint(input: WebhookEndpointInput, secret: string, now: Date): Promise<WebhookEndpoint>
	/** Replaces what the form edits; turning it on clears disabledReason. Undefined: no such endpoint. */
	updateEndpoint(
		id: number,
		input: WebhookEndpointInput,
		now: Date,
	): Promise<WebhookEndpoint | undefined>
	/**
	 * A new secret in place of the current one, which keeps signing beside it until
	 * `previousUntil` (now: at once no more). Undefined: no such endpoint.
	 */
	rotateSecret(
		id: number,
		secret: string,
		now: Date,
		previousUntil: Date,
	): Promise<WebhookEndpoint | undefined>
	/** The previous secret signs no more (it may have leaked). Undefined: no such endpoint. */
	retirePreviousSecret(id: number, now: Date): Promise<WebhookEndpoint | undefined>
	/** Deletes it with its deliveries. False when there was none. */
	deleteEndpoint(id: number): Promise<boolean>
	/** Queues a `webhook.test` delivery for this endpoint alone, due now. */
	queueTest(endpointId: number, data: object, now: Date): Promise<WebhookDelivery | undefined>
	/** The endpoint's deliveries, newest first: `before` an id, for the next page. */
	deliveries(
		endpointId: number,
		options: { limit: number; before?: number },
	): Promise<WebhookDelivery[]>
	/**
	 * A failed delivery queued again as it was (same webhook-id, same event time), due now, with
	 * a day of retries from now. False: not failed.
	 */
	resend(endpointId: number, deliveryId: number, now: Date): Promise<boolean>
	/**
	 * Takes up to `limit` pending deliveries that are due, not leased, and whose endpoint is on,
	 * oldest first, and leases them for `leaseMs` (attempts go up by one). Workers on several
	 * instances never take the same delivery at once (FOR UPDATE SKIP LOCKED on PostgreSQL); one
	 * that dies leaves its lease to run out, and the delivery is taken again.
	 */
	claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedWebhookDelivery[]>
	/** The receiver took it (2xx). Releases the lease. */
	markDelivered(id: number, attempt: WebhookAttempt, now: Date): Promise<void>
	/** Leaves it pending, to be taken again at `nextAttemptAt`. Releases the lease. */
	retryLater(id: number, attempt: WebhookAttempt, nextAttemptAt: Date): Promise<void>
	/** Given up on: never taken again. Releases the lease. */
	markFailed(id: number, attempt: WebhookAttempt, now: Date): Promise<void>
	/**
	 * The receiver answered 410 Gone: the endpoint is turned off, with the reason. As when an
	 * admin turns one off (updateEndpoint), what it had waiting fails: events are news for a day,
	 * and an endpoint turned on weeks later gets only what happens from then.
	 */
	disableEndpoint(id: number, reason: string, now: Date): Promise<void>
	/** Deletes the deliveries that finished before `before`; returns how many. */
	deleteFinished(before: Date): Promise<number>
	/** Erases previous secrets whose overlap was over at `now` (they no longer sign); how many. */
	eraseExpiredSecrets(now: Date): Promise<number>
}
