// The email newsletter: subscribers (double opt-in), the tags they follow, weekly digests, and
// one delivery per mail per subscriber (docs/decisions/032-newsletter.md).

/**
 * pending: asked, not confirmed (nothing is sent; deleted after a few days); confirmed;
 * unsubscribed; suspended: the mail server refused the address for good too often.
 */
export type SubscriberStatus = 'pending' | 'confirmed' | 'unsubscribed' | 'suspended'
/** each: every new article; digest: the weekly digest. */
export type Cadence = 'each' | 'digest'
export type SubscriberSource = 'form' | 'import' | 'staff'

export interface Subscriber {
	id: number
	/** Lower-cased. */
	email: string
	status: SubscriberStatus
	cadence: Cadence
	source: SubscriberSource
	/** When consent was given: the confirmation, or the statement made with an import. */
	consentAt: string | null
	createdAt: string
	/** When the status last changed. */
	changedAt: string
	/** Permanent refusals since the last mail that went through. */
	failures: number
	/** The ids of the tags followed; empty: every article. */
	tagIds: number[]
}

/**
 * pending: to send (again at nextAttemptAt); sent; refused: a permanent (5xx) refusal; suspended:
 * the refusal that suspended the address; failed: out of retries; cancelled: the reader left, or
 * the article stopped being public, before it went.
 */
export type MailDeliveryState =
	| 'pending'
	| 'sent'
	| 'refused'
	| 'suspended'
	| 'failed'
	| 'cancelled'

export type MailDeliveryCounts = Record<MailDeliveryState, number>

export interface Digest {
	id: number
	/** The digest's hour in the site's time zone, e.g. 2026-11-30T09: one digest per slot. */
	slot: string
	periodStart: string
	periodEnd: string
	/** Newest first. */
	articleIds: number[]
	createdAt: string
}

/** A delivery leased to one worker: who it goes to, and which mail. */
export interface ClaimedMailDelivery {
	id: number
	/** This attempt included. */
	attempts: number
	createdAt: string
	subscriber: Pick<Subscriber, 'id' | 'email' | 'tagIds' | 'failures'>
	mail: { kind: 'article'; articleId: number } | { kind: 'digest'; digest: Digest }
}

/** One mail's figures: an article's, or a digest's. */
export interface MailFigures {
	kind: 'article' | 'digest'
	articleId: number | null
	digestId: number | null
	/** The article's title, or the digest's period. */
	title: string
	createdAt: string
	counts: MailDeliveryCounts
}

export interface SubscriberQuery {
	/** Part of the address. */
	search?: string
	status?: SubscriberStatus
	limit: number
	offset: number
}

export interface ImportedSubscriber {
	email: string
	/** The admin vouches that the address confirmed elsewhere: no confirmation mail. */
	confirmed: boolean
}

export interface NewsletterRepository {
	/**
	 * The address as pending (new), or as it is. An unsubscribed or suspended address asking again
	 * becomes pending again: it must confirm before anything is sent. `created` says whether the
	 * row is new; concurrent asks of one address make one row.
	 */
	subscribe(
		email: string,
		source: SubscriberSource,
		now: Date,
	): Promise<{ subscriber: Subscriber; created: boolean }>
	find(id: number): Promise<Subscriber | undefined>
	findByEmail(email: string): Promise<Subscriber | undefined>
	/** pending → confirmed (consent recorded now); a confirmed one is left as it is. */
	confirm(id: number, now: Date): Promise<Subscriber | undefined>
	/** What the reader receives: every article or the digest, and the tags followed (unknown ids are left out). */
	setPreferences(
		id: number,
		preferences: { cadence: Cadence; tagIds: number[] },
		now: Date,
	): Promise<Subscriber | undefined>
	/** Unsubscribes at once: its pending deliveries are cancelled in the same transaction. */
	unsubscribe(id: number, now: Date): Promise<Subscriber | undefined>
	/**
	 * Deletes the subscriber and every trace of the address: its deliveries stay only as anonymous
	 * counts in their mails' figures (pending ones cancelled). False when there was none.
	 */
	remove(id: number, now: Date): Promise<boolean>
	list(query: SubscriberQuery): Promise<{ subscribers: Subscriber[]; total: number }>
	/** Every subscriber, oldest first (the CSV export). */
	all(): Promise<Subscriber[]>
	countsByStatus(): Promise<Record<SubscriberStatus, number>>
	/**
	 * Adds the addresses not known yet (pending, or confirmed with `consentAt` as their consent
	 * when the admin said so); known ones are left as they are. Returns the new pending ones, to
	 * be sent their confirmation, and how many were already there.
	 */
	importMany(
		rows: ImportedSubscriber[],
		consentAt: Date,
		now: Date,
	): Promise<{ added: number; existing: number; toConfirm: Subscriber[] }>
	/** Deletes addresses still unconfirmed since before `before`; returns how many. */
	deleteUnconfirmed(before: Date): Promise<number>

	/**
	 * Makes the digest of `slot` unless it exists: the articles published in the period, and its
	 * mail to send (its deliveries, one per confirmed digest reader who follows no tag or one of
	 * theirs, are written after: writeDeliveries), in one transaction. `queued` is how many readers
	 * it is for now. Undefined when the slot's digest exists already (another instance made it) or
	 * there is nothing to send.
	 */
	createDigest(
		slot: string,
		period: { start: Date; end: Date },
		now: Date,
	): Promise<{ digest: Digest; queued: number } | undefined>
	findDigest(id: number): Promise<Digest | undefined>
	/** The newest digest's, for its period's start; undefined before the first. */
	latestDigest(): Promise<Digest | undefined>

	/**
	 * Writes the deliveries of mails sent (a publish or a digest writes one row; its deliveries
	 * are written after, in batches through the subscribers), going through about `limit`
	 * subscribers; returns how many deliveries it wrote. claimDue does this first itself.
	 */
	writeDeliveries(limit: number): Promise<number>
	/**
	 * Takes up to `limit` due pending deliveries to confirmed subscribers, oldest first, leased
	 * for `leaseMs` (attempts go up by one); instances never take the same one at once. Pending
	 * deliveries of an address that is no longer confirmed are cancelled instead.
	 */
	claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedMailDelivery[]>
	/**
	 * Sent. `hadFailures` (the claimed subscriber's failures were above zero): its refusal count
	 * goes back to zero, in the same call.
	 */
	markSent(id: number, now: Date, hadFailures?: boolean): Promise<void>
	/** Left pending, to be claimed again at `nextAttemptAt` (4xx, a timeout, a lost connection). */
	retryLater(id: number, error: string, nextAttemptAt: Date): Promise<void>
	/** Out of retries: never claimed again. */
	markFailed(id: number, error: string, now: Date): Promise<void>
	/**
	 * A permanent refusal (5xx): the address's refusal count goes up; at `suspendAfter` it is
	 * suspended and its other pending deliveries cancelled, in the same transaction. Returns
	 * whether it was suspended.
	 */
	markRefused(id: number, error: string, now: Date, suspendAfter: number): Promise<boolean>
	/** Every article's and digest's figures, newest first. */
	figures(limit: number): Promise<MailFigures[]>
	/** An article's figures (zeros when it mailed no one). */
	figuresOfArticle(articleId: number): Promise<MailDeliveryCounts>
}
