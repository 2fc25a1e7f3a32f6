// The mail outbox job: every second, and at once when woken after mail is queued, send what is
// due. Several instances may run it on one database: each mail is leased to one of them (see
// app/features/mail/outbox.server.ts for why delivery is still at least once).
import {
	type DeliveryOutcome,
	defaultRetry,
	deliverDueMail,
	type RetryPolicy,
} from '#app/features/mail/outbox.server.ts'
import { smtpSender } from '#app/features/mail/smtp.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { idleWorker, startBatchWorker } from './batch-worker.ts'

export interface MailOutbox {
	/** Sends due mail soon rather than at the next tick: call it after queueing mail. */
	wake(): void
	/** Runs one delivery step now (tests). */
	runOnce(): Promise<DeliveryOutcome>
	/** Stops the timer and waits for a step under way. */
	stop(): Promise<void>
}

export interface MailOutboxOptions {
	smtpUrl: string
	siteUrl: string
	intervalMs?: number
	leaseMs?: number
	batchSize?: number
	/** The longest one send may take; keep it well under the lease. */
	sendTimeoutMs?: number
	retry?: Partial<RetryPolicy>
	clock?: () => Date
	random?: () => number
}

const nothing: DeliveryOutcome = { claimed: 0, sent: 0, failed: 0, abandoned: 0 }

export function startMailOutbox(
	storage: Storage,
	logger: Logger,
	options: MailOutboxOptions,
): MailOutbox {
	if (!options.smtpUrl) {
		logger.info(
			'mail: SMTP_URL is not set, so no mail is sent; mail already queued waits until it is set',
		)
		return idleWorker(nothing)
	}
	const intervalMs = options.intervalMs ?? 1_000
	const batchSize = options.batchSize ?? 10
	const delivery = {
		clock: options.clock ?? (() => new Date()),
		leaseMs: options.leaseMs ?? 60_000,
		batchSize,
		retry: { ...defaultRetry, ...options.retry },
		random: options.random,
	}
	const sender = smtpSender(options.smtpUrl, options.siteUrl, {
		timeoutMs: options.sendTimeoutMs ?? 30_000,
	})

	return startBatchWorker({
		step: () => deliverDueMail(storage, sender, logger, delivery),
		nothing: () => nothing,
		failed: 'mail: could not read the outbox',
		batchSize,
		intervalMs,
		logger,
		release: () => sender.close(),
	})
}
