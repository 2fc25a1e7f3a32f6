// Fans the change feed out to every open live stream, by topic (articles, config, messages: the
// topics server/live/streams.ts lists). Each change is read from the database once per process,
// made into its topic's frame once, and written to every stream of that topic that has not seen it.
import { type LiveTopic, resetFrame } from '#app/lib/live-events.ts'
import type { Change } from '#storage/port/changes.ts'
import type { Storage } from '#storage/port/storage.ts'

export interface StreamSink {
	/** Writes one chunk; returns false when the sink is gone or was dropped for being slow. */
	write(chunk: string | Uint8Array): boolean
	end(): void
}

interface Subscriber {
	sink: StreamSink
	/** The topics this stream carries; other changes only move its position. */
	topics: ReadonlySet<string>
	/** Highest change id this subscriber has been sent (or skipped past). */
	since: number
	live: boolean
}

interface Frame {
	id: number
	topic: string
	/** Encoded once, written to every stream as is. */
	bytes: Buffer
}

export interface BrokerOptions {
	heartbeatMs?: number
	/** Frames kept in memory for resuming clients before falling back to the database. */
	ringSize?: number
	/** A client further behind than this many changes gets a reset instead of a replay. */
	maxReplay?: number
	onError?: (error: unknown) => void
}

export interface LiveBroker {
	start(): Promise<void>
	/** Registers a stream of these topics that has seen every change up to `since`. */
	subscribe(sink: StreamSink, since: number, topics: ReadonlySet<string>): Promise<() => void>
	/** Called after each batch of changes (any topic) has been fanned out. */
	onChanges(listener: (changes: Change[]) => void): () => void
	readonly size: number
	/** Open streams by topic (a stream of several topics counts in each): for the metrics. */
	topicCounts(): Map<string, number>
	readonly lastId: number
	close(): void
}

/** Every topic's frames for a batch of changes, in id order. */
async function framesFor(
	storage: Storage,
	topics: LiveTopic[],
	changes: Change[],
): Promise<Frame[]> {
	const frames: Frame[] = []
	for (const topic of topics) {
		const mine = changes.filter((change) => change.topic === topic.name)
		if (mine.length === 0) continue
		for (const frame of await topic.frames(storage, mine))
			frames.push({ id: frame.id, topic: topic.name, bytes: Buffer.from(frame.text) })
	}
	return frames.sort((a, b) => a.id - b.id)
}

export function createLiveBroker(
	storage: Storage,
	liveTopics: LiveTopic[],
	options: BrokerOptions = {},
): LiveBroker {
	const heartbeatMs = options.heartbeatMs ?? 15_000
	const ringSize = options.ringSize ?? 1_024
	const maxReplay = options.maxReplay ?? 5_000
	const subscribers = new Set<Subscriber>()
	// Open streams by topic, kept as they come and go: read at every metrics scrape.
	const byTopic = new Map<string, number>()
	const join = (subscriber: Subscriber) => {
		subscribers.add(subscriber)
		for (const topic of subscriber.topics) byTopic.set(topic, (byTopic.get(topic) ?? 0) + 1)
	}
	const leave = (subscriber: Subscriber) => {
		if (!subscribers.delete(subscriber)) return
		for (const topic of subscriber.topics) byTopic.set(topic, (byTopic.get(topic) ?? 1) - 1)
	}
	const listeners = new Set<(changes: Change[]) => void>()
	const ring: Frame[] = []
	// The ring holds every frame with an id above ringFloor.
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
		if (!subscriber.topics.has(frame.topic)) return
		if (!subscriber.sink.write(frame.bytes)) leave(subscriber)
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
			const frames = await framesFor(storage, liveTopics, changes)
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
		if (!subscriber.sink.write(resetFrame(lastId))) leave(subscriber)
	}

	return {
		async start() {
			lastId = await storage.changes.latestId()
			ringFloor = lastId
			stopWatch = storage.changes.watch(wake)
			heartbeat = setInterval(() => {
				for (const subscriber of subscribers) {
					if (!subscriber.sink.write(': keep-alive\n\n')) leave(subscriber)
				}
			}, heartbeatMs)
			heartbeat.unref()
		},

		async subscribe(sink, since, topics) {
			const subscriber: Subscriber = { sink, topics, since, live: false }
			join(subscriber)
			const unsubscribe = () => {
				leave(subscriber)
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
					for (const frame of await framesFor(storage, liveTopics, changes)) send(subscriber, frame)
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
		topicCounts() {
			return new Map(byTopic)
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
			byTopic.clear()
		},
	}
}
