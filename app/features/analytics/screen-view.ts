// One screen view, as the browser sends it to POST /api/collect: which screen, the address
// (only the campaign parameters of its query string), the title, where the reader came from, a
// width class and the language. Nothing here identifies the reader. Every page loads this file
// (root.tsx), so it stays a few hundred bytes: no schema library, the server checks everything.

export type DeviceClass = 'mobile' | 'tablet' | 'desktop'

/** What a public route module exports, so its views are named the same in every report. */
export interface ScreenHandle {
	screen: string
}

export interface ScreenViewPayload {
	screen: string
	path: string
	title: string
	/** On arrival, the page the browser came from (document.referrer); after, the previous path. */
	referrer: string
	device: DeviceClass
	language: string
}

interface ScreenLocation {
	key: string
	pathname: string
	search: string
}

export const collectPath = '/api/collect'

/** The pathname with only the `utm_*` and `ref` parameters kept (anything else may be personal). */
export const trackedPath = (pathname: string, search: string): string =>
	pathname + `&${search.slice(1)}`.replace(/&(?!utm_|ref=)[^&]*/g, '').replace('&', '?')

/** Do Not Track or Global Privacy Control: the reader asked not to be counted. */
export const optedOut = (
	nav: { doNotTrack?: string | null; globalPrivacyControl?: boolean },
	win: object,
): boolean =>
	nav.doNotTrack === '1' ||
	(win as { doNotTrack?: unknown }).doNotTrack === '1' ||
	nav.globalPrivacyControl === true

/**
 * Remembers the location last seen and says what to send for the next one: a view, or nothing
 * when it is not a new screen. The same location again (a re-render, a revalidation, React's
 * StrictMode running effects twice) keeps its key; a change of the hash alone, or the same
 * address reached again, is the same screen; the editor area is never counted.
 */
export function createScreenViews() {
	let last: ScreenLocation | undefined
	return (
		location: ScreenLocation,
		screen: string,
		title: string,
		referrer: string,
		width: number,
		language: string,
	): ScreenViewPayload | undefined => {
		const { key, pathname, search } = location
		const before = last
		if (before?.key === key) return
		last = location
		if (before && before.pathname + before.search === pathname + search) return
		if (/^\/admin(\/|$)/.test(pathname)) return
		return {
			screen,
			path: trackedPath(pathname, search),
			title,
			referrer: before ? before.pathname : referrer,
			device: width < 640 ? 'mobile' : width < 1024 ? 'tablet' : 'desktop',
			language,
		}
	}
}

/**
 * Fire and forget: a beacon outlives the page, and neither it nor the fetch that stands in for
 * it (no sendBeacon, or a full beacon queue) throws or rejects where the reader would notice.
 */
export function sendScreenView(view: ScreenViewPayload): void {
	const body = JSON.stringify(view)
	navigator.sendBeacon?.(collectPath, body) ||
		fetch(collectPath, { method: 'POST', body, keepalive: true }).catch(() => {})
}
