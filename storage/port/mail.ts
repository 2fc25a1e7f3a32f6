// The mail outbox: mail waits here until it is sent, however often the SMTP server fails.
export interface OutgoingMail {
	/** What the mail is for, e.g. contact-notification, invite, password-reset. */
	kind: string
	recipient: string
	subject: string
	textBody: string
	/** An HTML alternative to the text (the newsletter's confirmation); none for plain mail. */
	htmlBody?: string | null
	replyTo: string | null
}

export interface QueuedMail extends OutgoingMail {
	id: number
	attempts: number
	createdAt: string
	nextAttemptAt: string
	lastError: string | null
	sentAt: string | null
	/** When the outbox gave up on it after its last retry; it is not tried again. */
	abandonedAt: string | null
}

export interface OutboxRepository {
	enqueue(mails: OutgoingMail[]): Promise<void>
	/**
	 * Takes up to `limit` mails that are due and not leased, and leases them for `leaseMs` (their
	 * attempt count goes up by one). Workers on several instances never take the same mail at
	 * once; a worker that dies leaves its lease to run out, and the mail is taken again.
	 */
	claimDue(now: Date, leaseMs: number, limit: number): Promise<QueuedMail[]>
	markSent(id: number, now: Date): Promise<void>
	/** Records the failure and when to try again; the lease is released. */
	markFailed(id: number, error: string, nextAttemptAt: Date): Promise<void>
	/**
	 * Gives up on the mail after its last failure: it is kept, with the error, but never claimed
	 * again. The lease is released.
	 */
	abandon(id: number, error: string, now: Date): Promise<void>
	/** Everything still to be sent (neither sent nor given up on), oldest first (tests, operations). */
	pending(): Promise<QueuedMail[]>
	/** The mails given up on, oldest first (tests, operations). */
	abandoned(): Promise<QueuedMail[]>
}
