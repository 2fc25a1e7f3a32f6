// What the service worker makes of a push message and of a click on its notification. Kept
// apart from service-worker.ts (which only wires events) so it can be tested without a browser.
/** What Canopy sends for a new article (delivery.server.ts), at most 3,993 bytes of JSON. */
export interface PushPayload {
	title: string
	summary: string
	/** The article's absolute address. */
	url: string
	/** The site's logo, absolute. */
	icon: string
}

export interface Notice {
	title: string
	options: NotificationOptions & { data: { url: string } }
}

const articlesPath = '/articles'

/**
 * Only this site's own pages are opened from a notification: a payload naming another origin
 * (which Canopy never sends) opens the articles page instead.
 */
function ownUrl(value: unknown, origin: string): string {
	if (typeof value !== 'string') return new URL(articlesPath, origin).href
	try {
		const url = new URL(value, origin)
		return url.origin === origin ? url.href : new URL(articlesPath, origin).href
	} catch {
		return new URL(articlesPath, origin).href
	}
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')

/**
 * The notification for a push message (delivery.server.ts's payload: title, summary, url, icon).
 * A browser requires every push to show something, so a message that cannot be read still shows a
 * plain "New article" that opens the articles page. The tag is the article's address: should the
 * same notice arrive twice (a retry after a lost answer), the second replaces the first.
 */
export function noticeFor(message: string | undefined, origin: string): Notice {
	let payload: Partial<Record<keyof PushPayload, unknown>> = {}
	try {
		const parsed: unknown = JSON.parse(message ?? '')
		if (parsed && typeof parsed === 'object') payload = parsed
	} catch {}
	const url = ownUrl(payload.url, origin)
	const icon = text(payload.icon)
	return {
		title: text(payload.title) || 'New article',
		options: {
			body: text(payload.summary),
			tag: url,
			data: { url },
			...(icon ? { icon } : {}),
		},
	}
}

/** The address a clicked notification opens, from its data (the site's articles page if unclear). */
export function clickedUrl(data: unknown, origin: string): string {
	return ownUrl((data as { url?: unknown } | null)?.url, origin)
}

/** An open tab already showing the address (its fragment aside), to focus instead of a new one. */
export function tabShowing<Tab extends { url: string }>(tabs: readonly Tab[], url: string) {
	const bare = (address: string) => address.split('#')[0]
	return tabs.find((tab) => bare(tab.url) === bare(url))
}
