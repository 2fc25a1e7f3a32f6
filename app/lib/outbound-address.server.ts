// Where the server may send a request that a user's input addressed (a push service, a webhook
// receiver): what kind of address an IP address is, and a host name resolved with every address
// it has. Without such a check, a URL anyone can give is a server-side request forgery: a way to
// make the server call its own network (a database, a metadata service at 169.254.169.254, an
// admin port on 127.0.0.1). The callers decide which kinds they allow and how to say no.
//
// A check when the URL is given is not enough on its own: a name can resolve to a public address
// now and a private one later (DNS rebinding). A sender must resolve the host again when it
// connects and connect to the very addresses checked: lookupThrough, below, makes the `lookup` of
// an HTTP agent from such a check, so the HTTP client never resolves the name by itself.
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

// [first address, prefix length, kind], IPv4; the first match wins. Special-purpose blocks from
// the IANA registry: none of them is a server on the internet.
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

/** How a refusal names each kind of address. */
export const addressPhrases: Record<AddressKind, string> = {
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

export type HostLookup =
	| { ok: true; addresses: string[] }
	/** `temporary`: no answer in time, or a DNS failure; else the name does not exist. */
	| { ok: false; notFound: boolean }

/** Every address a host name has (a bounded wait: a slow resolver is a temporary failure). */
export async function lookupHost(name: string, timeoutMs = 5_000): Promise<HostLookup> {
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
		const addresses = found.map((entry) => entry.address)
		return addresses.length > 0 ? { ok: true, addresses } : { ok: false, notFound: true }
	} catch (error) {
		const code = (error as { code?: unknown }).code
		return { ok: false, notFound: code === 'ENOTFOUND' || code === 'ENODATA' }
	} finally {
		clearTimeout(timer)
	}
}

/**
 * A `lookup` for an HTTP agent that connects only to the addresses `check` allows for the host,
 * at connect time. (IP literals never reach a lookup: check them before the request.)
 */
export function lookupThrough(
	check: (
		hostname: string,
	) => Promise<{ ok: true; addresses: string[] } | { ok: false; error: string }>,
	code: string,
): LookupFunction {
	return (hostname, lookupOptions, callback) => {
		const answer = callback as (
			error: NodeJS.ErrnoException | null,
			address: string | { address: string; family: number }[],
			family?: number,
		) => void
		check(hostname).then(
			(checked) => {
				if (!checked.ok) {
					answer(Object.assign(new Error(checked.error), { code }), '')
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

/** The IP address a URL's host is written as (without brackets), or undefined for a name. */
export function literalAddress(url: URL): string | undefined {
	// URL parsing has already turned every IPv4 spelling (127.1, 0x7f.1, 2130706433, 0177.0.0.1)
	// into its dotted form, and IPv6 into its compressed form in brackets.
	const host = url.hostname
	return host.startsWith('[') ? host.slice(1, -1) : isIPv4(host) ? host : undefined
}

/** RFC 6761: localhost names are this machine whatever a resolver says. */
export function isLocalhost(name: string): boolean {
	return name === 'localhost' || name.endsWith('.localhost')
}
