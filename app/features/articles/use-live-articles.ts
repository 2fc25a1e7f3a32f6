// Keeps a server-rendered article list current: subscribes to the stream from the change id the
// list was read at, applies events in order, and resumes after any drop with nothing missed.
import { useEffect, useRef, useState } from 'react'
import { useRevalidator } from 'react-router'
import { configVersionHeard } from '#app/features/remote-config/config-store.ts'
import { applyArticleEvent } from './apply-event.ts'
import type { ArticleCard } from '#storage/port/articles.ts'
import type { ArticleEvent } from './article-types.ts'

const maxRetryMs = 30_000

export function useLiveArticles(initial: ArticleCard[], changeId: number, acceptsNew: boolean) {
	const [items, setItems] = useState(initial)
	const [announcement, setAnnouncement] = useState('')
	const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set())
	const revalidator = useRevalidator()
	const revalidate = useRef(revalidator.revalidate)
	revalidate.current = revalidator.revalidate

	// New loader data (a navigation or a reset) replaces the list and the stream position.
	useEffect(() => {
		setItems(initial)
	}, [initial])

	useEffect(() => {
		let lastId = changeId
		let source: EventSource | undefined
		let retry: ReturnType<typeof setTimeout> | undefined
		let delay = 1_000

		const open = () => {
			source = new EventSource(`/api/articles/stream?since=${lastId}`)
			source.addEventListener('open', () => {
				delay = 1_000
			})
			source.addEventListener('article', (message) => {
				const id = Number(message.lastEventId)
				if (!(id > lastId)) return
				lastId = id
				const event = JSON.parse(message.data) as ArticleEvent
				setItems((list) => applyArticleEvent(list, event, acceptsNew))
				if (event.kind === 'added' && acceptsNew) {
					setAnnouncement(`New article: ${event.article.title}`)
					setFresh((ids) => new Set(ids).add(event.article.id))
				}
			})
			// A published config version (docs/decisions/013-remote-config.md). Its id does not move
			// the list's position: hearing it again after a resume is harmless, as older versions
			// are ignored.
			source.addEventListener('config', (message) => {
				try {
					const { version } = JSON.parse(message.data) as { version?: unknown }
					if (typeof version === 'number') configVersionHeard(version)
				} catch {
					// Not the event this page knows: nothing to do.
				}
			})
			source.addEventListener('reset', (message) => {
				// Too far behind for a replay: read the list again and go on from the new position.
				lastId = Number(message.lastEventId) || lastId
				revalidate.current()
			})
			source.addEventListener('error', () => {
				// EventSource retries a dropped connection by itself, but gives up for good on an
				// HTTP error (a restarting server's 503); then we reopen it, backing off.
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
	}, [changeId, acceptsNew])

	return { items, announcement, fresh }
}
