// React Router's matches of a page's ancestor addresses, worked out once per build.

type Match = (location: unknown) => unknown
/** Each static handler's matcher, made to keep its answers; a handler lives as long as its build. */
const keeping = new WeakMap<Match, Match>()
const addressesKept = 500

/**
 * React Router tells the browser which routes' code a page may need next (its lazy route
 * discovery) by matching the page's ancestor addresses ("/" and "/tags" for /tags/soil) against
 * every route, afresh on every render: a sixth of all a public page allocated (bench/RESULTS.md,
 * 2026-11-28). Routes change only with a build, so each address is matched once per handler.
 * `_match` is the router's own and unpublished: should a release rename it, pages render as
 * before, only without the saving (kept-matches.server.test.ts says so).
 */
export function keepMatches(context: { _match?: unknown }): void {
	const match = context._match as Match | undefined
	if (typeof match !== 'function') return
	let kept = keeping.get(match)
	if (!kept) {
		const known = new Map<string, unknown>()
		kept = (location: unknown) => {
			if (typeof location !== 'string') return match(location)
			if (known.has(location)) return known.get(location)
			// The addresses come from requests: only so many are kept.
			if (known.size >= addressesKept) known.clear()
			const matches = match(location)
			known.set(location, matches)
			return matches
		}
		keeping.set(match, kept)
	}
	context._match = kept
}
