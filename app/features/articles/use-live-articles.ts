// Keeps a server-rendered article list current: subscribes to the stream from the change id the
// list was read at, applies events in order, and resumes after any drop with nothing missed.
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { useRevalidator } from 'react-router'
import { configVersionHeard } from '#app/features/remote-config/config-store.ts'
import { openLiveStream } from '#app/lib/live-stream.client.ts'
import type { ArticleCard, LanguageFilter } from '#storage/port/articles.ts'
import { applyArticleEvent, inScope } from './apply-event.ts'
import type { ArticleEvent } from './article-types.ts'

export function useLiveArticles(
	initial: ArticleCard[],
	changeId: number,
	options: {
		/** False on older pages, where a new article does not belong. */
		acceptsNew: boolean
		/** The list's length (the home page's latest few): the newest this many are kept. */
		limit?: number
		/** A tag's slug: only its articles are shown. */
		tag?: string
		/** An author's slug: only theirs are shown. */
		author?: string
		/** A language: only articles in it are shown (LanguageFilter). */
		language?: LanguageFilter
	},
) {
	const { acceptsNew, limit, tag, author } = options
	// As text: the loader's data is a new object on every revalidation.
	const language = options.language ? JSON.stringify(options.language) : undefined
	const [items, setItems] = useState(initial)
	// What is shown, for the stream's handler: events apply one after another to the latest list.
	const shown = useRef(initial)
	const [announcement, setAnnouncement] = useState('')
	const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set())
	const revalidator = useRevalidator()
	const revalidate = useRef(revalidator.revalidate)
	revalidate.current = revalidator.revalidate
	// The interface's language as it is when an article arrives, for the stream's handler.
	const { i18n } = useLingui()
	const lingui = useRef(i18n)
	lingui.current = i18n

	// New loader data (a navigation or a reset) replaces the list and the stream position.
	useEffect(() => {
		shown.current = initial
		setItems(initial)
	}, [initial])

	useEffect(() => {
		const scope = {
			tag,
			author,
			language: language ? (JSON.parse(language) as LanguageFilter) : undefined,
		}
		let lastId = changeId
		return openLiveStream('/api/articles/stream', changeId, {
			article(message) {
				const id = Number(message.lastEventId)
				if (!(id > lastId)) return
				lastId = id
				const event = JSON.parse(message.data) as ArticleEvent
				const list = shown.current
				const applied = applyArticleEvent(list, event, acceptsNew, scope)
				const next = limit === undefined ? applied : applied.slice(0, limit)
				shown.current = next
				setItems(next)
				// One of a short list's few gone: the one after it is read again.
				if (limit !== undefined && applied.length < list.length && list.length >= limit)
					revalidate.current()
				if (event.kind === 'added' && acceptsNew && inScope(event.article, scope)) {
					const title = event.article.title
					setAnnouncement(lingui.current._(msg`New article: ${title}`))
					setFresh((ids) => new Set(ids).add(event.article.id))
				}
			},
			// A published config version (docs/decisions/013-remote-config.md). Hearing it again
			// after a resume is harmless, as older versions are ignored.
			config(message) {
				try {
					const { version } = JSON.parse(message.data) as { version?: unknown }
					if (typeof version === 'number') configVersionHeard(version)
				} catch {
					// Not the event this page knows: nothing to do.
				}
			},
			reset(message) {
				// Too far behind for a replay: read the list again and go on from the new position.
				lastId = Number(message.lastEventId) || lastId
				revalidate.current()
			},
		})
	}, [changeId, acceptsNew, limit, tag, author, language])

	return { items, announcement, fresh }
}
