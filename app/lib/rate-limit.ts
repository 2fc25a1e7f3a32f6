// A fixed-window counter per key, in this process's memory: screen views per visitor, searches
// per address. Bounded: past `maxKeys` the oldest window is forgotten.

/**
 * `limit` hits per key in each window of `windowMs`, counted in this process's memory. Per
 * instance on purpose: a counter in the database would cost a write per hit, and limits this
 * coarse (a reader sends a view per page, a search per few seconds) need no agreement between
 * instances. Returns 0 when the hit may go, else the seconds until it may (Retry-After).
 */
export function createRateLimit(limit: number, windowMs: number, maxKeys: number) {
	const windows = new Map<string, { start: number; count: number }>()
	return (key: string, now: number): number => {
		let entry = windows.get(key)
		if (!entry || now < entry.start || now - entry.start >= windowMs) {
			// Re-inserted, so the map stays ordered oldest window first.
			if (entry) windows.delete(key)
			else if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string)
			entry = { start: now, count: 0 }
			windows.set(key, entry)
		}
		if (entry.count >= limit) return Math.max(1, Math.ceil((entry.start + windowMs - now) / 1000))
		entry.count++
		return 0
	}
}
