// Tells an open editor page that messages changed (new, read, archived, deleted), so it can read
// them again. Events are coalesced: a burst of changes makes one call.
import { useEffect, useRef } from 'react'
import { openLiveStream } from '#app/lib/live-stream.client.ts'

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
		let flush: ReturnType<typeof setTimeout> | undefined
		let pending: InboxEvent[] = []

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

		const close = openLiveStream(
			streamPath,
			start.current,
			{
				message: (message) => queue(JSON.parse(message.data) as InboxEvent),
				// Too far behind to replay: anything may have changed.
				reset: () => queue({ kind: 'modified', id: 0 }),
			},
			maxRetryMs,
		)
		return () => {
			clearTimeout(flush)
			close()
		}
	}, [delayMs])
}
