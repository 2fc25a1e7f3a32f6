// Headers every response carries (pages, errors, files, streams), and the Origin check that
// every mutation passes.
import { randomFillSync } from 'node:crypto'

const nonceBytes = 16
// Random bytes for nonces, drawn from the operating system's generator 4 KB at a time: one call
// per 256 responses instead of one per response (it was 6 % of a cached page's CPU). Each
// nonce takes bytes no other nonce had and the pool is never shown, so each is as unpredictable
// as one drawn alone (Node's own randomUUID keeps such a cache).
const pool = Buffer.alloc(nonceBytes * 256)
let next = pool.length

/** A CSP nonce: 16 random bytes, base64 (one per response). */
export function createNonce(): string {
	if (next === pool.length) {
		randomFillSync(pool)
		next = 0
	}
	const nonce = pool.toString('base64', next, next + nonceBytes)
	next += nonceBytes
	return nonce
}

export function securityHeaders(options: {
	nonce?: string
	https: boolean
	/** The editor's preview of a draft, shown in a frame of the site's own editor page. */
	framedBySite?: boolean
	/**
	 * A newsletter mail shown as it is sent: mail can only be styled inline, so inline styles are
	 * allowed, and it runs in a sandbox with no script at all.
	 */
	mailPreview?: boolean
}): Record<string, string> {
	const framing = options.framedBySite ? `'self'` : `'none'`
	const script =
		options.nonce && !options.mailPreview ? `'nonce-${options.nonce}' 'strict-dynamic'` : `'none'`
	const csp = [
		`default-src 'self'`,
		`script-src ${script}`,
		options.mailPreview ? `style-src 'unsafe-inline'` : `style-src 'self'`,
		...(options.mailPreview ? ['sandbox allow-popups allow-popups-to-escape-sandbox'] : []),
		`img-src 'self' https: data:`,
		`font-src 'self'`,
		`connect-src 'self'`,
		`manifest-src 'self'`,
		`object-src 'none'`,
		`base-uri 'none'`,
		`form-action 'self'`,
		`frame-ancestors ${framing}`,
		...(options.https ? ['upgrade-insecure-requests'] : []),
	].join('; ')
	return {
		'Content-Security-Policy': csp,
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'strict-origin-when-cross-origin',
		'X-Frame-Options': options.framedBySite ? 'SAMEORIGIN' : 'DENY',
		'Cross-Origin-Opener-Policy': 'same-origin',
		'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
		...(options.https
			? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' }
			: {}),
	}
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * A mutation is accepted from the site's own pages only: an Origin equal to SITE_URL's, never to
 * the request's own address, which comes from the Host header the client chose. Browsers always
 * send Origin on a POST; a request with neither Origin nor Sec-Fetch-Site comes from a
 * non-browser client (curl, a script) and cannot carry a visitor's cookies against their will.
 */
export function isAllowedOrigin(request: Request, siteOrigin: string): boolean {
	if (safeMethods.has(request.method)) return true
	const origin = request.headers.get('origin')
	if (origin) return origin === siteOrigin
	const site = request.headers.get('sec-fetch-site')
	return site === null || site === 'same-origin' || site === 'none'
}
