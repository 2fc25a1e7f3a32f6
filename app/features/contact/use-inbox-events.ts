// Tells an open editor page that messages changed (new, read, archived, deleted), so it can read
// them again. Events are coalesced: a burst of changes makes one call.
import { useEffect, useRef } from 'react'

export interface InboxEvent {
	kind: 'added' | 'modified' | 'removed'
	id: number
}

const streamPath = '/admin/messages/stream'
const maxRetryMs = 60_000

export function useInboxEvents(
	since: number,
	onChange: (events: InboxEvent[]) => void,
	delayMs = 250,
) {
	const callback = useRef(onChange)
	callback.current = onChange
	// Only the first position matters: after that EventSource resumes from the last event it saw.
	const start = useRef(since)

	useEffect(() => {
		let source: EventSource | undefined
		let retry: ReturnType<typeof setTimeout> | undefined
		let flush: ReturnType<typeof setTimeout> | undefined
		let pending: InboxEvent[] = []
		let delay = 1_000
		let position = start.current

		const queue = (event: InboxEvent) => {
			pending.push(event)
			if (flush) return
			flush = setTimeout(() => {
				flush = undefined
				const events = pending
				pending = []
				callback.current(events)
			}, delayMs)
		}

		const open = () => {
			source = new EventSource(`${streamPath}?since=${position}`)
			source.addEventListener('open', () => {
				delay = 1_000
			})
			source.addEventListener('message', (message) => {
				position = Number(message.lastEventId) || position
				queue(JSON.parse(message.data) as InboxEvent)
			})
			source.addEventListener('reset', (message) => {
				// Too far behind to replay: anything may have changed.
				position = Number(message.lastEventId) || position
				queue({ kind: 'modified', id: 0 })
			})
			source.addEventListener('error', () => {
				// A dropped connection is retried by EventSource itself; an HTTP error (a restarting
				// server, an expired session) closes it for good, so reopen it, backing off.
				if (source?.readyState !== EventSource.CLOSED) return
				source.close()
				retry = setTimeout(open, delay)
				delay = Math.min(delay * 2, maxRetryMs)
			})
		}
		open()
		return () => {
			clearTimeout(retry)
			clearTimeout(flush)
			source?.close()
		}
	}, [delayMs])
}
