// Delivering the mail outbox: claim what is due, send it, record the outcome. Mail is written to
// the outbox in the same transaction as what it announces, so nothing waits on the mail server
// and a crash loses nothing.
//
// Delivery is at least once, not exactly once. A claimed mail is leased to one worker, so
// instances sharing a database do not send it twice while the lease holds. But a worker stopped
// between the server's acceptance and markSent (a crash, a deploy's SIGKILL), or a send that
// outruns its deadline and is accepted afterwards, leaves the mail to be taken again when the
// lease runs out: its recipient may then get it twice. For notifications and one-time links a
// rare duplicate is far better than a lost mail.
import type { Logger } from '#app/lib/logger.ts'
import type { QueuedMail } from '#storage/port/mail.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { MailSender } from './smtp.server.ts'

export interface RetryPolicy {
	baseMs: number
	factor: number
	maxMs: number
	/** Attempts in all; the mail is given up on when the last one fails. */
	maxAttempts: number
}

/**
 * 1 s, 2 s, 4 s … up to an hour between tries: a mail server that is down for a few hours (or an
 * SMTP_URL with a wrong password, fixed later that day) still gets the mail; 20 attempts take
 * about six hours.
 */
export const defaultRetry: RetryPolicy = {
	baseMs: 1_000,
	factor: 2,
	maxMs: 60 * 60 * 1_000,
	maxAttempts: 20,
}

/** How long to wait after the `attempts`-th failed try. */
export function retryDelayMs(
	attempts: number,
	policy: RetryPolicy = defaultRetry,
	random: () => number = Math.random,
): number {
	const full = Math.min(policy.maxMs, policy.baseMs * policy.factor ** Math.max(0, attempts - 1))
	// Half fixed, half random: mails that failed together spread out, and the wait still grows.
	return Math.round(full / 2 + (random() * full) / 2)
}

export interface DeliveryOptions {
	/** The time now (tests move it on instead of waiting). */
	clock: () => Date
	/** Longer than a send can take (the sender's deadline), or a slow send could go out twice. */
	leaseMs: number
	batchSize: number
	retry: RetryPolicy
	random?: () => number
}

export interface DeliveryOutcome {
	claimed: number
	sent: number
	failed: number
	abandoned: number
}

function describeError(error: unknown): string {
	if (!(error instanceof Error)) return String(error)
	// nodemailer puts the server's own reply (e.g. "451 4.3.0 Try again later") on `response`.
	const response = (error as { response?: unknown }).response
	return typeof response === 'string' && response ? response : error.message
}

/** Sends every due mail in one batch, at once, and records each outcome. */
export async function deliverDueMail(
	storage: Storage,
	sender: MailSender,
	logger: Logger,
	options: DeliveryOptions,
): Promise<DeliveryOutcome> {
	const { clock, retry } = options
	const due = await storage.outbox.claimDue(clock(), options.leaseMs, options.batchSize)
	const outcome: DeliveryOutcome = { claimed: due.length, sent: 0, failed: 0, abandoned: 0 }
	// Together rather than one by one: each mail must be done before its lease ends, and a batch
	// sent in turn against a hanging server would take ten deadlines.
	await Promise.all(
		due.map(async (mail: QueuedMail) => {
			try {
				await sender.send(mail)
			} catch (error) {
				const reason = describeError(error)
				const fields = { id: mail.id, kind: mail.kind, attempts: mail.attempts, error: reason }
				if (mail.attempts >= retry.maxAttempts) {
					await storage.outbox.abandon(mail.id, reason, clock())
					logger.error('mail: given up after the last retry; it will not be sent', fields)
					outcome.abandoned++
					return
				}
				const wait = retryDelayMs(mail.attempts, retry, options.random)
				await storage.outbox.markFailed(mail.id, reason, new Date(clock().getTime() + wait))
				logger.warn('mail: could not send; will retry', { ...fields, retryInMs: wait })
				outcome.failed++
				return
			}
			await storage.outbox.markSent(mail.id, clock())
			logger.info('mail: sent', { id: mail.id, kind: mail.kind, attempts: mail.attempts })
			outcome.sent++
		}),
	)
	return outcome
}
