// A server's Retry-After header, read for the workers that send to other servers (push, webhooks).

/**
 * Retry-After (RFC 9110 §10.2.3) in milliseconds from `now`: delay-seconds or an HTTP date.
 * Undefined when missing or unreadable.
 */
export function parseRetryAfter(value: unknown, now: Date): number | undefined {
	const text = Array.isArray(value) ? value[0] : value
	if (typeof text !== 'string' || !text.trim()) return undefined
	const trimmed = text.trim()
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000
	// Date.parse takes many forms; an HTTP date always names a weekday or month in letters.
	if (!/[a-z]/i.test(trimmed)) return undefined
	const at = Date.parse(trimmed)
	if (Number.isNaN(at)) return undefined
	return Math.max(0, at - now.getTime())
}
