// Fans the change feed out to open article streams. Each change is read from the database once
// per process, serialised once, and written to every stream that has not seen it yet.
import type { ArticleCard } from '#storage/port/articles.ts'
import type { ArticleEvent } from '#app/features/articles/article-types.ts'
import type { Change } from '#storage/port/changes.ts'
import type { Storage } from '#storage/port/storage.ts'

export interface StreamSink {
	/** Writes one chunk; returns false when the sink is gone or was dropped for being slow. */
	write(chunk: string | Uint8Array): boolean
	end(): void
}

interface Subscriber {
	sink: StreamSink
	/** Highest change id this subscriber has been sent (or skipped past). */
	since: number
	live: boolean
}

interface Frame {
	id: number
	/** Encoded once, written to every stream as is. */
	bytes: Buffer
}

export interface BrokerOptions {
	heartbeatMs?: number
	/** Article frames kept in memory for resuming clients before falling back to the database. */
	ringSize?: number
	/** A client further behind than this many changes gets a reset instead of a replay. */
	maxReplay?: number
	onError?: (error: unknown) => void
}

export interface ArticleBroker {
	start(): Promise<void>
	/** Registers a stream that has seen every change up to `since`. */
	subscribe(sink: StreamSink, since: number): Promise<() => void>
	/** Called after each batch of changes (any topic) has been fanned out. */
	onChanges(listener: (changes: Change[]) => void): () => void
	readonly size: number
	readonly lastId: number
	close(): void
}

export function articleFrame(id: number, event: ArticleEvent): string {
	return `id: ${id}\nevent: article\ndata: ${JSON.stringify(event)}\n\n`
}

/** A new configuration version was published (docs/decisions/013-remote-config.md). */
export function configFrame(id: number, version: number): string {
	return `id: ${id}\nevent: config\ndata: ${JSON.stringify({ version })}\n\n`
}

export function resetFrame(id: number): string {
	return `id: ${id}\nevent: reset\ndata: {}\n\n`
}

async function framesFor(storage: Storage, changes: Change[]): Promise<Frame[]> {
	const configFrames = changes
		.filter((change) => change.topic === 'config')
		.map((change) => ({
			id: change.id,
			bytes: Buffer.from(configFrame(change.id, Number(change.entityId))),
		}))
	const articleFrames = await articleFramesFor(storage, changes)
	return configFrames.length === 0
		? articleFrames
		: [...articleFrames, ...configFrames].sort((a, b) => a.id - b.id)
}

async function articleFramesFor(storage: Storage, changes: Change[]): Promise<Frame[]> {
	const articleChanges = changes.filter((change) => change.topic === 'articles')
	if (articleChanges.length === 0) return []
	const wanted = articleChanges
		.filter((change) => change.kind !== 'removed')
		.map((change) => Number(change.entityId))
	const cards = new Map<number, ArticleCard>()
	for (const card of await storage.articles.listPublishedByIds([...new Set(wanted)]))
		cards.set(card.id, card)
	return articleChanges.map((change) => {
		const id = Number(change.entityId)
		const card = change.kind === 'removed' ? undefined : cards.get(id)
		// An article no longer public by the time we read it goes out as removed: the stream never
		// carries a draft, and the later removal event is then a harmless repeat.
		const event: ArticleEvent = card
			? { kind: change.kind as 'added' | 'modified', article: card }
			: { kind: 'removed', id }
		return { id: change.id, bytes: Buffer.from(articleFrame(change.id, event)) }
	})
}

export function createArticleBroker(storage: Storage, options: BrokerOptions = {}): ArticleBroker {
	const heartbeatMs = options.heartbeatMs ?? 15_000
	const ringSize = options.ringSize ?? 1_024
	const maxReplay = options.maxReplay ?? 5_000
	const subscribers = new Set<Subscriber>()
	const listeners = new Set<(changes: Change[]) => void>()
	const ring: Frame[] = []
	// The ring holds every article frame with an id above ringFloor.
	let ringFloor = 0
	let lastId = 0
	let draining: Promise<void> | undefined
	let again = false
	let stopWatch = () => {}
	let heartbeat: NodeJS.Timeout | undefined
	let closed = false
	const onError =
		options.onError ??
		((error: unknown) => console.error('live: could not read the change feed', error))

	const send = (subscriber: Subscriber, frame: Frame) => {
		if (frame.id <= subscriber.since) return
		subscriber.since = frame.id
		if (!subscriber.sink.write(frame.bytes)) subscribers.delete(subscriber)
	}

	const remember = (frames: Frame[]) => {
		ring.push(...frames)
		if (ring.length > ringSize) {
			const evicted = ring.splice(0, ring.length - ringSize)
			ringFloor = evicted.at(-1)?.id ?? ringFloor
		}
	}

	async function drainOnce() {
		for (;;) {
			if (closed) return
			const changes = await storage.changes.after(lastId, 500)
			if (changes.length === 0 || closed) return
			const frames = await framesFor(storage, changes)
			remember(frames)
			lastId = changes.at(-1)?.id ?? lastId
			for (const subscriber of subscribers) {
				if (!subscriber.live) continue
				for (const frame of frames) send(subscriber, frame)
				// Ids of other topics are passed over too, so a resume never asks for them again.
				if (subscriber.since < lastId) subscriber.since = lastId
			}
			for (const listener of listeners) listener(changes)
		}
	}

	function drain(): Promise<void> {
		if (draining) {
			again = true
			return draining
		}
		draining = (async () => {
			try {
				do {
					again = false
					await drainOnce()
				} while (again)
			} finally {
				draining = undefined
			}
		})()
		return draining
	}

	const wake = () => {
		if (closed) return
		// A failed read is retried at the next wake; the watcher wakes us again on every change.
		drain().catch((error) => {
			if (!closed) onError(error)
		})
	}

	const reset = (subscriber: Subscriber) => {
		subscriber.since = lastId
		subscriber.live = true
		if (!subscriber.sink.write(resetFrame(lastId))) subscribers.delete(subscriber)
	}

	return {
		async start() {
			lastId = await storage.changes.latestId()
			ringFloor = lastId
			stopWatch = storage.changes.watch(wake)
			heartbeat = setInterval(() => {
				for (const subscriber of subscribers) {
					if (!subscriber.sink.write(': keep-alive\n\n')) subscribers.delete(subscriber)
				}
			}, heartbeatMs)
			heartbeat.unref()
		},

		async subscribe(sink, since) {
			const subscriber: Subscriber = { sink, since, live: false }
			subscribers.add(subscriber)
			const unsubscribe = () => {
				subscribers.delete(subscriber)
			}
			// A client ahead of us may have read a change this process has not fanned out yet.
			if (since > lastId) await drain()
			const horizon = await storage.changes.horizon()
			if (since > lastId || since < horizon || lastId - since > maxReplay) {
				reset(subscriber)
				return unsubscribe
			}
			if (since < ringFloor) {
				// Older than memory: replay from the table up to where the ring takes over.
				const target = ringFloor
				let cursor = since
				while (cursor < target) {
					const changes = (await storage.changes.after(cursor, 500)).filter(
						(change) => change.id <= target,
					)
					if (changes.length === 0) break
					for (const frame of await framesFor(storage, changes)) send(subscriber, frame)
					cursor = changes.at(-1)?.id ?? target
				}
				if (!subscribers.has(subscriber)) return unsubscribe
				subscriber.since = Math.max(subscriber.since, target)
			}
			// Everything after the ring's floor is in the ring, including what was fanned out
			// while the replay above was waiting on the database.
			if (subscriber.since < ringFloor) {
				reset(subscriber)
				return unsubscribe
			}
			for (const frame of ring) send(subscriber, frame)
			if (subscriber.since < lastId) subscriber.since = lastId
			subscriber.live = true
			return unsubscribe
		},

		onChanges(listener) {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},

		get size() {
			return subscribers.size
		},
		get lastId() {
			return lastId
		},

		close() {
			closed = true
			stopWatch()
			clearInterval(heartbeat)
			for (const subscriber of subscribers) subscriber.sink.end()
			subscribers.clear()
		},
	}
}
