// Screen views are written in batches: one transaction (one disk sync) for up to `maxBatch`
// views, every `flushMs` and as soon as a batch is full, instead of a write per view. The queue
// is bounded: when it is full (the database is slow or down), offer() refuses and the endpoint
// answers 503, so a flood sheds load instead of growing the process until it falls over. A
// failed write keeps its views for the next tick; close() writes what is left.

import type { Logger } from '#app/lib/logger.ts'
import type { ScreenViewWrite } from '#storage/port/analytics.ts'
import type { Storage } from '#storage/port/storage.ts'
import { storageOutage } from '#storage/port/unavailable.ts'

export interface ScreenViewBufferOptions {
	flushMs: number
	maxBatch: number
	maxQueued: number
}

export interface ScreenViewBuffer {
	/** Queues a view; false (and the view is dropped) when the queue is full or closed. */
	offer(view: ScreenViewWrite): boolean
	/** Writes everything queued, a batch at a time; stops at the first failed write. */
	flush(): Promise<void>
	queued(): number
	/** When a refused client may try again: about when the queue next drains. */
	readonly retryAfterSeconds: number
	/** Stops the timer and writes what is queued (server shutdown). */
	close(): Promise<void>
}

export function createScreenViewBuffer(
	storage: Storage,
	logger: Logger,
	{ flushMs = 1_000, maxBatch = 500, maxQueued = 10_000 }: Partial<ScreenViewBufferOptions> = {},
): ScreenViewBuffer {
	let queue: ScreenViewWrite[] = []
	let shed = 0
	let closed = false
	let running: Promise<void> | undefined

	async function drain() {
		let failed: unknown
		while (queue.length > 0) {
			const batch = queue.slice(0, maxBatch)
			try {
				await storage.analytics.record(batch)
			} catch (error) {
				failed = error
				break
			}
			// Views offered meanwhile went to the end: the batch is still at the front.
			queue = queue.slice(batch.length)
			// SQLite writes block the thread: let waiting requests in between batches.
			if (queue.length > 0) await new Promise(setImmediate)
		}
		// At most one line of each kind per flush, however many views it concerns.
		if (shed > 0) {
			logger.warn('analytics: the write queue was full; views were dropped', {
				dropped: shed,
				maxQueued,
			})
			shed = 0
		}
		if (failed !== undefined) {
			// The database away for a while (decision 016) is a warning: views wait in memory.
			const log = storageOutage(failed) ? logger.warn : logger.error
			log('analytics: could not store screen views; they are kept for the next try', {
				queued: queue.length,
				error: failed,
			})
		}
	}

	function flush(): Promise<void> {
		// One write at a time; a flush asked for meanwhile is the running one.
		running ??= drain().finally(() => {
			running = undefined
		})
		return running
	}

	const timer = setInterval(() => void flush(), flushMs)
	timer.unref()

	return {
		offer(view) {
			if (closed || queue.length >= maxQueued) {
				shed++
				return false
			}
			queue.push(view)
			if (queue.length >= maxBatch) void flush()
			return true
		},
		flush,
		queued: () => queue.length,
		retryAfterSeconds: Math.max(1, Math.ceil(flushMs / 1000)),
		async close() {
			closed = true
			clearInterval(timer)
			await running
			await flush()
			if (queue.length > 0) {
				logger.error('analytics: screen views lost at shutdown: the database would not take them', {
					lost: queue.length,
				})
			}
		},
	}
}
