// The visitor's address: the socket's, or, when the socket is a proxy named in TRUST_PROXY, the
// address that proxy reports in X-Forwarded-For (walking right to left past every trusted hop).
// A client can write anything into X-Forwarded-For, so it is believed only from a trusted proxy.
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'

function normalise(address: string): string {
	const trimmed = address.trim()
	// IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d.
	return trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4
		? trimmed.slice(7)
		: trimmed.toLowerCase()
}

/** TRUST_PROXY: comma-separated proxy addresses; undefined when an entry is not an IP address. */
export function parseTrustedProxies(value: string): string[] | undefined {
	const entries = value
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean)
	if (entries.some((entry) => isIP(entry) === 0)) return undefined
	return entries.map(normalise)
}

export function clientIp(request: IncomingMessage, trustedProxies: readonly string[]): string {
	let address = normalise(request.socket.remoteAddress ?? '')
	if (trustedProxies.length === 0) return address
	const header = request.headers['x-forwarded-for']
	const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
		.split(',')
		.map(normalise)
		.filter(Boolean)
	while (trustedProxies.includes(address) && hops.length > 0) {
		const next = hops.pop() as string
		if (isIP(next) === 0) break
		address = next
	}
	return address
}
