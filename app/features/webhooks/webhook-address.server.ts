// Which addresses webhooks may be sent to. An admin types the URL, and Canopy POSTs to it from
// the server, with retries, for a day: pointed at 127.0.0.1:5432, 169.254.169.254 or a router's
// admin page, that is a server-side request forgery. So by default an endpoint must be https:
// and reach public addresses only, checked when it is saved and again at every connection
// (webhookLookup: a name that resolves elsewhere later is refused then). An admin may allow this
// machine and private networks (an n8n on the same server or LAN): then http: is allowed too, to
// those addresses only (checked as it is sent: every address of the name private), and
// single-label names (a container's). Link-local addresses (169.254.0.0/16, fe80::/10: cloud
// metadata services) and the unspecified, multicast and reserved blocks never are.
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

export interface WebhookAddressOptions {
	/** The admin's setting: this machine and private networks allowed. */
	allowPrivate: boolean
	lookupTimeoutMs?: number
}

export type WebhookUrlCheck =
	| { ok: true; url: URL }
	/** `temporary`: the name could not be looked up just now. */
	| { ok: false; error: string; temporary?: boolean }

/** The kinds an admin's setting lets through besides public addresses. */
const privateKinds: AddressKind[] = ['loopback', 'private', 'unique-local', 'carrier-grade NAT']

function allowed(kind: AddressKind | undefined, options: WebhookAddressOptions): boolean {
	return (
		kind === 'public' || (options.allowPrivate && kind !== undefined && privateKinds.includes(kind))
	)
}

function refusal(
	subject: string,
	address: string,
	kind: AddressKind | undefined,
	options: WebhookAddressOptions,
) {
	const hint =
		!options.allowPrivate && kind && privateKinds.includes(kind)
			? ' To send to this machine or your own network, allow private addresses in the webhook settings.'
			: ''
	return `${subject} ${address}, ${kind ? addressPhrases[kind] : 'not an IP address'}: webhooks are not sent there.${hint}`
}

/** Resolves the host and checks every address it has: one refused address refuses the host. */
async function resolveWebhookHost(
	name: string,
	options: WebhookAddressOptions,
): Promise<{ ok: true; addresses: string[] } | { ok: false; error: string; temporary?: boolean }> {
	const found = await lookupHost(name, options.lookupTimeoutMs)
	if (!found.ok)
		return found.notFound
			? { ok: false, error: `The host ${name} was not found.` }
			: {
					ok: false,
					temporary: true,
					error: `The host ${name} could not be looked up just now. Try again in a moment.`,
				}
	for (const address of found.addresses) {
		const kind = addressKind(address)
		if (!allowed(kind, options))
			return { ok: false, error: refusal(`${name} resolves to`, address, kind, options) }
	}
	return { ok: true, addresses: found.addresses }
}

/**
 * Checks an endpoint's URL: http(s), no user name or password, no fragment, an allowed address.
 * `resolve: false` skips looking up a host name (the sender's lookup checks it as it connects).
 */
export async function checkWebhookUrl(
	text: string,
	options: WebhookAddressOptions,
	{ resolve = true }: { resolve?: boolean } = {},
): Promise<WebhookUrlCheck> {
	let url: URL
	try {
		url = new URL(text.trim())
	} catch {
		return { ok: false, error: 'Enter the full address, like https://hooks.example.org/canopy.' }
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return { ok: false, error: 'The address must start with https://.' }
	if (url.protocol === 'http:' && !options.allowPrivate)
		return {
			ok: false,
			error:
				'The address must be https: the events carry readers’ messages and addresses. (http: is allowed for private addresses, when the webhook settings allow them.)',
		}
	if (url.username || url.password)
		return { ok: false, error: 'The address must not carry a user name or password.' }
	if (url.hash) return { ok: false, error: 'The address must not have a #fragment.' }
	// http: carries readers' messages in the clear: only to this machine or a private network.
	const plain = url.protocol === 'http:'
	const plainRefused = `${url.host} is on the internet: the address must be https, as the events carry readers’ messages and addresses.`
	const literal = literalAddress(url)
	if (literal !== undefined) {
		const kind = addressKind(literal)
		if (!allowed(kind, options))
			return { ok: false, error: refusal('Its address is', literal, kind, options) }
		return plain && kind === 'public' ? { ok: false, error: plainRefused } : { ok: true, url }
	}
	const host = url.hostname
	const name = host.endsWith('.') ? host.slice(0, -1) : host
	if (isLocalhost(name))
		return options.allowPrivate
			? { ok: true, url }
			: { ok: false, error: refusal('Its host is', host, 'loopback', options) }
	// A single-label name is found through the server's search domains: a local name.
	if (!name.includes('.'))
		return options.allowPrivate
			? { ok: true, url }
			: {
					ok: false,
					error: `${host} is not a full host name, like hooks.example.org. (Names on your own network are allowed when the webhook settings allow private addresses.)`,
				}
	if (!resolve && !plain) return { ok: true, url }
	const resolved = await resolveWebhookHost(name, options)
	if (!resolved.ok) return resolved
	// Every address private, or it is a host on the internet.
	if (plain && resolved.addresses.some((address) => addressKind(address) === 'public'))
		return { ok: false, error: plainRefused }
	return { ok: true, url }
}

/** The `lookup` of the sender's agents: connects only to addresses the setting allows. */
export function webhookLookup(options: WebhookAddressOptions): LookupFunction {
	return lookupThrough((hostname) => resolveWebhookHost(hostname, options), 'EWEBHOOKHOST')
}
