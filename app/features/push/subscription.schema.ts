// What a browser sends to subscribe and unsubscribe: PushSubscription.toJSON() as the Push API
// gives it ({ endpoint, expirationTime, keys: { p256dh, auth } }). The endpoint's address is
// checked apart (push-endpoint.server.ts), as that needs the network.
import * as z from 'zod/mini'

// In the browser zod would probe for `new Function` to compile faster parsers; the page's CSP
// forbids eval, and the probe alone is reported as a violation.
if (typeof document !== 'undefined') z.config({ jitless: true })

export const pushLimits = {
	endpoint: 1_000,
	/** RFC 8291: the browser's P-256 public key, uncompressed (0x04, x, y). */
	p256dhBytes: 65,
	/** RFC 8291: the browser's authentication secret. */
	authBytes: 16,
} as const

/** The bytes of URL-safe base64 (padding allowed, as some clients add it); undefined if it is not. */
export function base64urlBytes(value: string): Uint8Array | undefined {
	const bare = value.replace(/={1,2}$/, '')
	if (!/^[A-Za-z0-9_-]*$/.test(bare) || bare.length % 4 === 1) return undefined
	const binary = atob(bare.replace(/-/g, '+').replace(/_/g, '/'))
	return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}

const endpointMessage = 'The endpoint must be the https: address the browser’s push service gave.'

const endpoint = z.string({ error: endpointMessage }).check(
	z.minLength(1, { error: endpointMessage, abort: true }),
	z.maxLength(pushLimits.endpoint, {
		error: `The endpoint is longer than ${pushLimits.endpoint.toLocaleString('en-US')} characters; no push service gives one that long.`,
		abort: true,
	}),
)

/** A key in URL-safe base64 whose bytes pass `check`; stored without padding. */
const key = (message: string, check: (bytes: Uint8Array) => boolean) =>
	z.pipe(
		z.string({ error: message }).check(
			z.refine((value) => {
				const bytes = base64urlBytes(value)
				return bytes !== undefined && check(bytes)
			}, message),
		),
		z.transform((value: string) => value.replace(/=+$/, '')),
	)

const p256dhMessage = `keys.p256dh must be the browser’s P-256 public key: ${pushLimits.p256dhBytes} bytes, uncompressed, in URL-safe base64.`
const authMessage = `keys.auth must be the browser’s ${pushLimits.authBytes}-byte secret, in URL-safe base64.`
const expirationMessage =
	'expirationTime must be null or the time the subscription ends, in milliseconds since 1970.'

export const subscriptionSchema = z.object({
	endpoint,
	keys: z.object(
		{
			p256dh: key(
				p256dhMessage,
				(bytes) => bytes.length === pushLimits.p256dhBytes && bytes[0] === 0x04,
			),
			auth: key(authMessage, (bytes) => bytes.length === pushLimits.authBytes),
		},
		{ error: 'keys must hold the browser’s p256dh and auth keys.' },
	),
	expirationTime: z.optional(
		z.nullable(
			z
				.number({ error: expirationMessage })
				.check(
					z.refine(
						(value) => Number.isInteger(value) && value >= 0 && value <= 8.64e15,
						expirationMessage,
					),
				),
		),
	),
})

export type SubscriptionInput = z.infer<typeof subscriptionSchema>

export const unsubscribeSchema = z.object({ endpoint })
