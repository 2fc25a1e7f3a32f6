// POST and DELETE /api/push/subscriptions: a browser asking to be notified of new articles, or
// to stop. Answered by the Hono server (server/app.ts), like /api/collect. The answers:
//   POST
//   201 { status: 'subscribed' }  stored
//   200 { status: 'refreshed' }   the endpoint was known: keys and expiration replaced (browsers
//                                 send their subscription again every 7 days and when it
//                                 changes); never counted against the cap below
//   400 { error, errors: { field: [message] } }  not JSON, a field of the wrong shape, or an
//                                 endpoint that is not an https: address on the public internet
//   413 { error }                 a body over 4 KB (server/app.ts)
//   429 { error }                 over `perDay` new subscriptions from one visitor; Retry-After
//   503 { error }                 the endpoint's host could not be looked up just now, or the
//                                 database is away; Retry-After
//   DELETE { endpoint }
//   204                           gone, with its deliveries not yet sent, whether or not it existed
//                                 (knowing the endpoint is what lets one unsubscribe: it is a
//                                 secret between the browser, its push service and Canopy)
//   400                           as above
// A cross-site request is refused before this (403, server/app.ts).
import { ECDH } from 'node:crypto'
import { visitorHash } from '#app/features/privacy/visitor-hash.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { checkPushEndpoint, type PushHostOptions } from './push-endpoint.server.ts'
import { base64urlBytes, subscriptionSchema, unsubscribeSchema } from './subscription.schema.ts'

export interface SubscriptionOptions extends PushHostOptions {
	/** The clock: the day's visitor hash, refreshed_at, whether an expiration has passed. */
	now: () => Date
	/** New subscriptions one visitor may make in a day (a hash of IP and user agent). */
	perDay: number
}

export interface SubscriptionDependencies {
	storage: Storage
	logger: Logger
	/** The public origin: its host is part of the visitor hash. */
	siteUrl: string
}

const day = 24 * 60 * 60 * 1000

function waitText(seconds: number): string {
	const minutes = Math.ceil(seconds / 60)
	if (minutes <= 1) return 'a minute'
	if (minutes < 90) return `${minutes} minutes`
	return `${Math.round(minutes / 60)} hours`
}

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
	Response.json(body, { status, headers })
const invalid = (errors: FieldErrors) =>
	json(400, { error: 'The subscription was not saved: some of its fields are wrong.', errors })
const unavailable = (retryAfter: number) =>
	json(
		503,
		{ error: 'Subscriptions cannot be saved just now. Try again in a moment.' },
		{ 'Retry-After': String(retryAfter) },
	)

async function readJson(request: Request): Promise<{ body: unknown } | { error: Response }> {
	try {
		const body: unknown = JSON.parse(await request.text())
		if (typeof body === 'object' && body !== null && !Array.isArray(body)) return { body }
	} catch {}
	return {
		error: invalid({ form: ['The body must be one JSON object: the browser’s subscription.'] }),
	}
}

/** Whether the bytes are a point on P-256 (the length and 0x04 are checked by the schema). */
function isP256Point(p256dh: string): boolean {
	const bytes = base64urlBytes(p256dh)
	if (!bytes) return false
	try {
		ECDH.convertKey(bytes, 'prime256v1')
		return true
	} catch {
		return false
	}
}

export function createPushSubscriptions(
	deps: SubscriptionDependencies,
	options: Partial<SubscriptionOptions> = {},
) {
	const { now = () => new Date(), perDay = 5, ...hostOptions } = options
	const siteHost = new URL(deps.siteUrl).host
	const { storage, logger } = deps

	async function subscribe(request: Request, clientIp: string): Promise<Response> {
		const read = await readJson(request)
		if ('error' in read) return read.error
		const parsed = subscriptionSchema.safeParse(read.body)
		if (!parsed.success) return invalid(fieldErrors(parsed.error))
		const { endpoint, keys, expirationTime } = parsed.data
		if (!isP256Point(keys.p256dh))
			return invalid({ 'keys.p256dh': ['keys.p256dh is not a P-256 public key a browser made.'] })
		const at = now()
		if (typeof expirationTime === 'number' && expirationTime <= at.getTime())
			return invalid({ expirationTime: ['This subscription has already expired.'] })

		const checked = await checkPushEndpoint(endpoint, hostOptions)
		if (!checked.ok) {
			return checked.temporary
				? json(503, { error: checked.error }, { 'Retry-After': '30' })
				: invalid({ endpoint: [checked.error] })
		}

		const subscription = {
			endpoint,
			p256dh: keys.p256dh,
			auth: keys.auth,
			expirationTime:
				typeof expirationTime === 'number' ? new Date(expirationTime).toISOString() : null,
		}
		try {
			if (!(await storage.push.findSubscription(endpoint))) {
				// The address itself is never stored: the cap is kept under a hash salted for the day.
				const userAgent = request.headers.get('user-agent') ?? ''
				const visitor = await visitorHash(storage, ['push', siteHost, clientIp, userAgent], at)
				const hit = await storage.rateLimits.hit(`push:${visitor}`, perDay, day, at.getTime())
				if (!hit.allowed) {
					const wait = Math.max(1, Math.ceil((hit.resetAt - at.getTime()) / 1000))
					return json(
						429,
						{
							error: `Too many new subscriptions from this browser today. Try again in ${waitText(wait)}.`,
						},
						{ 'Retry-After': String(wait) },
					)
				}
			}
			const saved = await storage.push.saveSubscription(subscription, at)
			if (saved.created) logger.info('push: subscription stored', { id: saved.subscription.id })
			return saved.created
				? json(201, { status: 'subscribed' })
				: json(200, { status: 'refreshed' })
		} catch (error) {
			logger.warn('push: could not save a subscription', { error })
			return unavailable(60)
		}
	}

	async function unsubscribe(request: Request): Promise<Response> {
		const read = await readJson(request)
		if ('error' in read) return read.error
		const parsed = unsubscribeSchema.safeParse(read.body)
		if (!parsed.success) return invalid(fieldErrors(parsed.error))
		try {
			if (await storage.push.deleteSubscription(parsed.data.endpoint, now()))
				logger.info('push: subscription deleted')
		} catch (error) {
			logger.warn('push: could not delete a subscription', { error })
			return unavailable(60)
		}
		return new Response(null, { status: 204 })
	}

	return { subscribe, unsubscribe }
}
