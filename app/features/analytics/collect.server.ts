// POST /api/collect: one screen view from a reader's browser (app/features/analytics/
// screen-view.ts), checked, cleaned of anything personal, and queued for a batched write
// (ingest.server.ts). The answers:
//   202             accepted (queued; stored within a second or so)
//   204             not counted, by design: Do Not Track or Global Privacy Control (DNT: 1,
//                   Sec-GPC: 1), a robot (isbot, or no User-Agent at all), a page under /admin
//                   or /api. Nothing is stored, and nothing tells a robot it was spotted.
//   400 { error, errors: { field: [message] } }   not JSON, or fields of the wrong shape
//   413 { error }   a body over 4 KB (server/app.ts)
//   429 { error }   over `viewsPerMinute` views from one visitor; Retry-After in seconds
//   503 { error }   the write queue is full (the database is slow or down), or the day's salt
//                   cannot be read; Retry-After
// The body is read as JSON whatever its Content-Type: navigator.sendBeacon with a string sends
// text/plain.

import { isbot } from 'isbot'
import * as z from 'zod/mini'
import { visitorHashOn } from '#app/features/privacy/visitor-hash.server.ts'
import { siteDay } from '#app/features/site/site-settings.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { createRateLimit } from '#app/lib/rate-limit.ts'
import type { ScreenViewWrite } from '#storage/port/analytics.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { ScreenViewBuffer } from './ingest.server.ts'

export interface CollectOptions {
	/** The clock: when a view was received, and so which day's salt hashes its visitor. */
	now: () => Date
	/** Views accepted from one visitor hash in a minute. */
	viewsPerMinute: number
	/** Visitors whose minute is remembered at once; past it, the oldest minute is forgotten. */
	maxVisitors: number
}

export const collectLimits = {
	screen: 64,
	path: 1_000,
	title: 300,
	referrer: 2_000,
	language: 35,
	campaign: 200,
} as const

const clip = (max: number) => (value: string) => value.slice(0, max)
/** A string, cut to `max` characters (a long one is clipped, not refused), then `checks`. */
const clipped = (message: string, max: number, ...checks: z.core.$ZodCheck<string>[]) =>
	z.pipe(z.string({ error: message }), z.string().check(z.overwrite(clip(max)), ...checks))
const optionalText = (message: string, max: number, clean: (value: string) => string = (v) => v) =>
	z._default(z.pipe(clipped(message, max), z.transform(clean)), '')

const screenMessage = `The screen must be a route name: a letter, then up to ${collectLimits.screen - 1} letters, digits, "_", "-", "." or "/".`
const pathMessage = 'The path must be the page’s address from its first "/", e.g. /articles.'

export const screenViewSchema = z.object({
	screen: z
		.string({ error: screenMessage })
		.check(
			z.regex(new RegExp(`^[a-z][\\w./-]{0,${collectLimits.screen - 1}}$`, 'i'), screenMessage),
		),
	path: clipped(pathMessage, collectLimits.path, z.startsWith('/', pathMessage)),
	title: optionalText('The title must be text.', collectLimits.title, (value) =>
		value.replace(/\p{Cc}/gu, '').trim(),
	),
	referrer: optionalText('The referrer must be text.', collectLimits.referrer),
	device: z.enum(['mobile', 'tablet', 'desktop'], {
		error: 'The device must be "mobile", "tablet" or "desktop".',
	}),
	language: optionalText('The language must be text, e.g. "en-GB".', collectLimits.language),
})

export type ScreenViewInput = z.infer<typeof screenViewSchema>

/** Parses a path or URL against a base; undefined when it is not one. */
function parseUrl(value: string, base?: string): URL | undefined {
	try {
		return new URL(value, base)
	} catch {
		return undefined
	}
}

/** The pathname alone, plus the campaign its `utm_*` parameters (or `ref`, as a source) name. */
export function normalisePath(value: string) {
	// A path starting with "//" would parse as another host: the base keeps it a path.
	const url = parseUrl(value.startsWith('//') ? value.replace(/^\/+/, '/') : value, 'http://x')
	const param = (name: string) => clip(collectLimits.campaign)(url?.searchParams.get(name) ?? '')
	return {
		path: url?.pathname ?? '/',
		utmSource: param('utm_source') || param('ref'),
		utmMedium: param('utm_medium'),
		utmCampaign: param('utm_campaign'),
	}
}

/**
 * What a referrer says: a path of this site ('/…', or a full URL on `siteHost`) is the previous
 * page; an http(s) URL of another site gives its host alone, in lower case; anything else
 * (another scheme, junk) is ignored.
 */
export function normaliseReferrer(
	value: string,
	siteHost: string,
): { previousPath: string; referrerHost: string } {
	const none = { previousPath: '', referrerHost: '' }
	if (value.startsWith('/') && !value.startsWith('//')) {
		return { ...none, previousPath: parseUrl(value, 'http://x')?.pathname ?? '' }
	}
	const url = parseUrl(value)
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return none
	if (url.host === siteHost.toLowerCase()) return { ...none, previousPath: url.pathname }
	return { ...none, referrerHost: url.hostname }
}

/** The primary language subtag in lower case (`fr-CA` → `fr`); '' when `value` is not a tag. */
export function primaryLanguage(value: string): string {
	const match = /^([a-z]{2,3})(?:-[a-z0-9]{1,8})*$/i.exec(value.trim())
	return match?.[1]?.toLowerCase() ?? ''
}

const notCounted = /^\/(?:admin|api)(?:\/|$)/

/** The stored view; undefined when its page is one that is never counted. */
export function screenViewWrite(
	input: ScreenViewInput,
	context: { at: Date; day?: string; visitor: string; siteHost: string },
): ScreenViewWrite | undefined {
	const { path, ...campaign } = normalisePath(input.path)
	if (notCounted.test(path)) return undefined
	return {
		at: context.at,
		...(context.day ? { day: context.day } : {}),
		visitor: context.visitor,
		screen: input.screen,
		path,
		title: input.title,
		...normaliseReferrer(input.referrer, context.siteHost),
		...campaign,
		device: input.device,
		language: primaryLanguage(input.language),
	}
}

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
	Response.json(body, { status, headers })
const invalid = (errors: FieldErrors) =>
	json(400, { error: 'The screen view was not recorded: some of its fields are wrong.', errors })
const empty = (status: 202 | 204) => new Response(null, { status })
const unavailable = { error: 'Views cannot be stored just now. Try again shortly.' }

export interface CollectDependencies {
	storage: Storage
	buffer: ScreenViewBuffer
	/** The public origin: a referrer on its host is a previous page, not another site. */
	siteUrl: string
}

/** The handler of POST /api/collect; `clientIp` is the socket's or a trusted proxy's report. */
export function createCollector(deps: CollectDependencies, options: Partial<CollectOptions> = {}) {
	const { now = () => new Date(), viewsPerMinute = 60, maxVisitors = 50_000 } = options
	const siteHost = new URL(deps.siteUrl).host
	const limited = createRateLimit(viewsPerMinute, 60_000, maxVisitors)

	return async function collect(request: Request, clientIp: string): Promise<Response> {
		const headers = request.headers
		if (headers.get('dnt') === '1' || headers.get('sec-gpc') === '1') return empty(204)
		const userAgent = headers.get('user-agent') ?? ''
		if (!userAgent || isbot(userAgent)) return empty(204)

		let body: unknown
		try {
			body = JSON.parse(await request.text())
		} catch {
			return invalid({ form: ['The body must be JSON: one object with the view’s fields.'] })
		}
		if (typeof body !== 'object' || body === null || Array.isArray(body)) {
			return invalid({ form: ['The body must be one JSON object with the view’s fields.'] })
		}
		const parsed = screenViewSchema.safeParse(body)
		if (!parsed.success) return invalid(fieldErrors(parsed.error))

		const at = now()
		let visitor: string
		let day: string
		try {
			// The site's day, in its time zone: the day the view counts for, and its visitor's salt's.
			day = await siteDay(deps.storage, at)
			visitor = await visitorHashOn(deps.storage, ['analytics', siteHost, clientIp, userAgent], day)
		} catch {
			// The day's salt could not be read or made: the database is away, as for a full queue.
			return json(503, unavailable, { 'Retry-After': '60' })
		}
		const view = screenViewWrite(parsed.data, { at, day, visitor, siteHost })
		if (!view) return empty(204)
		const wait = limited(visitor, at.getTime())
		if (wait > 0) {
			return json(
				429,
				{ error: `Too many views from one visitor. Try again in ${wait} seconds.` },
				{ 'Retry-After': String(wait) },
			)
		}
		if (!deps.buffer.offer(view)) {
			return json(503, unavailable, { 'Retry-After': String(deps.buffer.retryAfterSeconds) })
		}
		return empty(202)
	}
}
