// Push notifications for new articles: what is sent, and what each answer of the push service
// means for the delivery. The worker that claims and sends is server/jobs/push-delivery.ts.

import { parseRetryAfter } from '#app/lib/retry-after.ts'
import type { ClaimedPushDelivery } from '#storage/port/push.ts'
import type { PushPayload } from './notice.ts'

export { parseRetryAfter }

/**
 * RFC 8291 §4: a push message body is at most 4096 bytes; aes128gcm spends 86 on its header and
 * 17 on the padding delimiter and tag in one record, which leaves 3993 for the plaintext.
 */
export const maxPayloadBytes = 3993

/** A day: a notice of a new article that has not reached the browser by then is no longer news. */
export const pushTtlSeconds = 24 * 60 * 60

/**
 * The TTL for a try at `now` of a notice written at `createdAt` (when its article was published):
 * what is left of `maxAgeMs` since then, in whole seconds, at most pushTtlSeconds. A retry six
 * hours on gets 18 hours, so the push service never holds a notice past the day it is news for.
 * 0 when nothing is left: the delivery is given up on rather than sent.
 */
export function remainingTtlSeconds(createdAt: string, now: Date, maxAgeMs: number): number {
	const leftMs = new Date(createdAt).getTime() + maxAgeMs - now.getTime()
	return Math.max(0, Math.min(pushTtlSeconds, Math.floor(leftMs / 1_000)))
}

/** One topic for every notice: a newer article's replaces an older one still waiting. */
export const pushTopic = 'new-article'

const encoder = new TextEncoder()
const byteLength = (payload: PushPayload) => encoder.encode(JSON.stringify(payload)).length

/** The first `count` characters, not splitting a surrogate pair, with an ellipsis when cut. */
function cut(text: string, count: number): string {
	const characters = Array.from(text)
	if (characters.length <= count) return text
	return count === 0 ? '' : `${characters.slice(0, count).join('').trimEnd()}…`
}

/** The longest cut of `field` for which the payload still fits (binary search on characters). */
function shrinkToFit(payload: PushPayload, field: 'summary' | 'title'): PushPayload {
	if (byteLength(payload) <= maxPayloadBytes) return payload
	let low = 0
	let high = Array.from(payload[field]).length
	while (low < high) {
		const middle = Math.ceil((low + high) / 2)
		if (byteLength({ ...payload, [field]: cut(payload[field], middle) }) <= maxPayloadBytes)
			low = middle
		else high = middle - 1
	}
	return { ...payload, [field]: cut(payload[field], low) }
}

/**
 * The notice for an article: its title, summary, absolute URL and the site's icon. The summary is
 * cut to fit the payload cap, then (for a title of thousands of characters) the title.
 */
export function buildPayload(
	article: Pick<ClaimedPushDelivery['article'], 'slug' | 'title' | 'summary'>,
	site: { siteUrl: string; logoUrl: string },
): string {
	const payload: PushPayload = {
		title: article.title,
		summary: article.summary,
		url: new URL(`/articles/${encodeURIComponent(article.slug)}`, site.siteUrl).href,
		icon: new URL(site.logoUrl || '/logo.svg', site.siteUrl).href,
	}
	return JSON.stringify(shrinkToFit(shrinkToFit(payload, 'summary'), 'title'))
}

export interface RetryPolicy {
	baseMs: number
	factor: number
	maxMs: number
	/**
	 * How long after the article was published a notice is still worth sending; past it the
	 * delivery is given up on. Matches the TTL: the push service would drop it by then anyway.
	 */
	maxAgeMs: number
	/** A bound on claims too, for a delivery whose worker keeps dying mid-send. */
	maxAttempts: number
}

/** 1 s, 2 s, 4 s … 4 h between tries, for at most a day (about 18 tries). */
export const defaultRetry: RetryPolicy = {
	baseMs: 1_000,
	factor: 2,
	maxMs: 4 * 60 * 60 * 1_000,
	maxAgeMs: pushTtlSeconds * 1_000,
	maxAttempts: 30,
}

/**
 * The wait after the `attempts`-th failed try: the exponential step, capped, of which the upper
 * half is random, so subscriptions that failed together (a push service's outage) spread out.
 */
export function backoffMs(
	attempts: number,
	policy: Pick<RetryPolicy, 'baseMs' | 'factor' | 'maxMs'> = defaultRetry,
	random: () => number = Math.random,
): number {
	const exponent = Math.min(Math.max(0, attempts - 1), 64)
	const full = Math.min(policy.maxMs, policy.baseMs * policy.factor ** exponent)
	return Math.round(full / 2 + (random() * full) / 2)
}

export type Verdict =
	| { kind: 'sent'; status: number }
	| { kind: 'gone'; status: number }
	| {
			kind: 'failed'
			status: number | null
			reason: string
			/**
			 * message: this message is refused (400, 413…); credentials: 401/403, the push service
			 * refused our VAPID signature, so every notice will be until the keys or subject are fixed.
			 */
			cause: 'message' | 'credentials'
	  }
	| { kind: 'retry'; status: number | null; reason: string; delayMs: number }

export interface ClassifyContext {
	/** This attempt included. */
	attempts: number
	now: Date
	policy?: Pick<RetryPolicy, 'baseMs' | 'factor' | 'maxMs'>
	random?: () => number
}

interface PushError {
	statusCode?: unknown
	headers?: Record<string, unknown>
	body?: unknown
	message?: unknown
}

/**
 * What an answer means: 2xx sent; 404/410 the subscription is gone; 413 and other 4xx refused for
 * good (resending the same message gets the same answer; 401 and 403 blame our VAPID keys or
 * subject); 429, 5xx, timeouts and connection errors retried after the backoff, or after
 * Retry-After when that is longer.
 */
export function classify(
	outcome: { status: number } | { error: unknown },
	context: ClassifyContext,
): Verdict {
	const status = 'status' in outcome ? outcome.status : statusOf(outcome.error)
	if (status !== null && status >= 200 && status < 300) return { kind: 'sent', status }
	const reason = 'error' in outcome ? describeFailure(outcome.error) : `HTTP ${status}`
	if (status === 404 || status === 410) return { kind: 'gone', status }
	if (status !== null && status !== 429 && status < 500) {
		const cause = status === 401 || status === 403 ? 'credentials' : 'message'
		return { kind: 'failed', status, reason, cause }
	}
	const backoff = backoffMs(context.attempts, context.policy, context.random)
	const headers = 'error' in outcome ? (outcome.error as PushError | null)?.headers : undefined
	const retryAfter = parseRetryAfter(headers?.['retry-after'], context.now)
	const delayMs = retryAfter !== undefined && retryAfter > backoff ? retryAfter : backoff
	return { kind: 'retry', status, reason, delayMs }
}

function statusOf(error: unknown): number | null {
	const status = (error as PushError | null)?.statusCode
	return typeof status === 'number' ? status : null
}

function describeFailure(error: unknown): string {
	if (!(error instanceof Error)) return String(error)
	const { statusCode, body } = error as PushError
	if (typeof statusCode !== 'number') return error.message
	const text = typeof body === 'string' ? body.trim().slice(0, 200) : ''
	return text ? `HTTP ${statusCode}: ${text}` : `HTTP ${statusCode}`
}
