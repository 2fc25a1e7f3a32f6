// A whole-page cache for anonymous GETs of public pages. Every change on the feed (articles,
// settings) empties it, on every instance, because each instance's broker sees every change.
// The per-request CSP nonce is swapped in on the way out, so a cached page is still protected;
// see docs/decisions/004-whole-page-cache.md.

import type { IncomingMessage } from 'node:http'
import type { HeaderReader } from '#app/features/remote-config/evaluate.server.ts'
import { cookieValue, isInterfaceLocale, languageCookie, requestedLocales } from '#app/lib/i18n.ts'
import { type SplicedGzip, spliceGzip } from './gzip-splice.ts'
import type { LiveBroker } from './live/broker.ts'

export interface CachedPage {
	status: number
	headers: Record<string, string>
	/** The page split where its nonce stood, each part encoded once. */
	parts: Buffer[]
	gzip: SplicedGzip
}

const maxEntries = 500
const maxPageBytes = 512 * 1024
// Headers that describe one encoding of one response, not the page.
const perResponse = new Set([
	'content-length',
	'content-encoding',
	'vary',
	'transfer-encoding',
	'date',
	'cache-status',
])

/** RFC 9211: what the cache did for this answer. */
export const cacheStatus = {
	hit: 'canopy; hit',
	stored: 'canopy; fwd=uri-miss; stored',
	miss: 'canopy; fwd=uri-miss',
	bypass: 'canopy; fwd=bypass',
} as const

// better-auth's cookies (prefix `canopy`, decision 005), `__Secure-` under https: a session, its
// cached data, a known device. Any other cookie (a theme, a consent banner's, a CDN's, an
// analytics tool's on the same domain) does not change a public page.
const accountCookiePrefixes = ['canopy.', '__Secure-canopy.', '__Host-canopy.']

/**
 * True when a Cookie header carries one of Canopy's account cookies: the request may be a signed-in
 * person's, and their answer is neither served from nor kept in the cache. Anyone chooses this
 * header and it is read on every GET, so it is read in one pass (a regular expression with `\s*`
 * on both sides of a value once took 1.7 s of CPU for 16,000 spaces).
 */
export function carriesAccountCookie(header: string): boolean {
	for (const part of header.split(';')) {
		const name = part.trimStart()
		if (accountCookiePrefixes.some((prefix) => name.startsWith(prefix))) return true
	}
	return false
}

/**
 * The cache key for a request that may be served from or stored in the cache: anonymous GETs of
 * pages. Read from Node's request directly: this runs before anything else on every request.
 * `variant` names the remote configuration's values for the request (a page renders with them),
 * so visitors in and out of a rollout never get each other's page; undefined: do not cache.
 */
export function pageCacheKey(
	incoming: IncomingMessage,
	variant?: (header: HeaderReader) => string | undefined,
): string | undefined {
	const { method, url, headers } = incoming
	if (method !== 'GET' || !url || headers.authorization) return undefined
	if (headers.cookie && carriesAccountCookie(headers.cookie)) return undefined
	if (url.startsWith('/admin') || url.startsWith('/api/') || url.startsWith('/assets/'))
		return undefined
	// The interface languages the reader asks for (a page renders in one of them, decision 033):
	// one of a few short lists, whatever the header's details.
	const cookie = headers.cookie ? cookieValue(headers.cookie, languageCookie) : undefined
	// A language chosen with the switcher is marked: the page keeps it on an article in another
	// (root.tsx), where the same language only asked for by the browser follows the article.
	const languages =
		(isInterfaceLocale(cookie) ? '=' : '') +
		requestedLocales(headers['accept-language'], cookie).join(',')
	const page = languages ? `${url}\n${languages}` : url
	if (!variant) return page
	const name = variant((header) => {
		const value = headers[header]
		return Array.isArray(value) ? value.join(', ') : value
	})
	return name === undefined ? undefined : `${page}\n${name}`
}

/** The page's parts with this response's nonce between each pair: copied, not encoded again. */
function withNonce(parts: Buffer[], nonce: string): Buffer {
	if (parts.length === 1) return parts[0] as Buffer
	const filler = Buffer.from(nonce, 'latin1')
	const pieces: Buffer[] = []
	for (const [i, part] of parts.entries()) {
		if (i > 0) pieces.push(filler)
		pieces.push(part)
	}
	return Buffer.concat(pieces)
}

export function acceptsGzip(incoming: IncomingMessage): boolean {
	return /\bgzip\b/.test(incoming.headers['accept-encoding'] ?? '')
}

// Everything a public page shows: articles, pages, tags, authors, redirects, the navigation.
const publicTopics = new Set([
	'articles',
	'pages',
	'tags',
	'authors',
	'redirects',
	'settings',
	'config',
])

/** One closure over the cached pages and their generation: its short methods share them. */
export function createPageCache(broker: LiveBroker) {
	const entries = new Map<string, CachedPage>()
	let generation = 0
	// The inbox (topic `messages`), uploads and the like do not change a public page.
	broker.onChanges((changes) => {
		if (!changes.some((change) => publicTopics.has(change.topic))) return
		generation++
		entries.clear()
	})

	return {
		get(key: string): CachedPage | undefined {
			return entries.get(key)
		},

		/** Read before rendering; handed back to store() so a page rendered from stale data is not kept. */
		get generation() {
			return generation
		},

		/** The body and headers of a cached page for one response. */
		render(page: CachedPage, nonce: string, acceptsGzip: boolean) {
			// A redirect has no body to compress.
			const gzip = acceptsGzip && page.status === 200
			const body = gzip ? page.gzip.with(nonce) : withNonce(page.parts, nonce)
			const headers: Record<string, string> = {
				...page.headers,
				'Content-Length': String(body.length),
				Vary: 'Accept-Encoding',
				'Cache-Status': cacheStatus.hit,
			}
			if (gzip) headers['Content-Encoding'] = 'gzip'
			return { body, headers }
		},

		async store(
			key: string,
			response: Response,
			nonce: string,
			renderedAt: number,
		): Promise<Response> {
			const type = response.headers.get('content-type') ?? ''
			const cacheControl = response.headers.get('cache-control') ?? ''
			// An address that moved (a renamed article's): answered as fast as a page. Only a
			// redirect the site marked public is kept, never the catch-all's to /home, so random
			// addresses cannot push pages out of the cache.
			const moved =
				(response.status === 301 || response.status === 302) &&
				response.headers.has('location') &&
				/\bpublic\b/.test(cacheControl)
			if (
				(!moved && (response.status !== 200 || !type.startsWith('text/html'))) ||
				response.headers.has('set-cookie') ||
				/no-store|private/.test(cacheControl)
			) {
				response.headers.set('Cache-Status', cacheStatus.miss)
				return response
			}
			const body = await response.text()
			let status: string = cacheStatus.miss
			// A page rendered from data read before a change landed must not outlive it.
			if (renderedAt === generation && body.length <= maxPageBytes) {
				status = cacheStatus.stored
				if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string)
				const parts = body.split(nonce).map((part) => Buffer.from(part, 'utf8'))
				const headers: Record<string, string> = {}
				for (const [name, value] of response.headers)
					if (!perResponse.has(name)) headers[name] = value
				entries.set(key, {
					status: response.status,
					headers,
					parts,
					gzip: spliceGzip(parts, nonce.length),
				})
			}
			response.headers.set('Cache-Status', status)
			return new Response(body, { status: response.status, headers: response.headers })
		},
	}
}
