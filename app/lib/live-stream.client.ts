// Opens one of the server's live streams (server/live/streams.ts) in the browser and keeps it
// open: EventSource retries a dropped connection by itself, but gives up for good on an HTTP
// error (a restarting server's 503, an expired session's redirect); then this reopens it from
// the last event heard, backing off. Both live pages (articles, inbox) use it.

export type LiveHandlers = Record<string, (message: MessageEvent<string>) => void>

/** Returns the function that closes it for good. */
export function openLiveStream(
	path: string,
	since: number,
	handlers: LiveHandlers,
	maxRetryMs = 30_000,
): () => void {
	let source: EventSource | undefined
	let retry: ReturnType<typeof setTimeout> | undefined
	let delay = 1_000
	let position = since

	const open = () => {
		source = new EventSource(`${path}?since=${position}`)
		source.addEventListener('open', () => {
			delay = 1_000
		})
		for (const [event, handle] of Object.entries(handlers)) {
			source.addEventListener(event, (message) => {
				position = Number(message.lastEventId) || position
				handle(message)
			})
		}
		source.addEventListener('error', () => {
			if (source?.readyState !== EventSource.CLOSED) return
			source.close()
			retry = setTimeout(open, delay)
			delay = Math.min(delay * 2, maxRetryMs)
		})
	}
	// A page kept for the Back button (the back/forward cache) would keep its stream open, and a
	// browser opens at most six connections to a site over HTTP/1.1: after a few such pages the
	// next one never loaded. The stream closes as the page is left and, if the page is shown
	// again, reopens from the last event heard, so nothing published meanwhile is missed.
	let left = false
	const onPageHide = () => {
		left = true
		clearTimeout(retry)
		source?.close()
	}
	const onPageShow = (event: PageTransitionEvent) => {
		if (!event.persisted || !left) return
		left = false
		delay = 1_000
		open()
	}
	window.addEventListener('pagehide', onPageHide)
	window.addEventListener('pageshow', onPageShow)
	open()
	return () => {
		window.removeEventListener('pagehide', onPageHide)
		window.removeEventListener('pageshow', onPageShow)
		clearTimeout(retry)
		source?.close()
	}
}
