// One webhook delivery: the body a receiver gets, signed by the Standard Webhooks scheme
// (https://www.standardwebhooks.com: webhook-id, webhook-timestamp, webhook-signature headers,
// HMAC-SHA256 by the `standardwebhooks` library), sent as one POST that follows no redirect, and
// what each answer means for the delivery. The worker that claims and sends is
// delivery-worker.server.ts.
import { type Agent as HttpAgent, request as httpRequest } from 'node:http'
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { Webhook } from 'standardwebhooks'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { parseRetryAfter } from '#app/lib/retry-after.ts'
import type { WebhookDelivery } from '#storage/port/webhooks.ts'

/** The events whose data gets the article's public address. */
/** The events whose article or page is public after them: their data gets its address. */
const publicEvents: Partial<Record<string, 'article' | 'page'>> = {
	'article.published': 'article',
	'article.updated': 'article',
	'page.published': 'page',
	'page.updated': 'page',
}

/**
 * The body: { type, timestamp, data } as Standard Webhooks describes it. `timestamp` is when the
 * event happened; data is as stored then, with `url` added for a public article or page.
 */
export function webhookBody(
	delivery: Pick<WebhookDelivery, 'eventType' | 'createdAt' | 'payload'>,
	siteUrl: string,
): string {
	const data = JSON.parse(delivery.payload) as Record<string, unknown>
	const kind = publicEvents[delivery.eventType]
	if (kind && typeof data.slug === 'string')
		data.url = new URL(publicPath(kind, data.slug), siteUrl).href
	return JSON.stringify({ type: delivery.eventType, timestamp: delivery.createdAt, data })
}

/**
 * The three Standard Webhooks headers. The timestamp is the attempt's, not the event's: a
 * receiver refuses a signature more than five minutes old, and a retry comes hours later. With
 * several secrets (a new one, and the one before it while they overlap) webhook-signature holds a
 * signature for each, space-separated, as the scheme allows: a receiver that has either accepts.
 */
export function signatureHeaders(
	secrets: readonly string[],
	messageId: string,
	body: string,
	now: Date,
): Record<string, string> {
	return {
		'webhook-id': messageId,
		'webhook-timestamp': String(Math.floor(now.getTime() / 1_000)),
		'webhook-signature': secrets
			.map((secret) => new Webhook(secret).sign(messageId, now, body))
			.join(' '),
	}
}

export interface WebhookAnswer {
	/** The receiver's HTTP status; null when it never answered. */
	status: number | null
	/** What went wrong (a refused connection, a timeout), or the start of a non-2xx answer's body. */
	error: string | null
	durationMs: number
	/** The receiver's Retry-After, in milliseconds, when it sent one. */
	retryAfterMs?: number
}

/** How much of a receiver's answer is read and kept for the log. */
const answerBytes = 500

/**
 * POSTs the body and reads the answer's status and the start of its body. Never follows a
 * redirect (a 3xx is a failure like any other): a redirect would be a way around the address
 * check. `timeoutMs` bounds the whole attempt, connection to answer.
 */
export function postWebhook(
	url: URL,
	body: string,
	headers: Record<string, string>,
	options: {
		agent: HttpAgent | HttpsAgent
		timeoutMs: number
		userAgent: string
		now?: () => Date
	},
): Promise<WebhookAnswer> {
	const started = performance.now()
	const elapsed = () => performance.now() - started
	const send = url.protocol === 'https:' ? httpsRequest : httpRequest
	return new Promise((resolve) => {
		let settled = false
		const finish = (answer: Omit<WebhookAnswer, 'durationMs'>) => {
			if (settled) return
			settled = true
			clearTimeout(timer)
			resolve({ ...answer, durationMs: elapsed() })
		}
		const outgoing = send(
			url,
			{
				method: 'POST',
				agent: options.agent as HttpsAgent,
				headers: {
					'content-type': 'application/json',
					'user-agent': options.userAgent,
					...headers,
				},
			},
			(response) => {
				const status = response.statusCode ?? null
				const chunks: Buffer[] = []
				let length = 0
				response.on('data', (chunk: Buffer) => {
					if (length < answerBytes) chunks.push(chunk)
					length += chunk.length
				})
				response.on('end', () => {
					const ok = status !== null && status >= 200 && status < 300
					const text = Buffer.concat(chunks).subarray(0, answerBytes).toString('utf8').trim()
					const where = response.headers.location
					finish({
						status,
						error: ok
							? null
							: status !== null && status >= 300 && status < 400
								? `Redirects are not followed${where ? ` (to ${where.slice(0, 200)})` : ''}.`
								: text || null,
						retryAfterMs: parseRetryAfter(
							response.headers['retry-after'],
							options.now?.() ?? new Date(),
						),
					})
				})
				response.on('error', (error) => finish({ status, error: error.message }))
			},
		)
		const timer = setTimeout(() => {
			outgoing.destroy(new Error(`No answer within ${Math.round(options.timeoutMs / 1_000)} s.`))
		}, options.timeoutMs)
		outgoing.on('error', (error: NodeJS.ErrnoException) =>
			finish({ status: null, error: describeError(error) }),
		)
		outgoing.end(body)
	})
}

function describeError(error: NodeJS.ErrnoException): string {
	switch (error.code) {
		case 'ECONNREFUSED':
			return 'The connection was refused.'
		case 'ENOTFOUND':
			return 'The host was not found.'
		case 'ECONNRESET':
			return 'The connection was reset before an answer.'
		default:
			return error.message
	}
}

/**
 * After the n-th failed attempt, wait the n-th step (each ±20 %), for a day: 5 s, 1 min, 5 min,
 * 30 min, 1 h, 2 h, 4 h, 8 h, 8 h (about 23.6 hours in all; ten attempts).
 */
export const retrySchedule = [
	5_000,
	60_000,
	5 * 60_000,
	30 * 60_000,
	60 * 60_000,
	2 * 60 * 60_000,
	4 * 60 * 60_000,
	8 * 60 * 60_000,
	8 * 60 * 60_000,
]

/** A delivery older than this is given up on: the receiver had its day. */
export const deliveryMaxAgeMs = 24 * 60 * 60_000

export type WebhookVerdict =
	| { kind: 'delivered' }
	/** 410 Gone: the receiver asks for no more; the endpoint is turned off. */
	| { kind: 'gone' }
	| { kind: 'failed'; reason: string }
	| { kind: 'retry'; delayMs: number }

/** What an answer to the `attempts`-th attempt means, at `now`. */
export function classifyAnswer(
	answer: WebhookAnswer,
	context: {
		attempts: number
		createdAt: string
		now: Date
		schedule?: number[]
		maxAgeMs?: number
		random?: () => number
	},
): WebhookVerdict {
	const { status } = answer
	if (status !== null && status >= 200 && status < 300) return { kind: 'delivered' }
	if (status === 410) return { kind: 'gone' }
	const schedule = context.schedule ?? retrySchedule
	const maxAgeMs = context.maxAgeMs ?? deliveryMaxAgeMs
	const step = schedule[context.attempts - 1]
	if (step === undefined)
		return { kind: 'failed', reason: `Given up after ${context.attempts} attempts.` }
	const jitter = 0.8 + 0.4 * (context.random ?? Math.random)()
	// A receiver that asks for longer (429, 503 with Retry-After) gets it, within the day.
	const delayMs = Math.max(Math.round(step * jitter), answer.retryAfterMs ?? 0)
	const deadline = new Date(context.createdAt).getTime() + maxAgeMs
	if (context.now.getTime() + delayMs > deadline)
		return { kind: 'failed', reason: 'Given up: a day of retries ran out.' }
	return { kind: 'retry', delayMs }
}
