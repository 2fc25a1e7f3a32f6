// Taking a message from the contact form or the API: checked, rate-limited, screened for robots,
// and stored with its notification mail in one transaction before anyone is told it arrived.
import { randomInt } from 'node:crypto'
import { visitorHash } from '#app/features/privacy/visitor-hash.server.ts'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import type { AppServices } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { OutgoingMail } from '#storage/port/mail.ts'
import { storageOutage } from '#storage/port/unavailable.ts'
import { type ContactSubmission, contactSubmissionSchema } from './contact.schema.ts'
import { checkFormToken, contactSecret } from './form-token.server.ts'

export const rateLimit = { max: 5, windowMs: 10 * 60 * 1000 } as const

export type SubmitResult =
	| { outcome: 'invalid'; errors: FieldErrors }
	| { outcome: 'limited'; retryAfterSeconds: number; error: string }
	/** `created` is false for a key seen before: the first submission's message is answered. */
	| {
			outcome: 'accepted'
			id: number
			receivedAt: string
			created: boolean
			/** As stored (trimmed, control characters gone), for the confirmation. */
			name: string
			email: string
	  }

type Services = Pick<
	AppServices,
	'storage' | 'logger' | 'siteUrl' | 'smtpUrl' | 'wakeMailOutbox' | 'contactMinimumFillMs'
>

function waitText(seconds: number): string {
	const minutes = Math.ceil(seconds / 60)
	return minutes <= 1 ? 'a minute' : `${minutes} minutes`
}

export function notificationMail(
	message: Pick<ContactSubmission, 'name' | 'email' | 'subject' | 'message'>,
	recipient: string,
	siteUrl: string,
): OutgoingMail {
	return {
		kind: 'contact-notification',
		recipient,
		subject: message.subject
			? `New message from ${message.name}: ${message.subject}`
			: `New message from ${message.name}`,
		textBody: [
			`${message.name} <${message.email}> wrote through the contact form:`,
			'',
			...(message.subject ? [`Subject: ${message.subject}`, ''] : []),
			message.message,
			'',
			'--',
			'Reply to this mail to answer them directly.',
			`All messages: ${new URL('/admin/messages', siteUrl)}`,
		].join('\n'),
		replyTo: message.email,
	}
}

/**
 * Why a submission is taken for a robot's, or undefined for a person's. Such a submission is
 * answered as if accepted and not stored, so the robot learns nothing.
 */
async function robotReason(
	services: Services,
	submission: ContactSubmission,
	now: Date,
): Promise<string | undefined> {
	if (submission.website !== undefined && submission.website !== '') return 'honeypot'
	const secret = await contactSecret(services.storage)
	const token = checkFormToken(
		secret,
		submission.token,
		submission.idempotencyKey,
		now.getTime(),
		services.contactMinimumFillMs,
	)
	return token === 'valid' ? undefined : `token ${token}`
}

/** A plausible answer for a submission that is dropped: nothing says it was. */
function pretendAccepted(submission: ContactSubmission, now: Date): SubmitResult {
	return {
		outcome: 'accepted',
		id: randomInt(1, 2 ** 31),
		receivedAt: now.toISOString(),
		created: true,
		name: submission.name,
		email: submission.email,
	}
}

export async function submitContactMessage(
	services: Services,
	clientIp: string,
	input: unknown,
	now = new Date(),
): Promise<SubmitResult> {
	const parsed = contactSubmissionSchema.safeParse(input)
	if (!parsed.success) return { outcome: 'invalid', errors: fieldErrors(parsed.error) }
	const submission = parsed.data
	const { storage, logger } = services

	// The address itself is never stored: the limit is kept under a hash salted for the day.
	const visitor = await visitorHash(storage, ['contact', clientIp], now)
	const hit = await storage.rateLimits.hit(
		`contact:${visitor}`,
		rateLimit.max,
		rateLimit.windowMs,
		now.getTime(),
	)
	if (!hit.allowed) {
		const retryAfterSeconds = Math.max(1, Math.ceil((hit.resetAt - now.getTime()) / 1000))
		return {
			outcome: 'limited',
			retryAfterSeconds,
			error: `You have sent several messages in a short time. Please wait ${waitText(retryAfterSeconds)}, then send yours again: what you wrote is still here.`,
		}
	}

	const reason = await robotReason(services, submission, now)
	if (reason) {
		logger.info('contact: submission dropped', { reason })
		return pretendAccepted(submission, now)
	}

	// Queued only when mail can go: otherwise notifications would pile up and all leave at once
	// the day SMTP_URL is set.
	const mails = services.smtpUrl
		? [
				notificationMail(
					submission,
					(await getSiteSettings(storage)).contactEmail,
					services.siteUrl,
				),
			]
		: []
	const { message, created } = await storage.messages.create(
		{
			idempotencyKey: submission.idempotencyKey,
			name: submission.name,
			email: submission.email,
			subject: submission.subject,
			message: submission.message,
		},
		mails,
	)
	if (created) {
		logger.info('contact: message stored', { id: message.id })
		// The notification is committed with the message; this only sends it now, not at the next tick.
		if (mails.length > 0) services.wakeMailOutbox()
	}
	return {
		outcome: 'accepted',
		id: message.id,
		receivedAt: message.createdAt,
		created,
		name: message.name,
		email: message.email,
	}
}

/** Where to write instead while an editor has closed the contact form (remote configuration). */
export async function contactFormClosed(
	services: Pick<AppServices, 'storage' | 'remoteConfig'>,
	request: Request,
): Promise<{ contactEmail: string } | undefined> {
	const { contact_form_enabled: open } = await services.remoteConfig.valuesFor(request)
	if (open) return undefined
	const { contactEmail } = await getSiteSettings(services.storage)
	return { contactEmail }
}

export type ReceiveResult =
	| SubmitResult
	/** Closed by an editor: nothing was stored. */
	| { outcome: 'closed'; contactEmail: string }
	/** The database is away: sent again with the same key, it is stored once. */
	| { outcome: 'unavailable'; retryAfterSeconds: number }

/**
 * A message from the page's form or the API, whichever: refused while the form is closed, and
 * answered `unavailable` while the database cannot be reached. The routes only word the outcome.
 */
export async function receiveContactMessage(
	services: Services & Pick<AppServices, 'remoteConfig'>,
	request: Request,
	clientIp: string,
	input: unknown,
): Promise<ReceiveResult> {
	const closed = await contactFormClosed(services, request)
	if (closed) return { outcome: 'closed', ...closed }
	try {
		return await submitContactMessage(services, clientIp, input)
	} catch (error) {
		const outage = storageOutage(error)
		if (!outage) throw error
		return { outcome: 'unavailable', retryAfterSeconds: outage.retryAfterSeconds }
	}
}
