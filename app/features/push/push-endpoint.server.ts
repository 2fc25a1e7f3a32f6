// Which push endpoints Canopy will send to. An endpoint is a URL that anyone can post to
// /api/push/subscriptions, and Canopy later POSTs to it from the server: without these rules that
// is a server-side request forgery, a way to make the server call its own network (a database,
// a metadata service at 169.254.169.254, an admin port on 127.0.0.1). So an endpoint must be
// https: and must reach a public address on the internet, whether written as an IP address (in
// any form URL parsing accepts: 127.1, 0x7f.1, 2130706433, [::ffff:127.0.0.1]) or as a host name,
// which is resolved here and must resolve to public addresses only.
//
// Any port is allowed: push services are run by browser makers and others (self-hosted ones
// too) on ports of their choosing, and what keeps a request off internal services is the
// address, not the port: a public host is as public on port 8443 as on 443. The request itself
// is always an HTTPS POST of an encrypted body, with a VAPID token bound to that origin.
//
// A check at subscribe time is not enough on its own: a name can resolve to a public address
// now and a private one later (DNS rebinding). The delivery worker must resolve the host again
// at send time and connect to the very addresses checked: checkedLookup, below, is the `lookup`
// of the worker's HTTPS agent, so the HTTP client never resolves the name by itself.
import { lookup } from 'node:dns/promises'
import { isIPv4, isIPv6, type LookupFunction } from 'node:net'

export type AddressKind =
	| 'public'
	| 'unspecified'
	| 'loopback'
	| 'private'
	| 'carrier-grade NAT'
	| 'link-local'
	| 'unique-local'
	| 'multicast'
	| 'reserved'

export interface PushHostOptions {
	/**
	 * Lets loopback addresses and localhost names through, for a push service played by a test
	 * on this machine. Set only from code (startTestApp), never from the environment: a setting
	 * an operator could turn on would reopen the server's own ports to anyone who subscribes.
	 */
	allowLoopback?: boolean
	/** How long a host name may take to resolve. */
	lookupTimeoutMs?: number
}

export type PushHostCheck =
	| { ok: true; addresses: string[] }
	/** `temporary`: the name could not be looked up just now (no answer in time, a DNS failure). */
	| { ok: false; error: string; temporary?: boolean }

export type PushEndpointCheck =
	| { ok: true; url: URL; addresses: string[] }
	| (PushHostCheck & { ok: false })

// [first address, prefix length, kind], IPv4; the first match wins. Special-purpose blocks from
// the IANA registry: none of them is a push service on the internet.
const ipv4Blocks: [string, number, AddressKind][] = [
	['0.0.0.0', 8, 'unspecified'],
	['10.0.0.0', 8, 'private'],
	['100.64.0.0', 10, 'carrier-grade NAT'],
	['127.0.0.0', 8, 'loopback'],
	['169.254.0.0', 16, 'link-local'],
	['172.16.0.0', 12, 'private'],
	['192.0.0.0', 24, 'reserved'],
	['192.0.2.0', 24, 'reserved'],
	['192.88.99.0', 24, 'reserved'],
	['192.168.0.0', 16, 'private'],
	['198.18.0.0', 15, 'reserved'],
	['198.51.100.0', 24, 'reserved'],
	['203.0.113.0', 24, 'reserved'],
	['224.0.0.0', 4, 'multicast'],
	['240.0.0.0', 4, 'reserved'],
]

function ipv4Number(address: string): number {
	return address.split('.').reduce((n, part) => n * 256 + Number(part), 0)
}

const ipv4Ranges = ipv4Blocks.map(([first, bits, kind]) => ({
	start: ipv4Number(first),
	size: 2 ** (32 - bits),
	kind,
}))

function ipv4Kind(n: number): AddressKind {
	return (
		ipv4Ranges.find((range) => n >= range.start && n < range.start + range.size)?.kind ?? 'public'
	)
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
	let text = address.replace(/%.*$/, '')
	const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1]
	if (dotted) {
		const n = ipv4Number(dotted)
		text = `${text.slice(0, -dotted.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
	}
	const [head = '', tail] = text.split('::')
	const groups = (part: string) =>
		part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []
	if (tail === undefined) return groups(head)
	const start = groups(head)
	const end = groups(tail)
	return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end]
}

function ipv6Kind(address: string): AddressKind {
	const g = ipv6Groups(address)
	const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
	const embedded = (high: number, low: number) => ipv4Kind(high * 65_536 + low)
	if (g.every((group) => group === 0)) return 'unspecified'
	if (g.slice(0, 7).every((group) => group === 0) && g7 === 1) return 'loopback'
	// IPv4 inside IPv6: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4
	// (2002:AABB:CCDD::) reach the IPv4 address they carry, so they are what it is.
	if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff)
		return embedded(g6, g7)
	if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
		return embedded(g6, g7)
	if (g0 === 0x2002) return embedded(g1, g2)
	if ((g0 & 0xfe00) === 0xfc00) return 'unique-local'
	if ((g0 & 0xffc0) === 0xfe80) return 'link-local'
	if ((g0 & 0xff00) === 0xff00) return 'multicast'
	// Only 2000::/3 is global unicast; the rest (IPv4-compatible ::a.b.c.d, discard-only 100::/64,
	// the old site-local fec0::/10 …) is not on the internet.
	if ((g0 & 0xe000) !== 0x2000) return 'reserved'
	// 2001::/23: protocol assignments, Teredo (2001::/32) among them; documentation prefixes.
	if (g0 === 0x2001 && g1 < 0x200) return 'reserved'
	if (g0 === 0x2001 && g1 === 0xdb8) return 'reserved'
	if (g0 === 0x3fff && g1 < 0x1000) return 'reserved'
	return 'public'
}

/** What kind of address an IP address (v4 or v6, without brackets) is; undefined for a non-address. */
export function addressKind(address: string): AddressKind | undefined {
	if (isIPv4(address)) return ipv4Kind(ipv4Number(address))
	if (isIPv6(address)) return ipv6Kind(address)
	return undefined
}

function allowed(kind: AddressKind | undefined, options: PushHostOptions): boolean {
	return kind === 'public' || (kind === 'loopback' && options.allowLoopback === true)
}

const publicOnly = 'Push services are on the public internet'

const phrases: Record<AddressKind, string> = {
	public: 'a public address',
	unspecified: 'an unspecified address',
	loopback: 'a loopback address (this machine)',
	private: 'a private address',
	'carrier-grade NAT': 'a carrier-grade NAT address',
	'link-local': 'a link-local address',
	'unique-local': 'a unique-local address',
	multicast: 'a multicast address',
	reserved: 'a reserved address',
}

function refusal(subject: string, address: string, kind: AddressKind | undefined): string {
	return `${publicOnly}; ${subject} ${address}, ${kind ? phrases[kind] : 'not an IP address'}.`
}

function isLocalhost(name: string): boolean {
	return name === 'localhost' || name.endsWith('.localhost')
}

/**
 * Resolves a push service's host name and checks every address it has: one private address is
 * enough to refuse it, as a connection could go to any of them. On success, the addresses are
 * the ones to connect to.
 */
export async function resolvePushHost(
	name: string,
	options: PushHostOptions = {},
): Promise<PushHostCheck> {
	const timeoutMs = options.lookupTimeoutMs ?? 5_000
	let addresses: string[]
	let timer: NodeJS.Timeout | undefined
	try {
		const found = await Promise.race([
			lookup(name, { all: true, verbatim: true }),
			new Promise<never>((_, reject) => {
				timer = setTimeout(
					() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })),
					timeoutMs,
				)
			}),
		])
		addresses = found.map((entry) => entry.address)
	} catch (error) {
		const code = (error as { code?: unknown }).code
		if (code === 'ENOTFOUND' || code === 'ENODATA')
			return { ok: false, error: `The push service’s host, ${name}, was not found.` }
		return {
			ok: false,
			temporary: true,
			error: `The push service’s host, ${name}, could not be looked up just now. Try again in a moment.`,
		}
	} finally {
		clearTimeout(timer)
	}
	if (addresses.length === 0)
		return { ok: false, error: `The push service’s host, ${name}, was not found.` }
	for (const address of addresses) {
		const kind = addressKind(address)
		if (!allowed(kind, options))
			return { ok: false, error: refusal(`${name} resolves to`, address, kind) }
	}
	return { ok: true, addresses }
}

/**
 * A `lookup` for an HTTPS agent that connects only to addresses resolvePushHost allows: a host
 * that resolved to a public address when the reader subscribed and to an internal one now (DNS
 * rebinding) is refused at connect time. (IP literals never reach a lookup; they were checked
 * when the subscription was stored and cannot change.)
 */
export function checkedLookup(options: PushHostOptions = {}): LookupFunction {
	return (hostname, lookupOptions, callback) => {
		const answer = callback as (
			error: NodeJS.ErrnoException | null,
			address: string | { address: string; family: number }[],
			family?: number,
		) => void
		resolvePushHost(hostname, options).then(
			(checked) => {
				if (!checked.ok) {
					answer(Object.assign(new Error(checked.error), { code: 'EPUSHHOST' }), '')
					return
				}
				const found = checked.addresses.map((address) => ({
					address,
					family: isIPv6(address) ? 6 : 4,
				}))
				const [first] = found
				if (lookupOptions.all) answer(null, found)
				else if (first) answer(null, first.address, first.family)
			},
			(error: NodeJS.ErrnoException) => answer(error, ''),
		)
	}
}

/** Checks a subscription's endpoint: https:, no credentials, a public address or host name. */
export async function checkPushEndpoint(
	endpoint: string,
	options: PushHostOptions = {},
): Promise<PushEndpointCheck> {
	let url: URL
	try {
		url = new URL(endpoint)
	} catch {
		return {
			ok: false,
			error: 'The endpoint must be the full https: address the push service gave.',
		}
	}
	if (url.protocol !== 'https:')
		return {
			ok: false,
			error: 'The endpoint must be an https: address: push messages are sent over TLS only.',
		}
	if (url.username || url.password)
		return { ok: false, error: 'The endpoint must not carry a user name or password.' }
	// URL parsing has already turned every IPv4 spelling (127.1, 0x7f.1, 2130706433, 0177.0.0.1)
	// into its dotted form, and IPv6 into its compressed form in brackets.
	const host = url.hostname
	const literal = host.startsWith('[') ? host.slice(1, -1) : isIPv4(host) ? host : undefined
	if (literal !== undefined) {
		const kind = addressKind(literal)
		return allowed(kind, options)
			? { ok: true, url, addresses: [literal] }
			: { ok: false, error: refusal('this endpoint’s address is', literal, kind) }
	}
	const name = host.endsWith('.') ? host.slice(0, -1) : host
	// RFC 6761: localhost names are this machine whatever a resolver says.
	if (isLocalhost(name) && !options.allowLoopback)
		return { ok: false, error: `${publicOnly}; ${host} is this machine.` }
	// A single-label name is found through the server's search domains: a local name.
	if (!name.includes('.') && !isLocalhost(name))
		return {
			ok: false,
			error: `${publicOnly}; ${host} is not a full host name, like push.example.net.`,
		}
	const resolved = await resolvePushHost(name, options)
	return resolved.ok ? { ok: true, url, addresses: resolved.addresses } : resolved
}
