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
	open()
	return () => {
		clearTimeout(retry)
		source?.close()
	}
}
