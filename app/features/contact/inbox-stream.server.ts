// The inbox's live updates: a Server-Sent Events stream of message changes, each only
// `{kind, id}` (open pages read the messages themselves, through their loaders, as the signed-in
// editor). Editors are few, so each stream reads the change feed itself; the database watch is
// shared by every stream of a process, so a PostgreSQL server holds one LISTEN for all of them.
import type { Change } from '#storage/port/changes.ts'
import type { Storage } from '#storage/port/storage.ts'

const messagesTopic = 'messages'
const batchSize = 500
/** A client further behind than this reloads the list rather than replaying every change. */
const maxReplay = 1_000

export interface InboxStreamOptions {
	heartbeatMs?: number
	retryMs?: number
}

interface Hub {
	readonly listeners: Set<() => void>
	stop: (() => void) | undefined
}

const hubs = new WeakMap<Storage, Hub>()

/** Calls `wake` after any change commits; the last one to leave stops the shared watch. */
function watchChanges(storage: Storage, wake: () => void): () => void {
	let hub = hubs.get(storage)
	if (!hub) {
		hub = { listeners: new Set(), stop: undefined }
		hubs.set(storage, hub)
	}
	const shared = hub
	shared.listeners.add(wake)
	if (!shared.stop)
		shared.stop = storage.changes.watch(() => {
			for (const listener of shared.listeners) listener()
		})
	return () => {
		shared.listeners.delete(wake)
		if (shared.listeners.size === 0) {
			shared.stop?.()
			shared.stop = undefined
		}
	}
}

/** Where a client resumes: Last-Event-ID on a reconnect, else ?since= from the page. */
function parsePosition(request: Request): number | 'invalid' | undefined {
	const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('since')
	if (raw === null || raw === '') return undefined
	return /^\d{1,15}$/.test(raw) ? Number(raw) : 'invalid'
}

export function messageFrame(change: Change): string {
	const data = JSON.stringify({ kind: change.kind, id: Number(change.entityId) })
	return `id: ${change.id}\nevent: message\ndata: ${data}\n\n`
}

export function inboxStreamResponse(
	storage: Storage,
	request: Request,
	options: InboxStreamOptions = {},
): Response {
	const position = parsePosition(request)
	if (position === 'invalid')
		return Response.json(
			{
				error: 'The stream position is not valid.',
				fields: { since: ['Use the whole-number change id of the last event.'] },
			},
			{ status: 400 },
		)
	const since: number | undefined = position
	const encoder = new TextEncoder()
	let cleanup = () => {}

	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			let cursor = -1
			let closed = false
			let reading: Promise<void> | undefined
			let again = false

			const write = (text: string) => {
				if (!closed && text) controller.enqueue(encoder.encode(text))
			}

			async function readOnce() {
				if (cursor < 0) {
					const latest = await storage.changes.latestId()
					cursor = since ?? latest
					const horizon = await storage.changes.horizon()
					if (
						since !== undefined &&
						(since > latest || since < horizon || latest - since > maxReplay)
					) {
						// Too far behind (or from another database): the page reads everything again.
						cursor = latest
						write(`id: ${latest}\nevent: reset\ndata: {}\n\n`)
						return
					}
				}
				for (;;) {
					if (closed) return
					const changes = await storage.changes.after(cursor, batchSize)
					if (changes.length === 0 || closed) return
					write(
						changes
							.filter((change) => change.topic === messagesTopic)
							.map(messageFrame)
							.join(''),
					)
					cursor = changes.at(-1)?.id ?? cursor
				}
			}

			// One read at a time, and another after it when a wake came in meanwhile.
			const pull = () => {
				if (reading) {
					again = true
					return
				}
				reading = (async () => {
					try {
						do {
							again = false
							await readOnce()
						} while (again && !closed)
					} catch {
						// The next wake reads again; a stream that never recovers is retried by the client.
					} finally {
						reading = undefined
					}
				})()
			}

			write(`retry: ${options.retryMs ?? 3_000}\n\n`)
			const unwatch = watchChanges(storage, pull)
			const heartbeat = setInterval(() => write(': keep-alive\n\n'), options.heartbeatMs ?? 15_000)
			heartbeat.unref()
			cleanup = () => {
				if (closed) return
				closed = true
				clearInterval(heartbeat)
				unwatch()
				request.signal.removeEventListener('abort', cleanup)
				try {
					controller.close()
				} catch {
					// Already closed by the reader going away.
				}
			}
			request.signal.addEventListener('abort', cleanup)
			if (request.signal.aborted) cleanup()
			else pull()
		},
		cancel() {
			cleanup()
		},
	})

	return new Response(body, {
		headers: {
			'Content-Type': 'text/event-stream; charset=utf-8',
			'Cache-Control': 'no-cache, no-transform',
			'X-Accel-Buffering': 'no',
		},
	})
}
