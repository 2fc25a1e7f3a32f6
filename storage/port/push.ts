// Push subscriptions and the deliveries of new articles' notices.
export interface PushSubscriptionRecord {
	id: number
	/** The push service's URL for this browser: a secret, as anyone who has it can push to it. */
	endpoint: string
	/** The browser's P-256 public key (65 bytes, uncompressed), base64url. */
	p256dh: string
	/** The browser's 16-byte authentication secret, base64url. */
	auth: string
	/** When the push service will stop taking messages for it; null: no known end. */
	expirationTime: string | null
	createdAt: string
	/** When the browser last sent it (it re-sends every 7 days and when it changes). */
	refreshedAt: string
}

export type NewPushSubscription = Pick<
	PushSubscriptionRecord,
	'endpoint' | 'p256dh' | 'auth' | 'expirationTime'
>

/**
 * pending: to send (again at nextAttemptAt); sent: the push service took it (2xx); gone: the
 * subscription no longer exists (404/410); failed: refused for good (400/401/403/413, or out of
 * retries); cancelled: the article stopped being public, or the subscription went, first.
 */
export type PushDeliveryState = 'pending' | 'sent' | 'gone' | 'failed' | 'cancelled'

export interface PushDelivery {
	id: number
	articleId: number
	/** null once the subscription is deleted: the row stays for the article's results. */
	subscriptionId: number | null
	state: PushDeliveryState
	/** Claims so far: each claim counts one attempt. */
	attempts: number
	createdAt: string
	nextAttemptAt: string
	/** The push service's last HTTP status; null when it never answered (a timeout, a refused connection). */
	lastStatus: number | null
	lastError: string | null
	/** When it left pending. */
	finishedAt: string | null
}

/** A delivery leased to one worker, with what it needs to encrypt and send the payload. */
export interface ClaimedPushDelivery {
	id: number
	/** This attempt included. */
	attempts: number
	createdAt: string
	subscription: Pick<PushSubscriptionRecord, 'id' | 'endpoint' | 'p256dh' | 'auth'>
	article: {
		id: number
		slug: string
		title: string
		summary: string
		coverImageUrl: string | null
		coverImageAlt: string | null
	}
}

export type PushDeliveryCounts = Record<PushDeliveryState, number>

export interface PushRepository {
	/**
	 * Stores the subscription, or refreshes the one with the same endpoint (keys, expiration and
	 * refreshedAt replaced). `created` says which; concurrent saves of one endpoint store one row.
	 */
	saveSubscription(
		subscription: NewPushSubscription,
		now: Date,
	): Promise<{ subscription: PushSubscriptionRecord; created: boolean }>
	findSubscription(endpoint: string): Promise<PushSubscriptionRecord | undefined>
	/**
	 * Deletes the subscription and cancels its pending deliveries, in one transaction; its
	 * finished deliveries stay. False when there was none.
	 */
	deleteSubscription(endpoint: string, now: Date): Promise<boolean>
	/** Subscriptions that can still be sent to (not past their expiration time). */
	subscriberCount(now?: Date): Promise<number>
	/**
	 * Takes up to `limit` pending deliveries that are due and not leased, oldest first, and
	 * leases them for `leaseMs` (attempts go up by one). Workers on several instances never take
	 * the same delivery at once (FOR UPDATE SKIP LOCKED on PostgreSQL); a worker that dies leaves
	 * its lease to run out, and the delivery is taken again. Deliveries are written by the
	 * article repository, in the transaction that makes an article public for the first time
	 * (one per subscription, not for an article saved with notify false), and cancelled in the
	 * one that makes it stop being public; deleting an article deletes its deliveries.
	 */
	claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedPushDelivery[]>
	/**
	 * What the push service answered to a claimed delivery; each releases the lease. markSent,
	 * markFailed and markGone also record over a delivery cancelled while it was being sent (it
	 * went out all the same); none changes a delivery that has a result already.
	 */
	markSent(id: number, status: number, now: Date): Promise<void>
	/**
	 * Leaves it pending, to be claimed again at `nextAttemptAt` (429, 5xx, a timeout). A
	 * delivery cancelled meanwhile stays cancelled.
	 */
	retryLater(id: number, status: number | null, error: string, nextAttemptAt: Date): Promise<void>
	/** Refused for good (400, 401, 403, 413, or out of retries): never claimed again. */
	markFailed(id: number, status: number | null, error: string, now: Date): Promise<void>
	/**
	 * The subscription is gone (404, 410): deletes it and cancels its other pending deliveries,
	 * in one transaction. This row is kept, as `gone`, for the article's results.
	 */
	markGone(id: number, status: number, now: Date): Promise<void>
	/**
	 * Deletes, with their pending deliveries cancelled as deleteSubscription does, the
	 * subscriptions past their expiration time at `now` and those the browser has not sent again
	 * since `staleBefore`. Returns how many went.
	 */
	deleteDeadSubscriptions(now: Date, staleBefore: Date): Promise<number>
	/**
	 * Deletes the deliveries that left pending before `finishedBefore`, adding them to their
	 * article's totals in the same transaction, so resultsByArticle counts the same after.
	 * Running it twice, or on two instances at once, counts each delivery once. Returns how many
	 * rows were retired.
	 */
	retireDeliveries(finishedBefore: Date): Promise<number>
	/**
	 * Deliveries of each article by state, retired ones included; every asked id is in the map,
	 * zeros included.
	 */
	resultsByArticle(articleIds: number[]): Promise<Map<number, PushDeliveryCounts>>
	/** An article's deliveries not yet retired, oldest first (tests, operations). */
	deliveriesOf(articleId: number): Promise<PushDelivery[]>
}
