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
import type { LookupFunction } from 'node:net'
import {
	type AddressKind,
	addressKind,
	addressPhrases,
	isLocalhost,
	literalAddress,
	lookupHost,
	lookupThrough,
} from '#app/lib/outbound-address.server.ts'

export { addressKind }

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

function allowed(kind: AddressKind | undefined, options: PushHostOptions): boolean {
	return kind === 'public' || (kind === 'loopback' && options.allowLoopback === true)
}

const publicOnly = 'Push services are on the public internet'

function refusal(subject: string, address: string, kind: AddressKind | undefined): string {
	return `${publicOnly}; ${subject} ${address}, ${kind ? addressPhrases[kind] : 'not an IP address'}.`
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
	const found = await lookupHost(name, options.lookupTimeoutMs)
	if (!found.ok)
		return found.notFound
			? { ok: false, error: `The push service’s host, ${name}, was not found.` }
			: {
					ok: false,
					temporary: true,
					error: `The push service’s host, ${name}, could not be looked up just now. Try again in a moment.`,
				}
	for (const address of found.addresses) {
		const kind = addressKind(address)
		if (!allowed(kind, options))
			return { ok: false, error: refusal(`${name} resolves to`, address, kind) }
	}
	return { ok: true, addresses: found.addresses }
}

/**
 * A `lookup` for an HTTPS agent that connects only to addresses resolvePushHost allows: a host
 * that resolved to a public address when the reader subscribed and to an internal one now (DNS
 * rebinding) is refused at connect time. (IP literals never reach a lookup; they were checked
 * when the subscription was stored and cannot change.)
 */
export function checkedLookup(options: PushHostOptions = {}): LookupFunction {
	return lookupThrough((hostname) => resolvePushHost(hostname, options), 'EPUSHHOST')
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
	const host = url.hostname
	const literal = literalAddress(url)
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
