// Every live stream (Server-Sent Events), answered by one plain Node handler ahead of Hono
// (server/app.ts): a stream lives for hours, and nothing of a framework request should stay in
// memory with it. Each stream is a set of the broker's topics; a broadcast costs one socket write
// per client (bench/live-fanout.ts). One position format, one resume path (the broker's), one
// slow-client policy; the browser's side is app/lib/event-source.client.ts.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fromNodeHeaders } from 'better-auth/node'
import { articlesTopic } from '#app/features/articles/live-articles.server.ts'
import type { Auth } from '#app/features/auth/auth.server.ts'
import { editorOf, signInAddress } from '#app/features/auth/editor-session.server.ts'
import { messagesTopic } from '#app/features/contact/live-messages.server.ts'
import { configTopic } from '#app/features/remote-config/live-config.server.ts'
import { invalidPositionAnswer, type LiveTopic, parseStreamPosition } from '#app/lib/live-events.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { StorageHealth } from '#storage/port/unavailable.ts'
import { outageMessage } from '../outage.ts'
import { securityHeaders } from '../security.ts'
import type { LiveBroker } from './broker.ts'

/** Every topic of the change feed that open pages hear, each made by its feature. */
export const liveTopics: LiveTopic[] = [articlesTopic, configTopic, messagesTopic]

export const articleStreamPath = '/api/articles/stream'
export const inboxStreamPath = '/admin/messages/stream'

interface LiveStream {
	path: string
	/** The broker's topics it carries (app/features/*\/live-*.server.ts). */
	topics: ReadonlySet<string>
	/** Signed-in editors only: anyone else is sent to sign in, as by the editor area's pages. */
	editors: boolean
}

/** The streams, by path: the server's route table (server/routes.ts) lists them too. */
export const liveStreams: readonly LiveStream[] = [
	// Open article lists (use-live-articles.ts), and every page's configuration version.
	{ path: articleStreamPath, topics: new Set(['articles', 'config']), editors: false },
	// The inbox's open pages (use-inbox-events.ts): `{kind, id}` of each message change.
	{ path: inboxStreamPath, topics: new Set(['messages']), editors: true },
]

export interface StreamOptions {
	https: boolean
	/** The database's state: while it is away, a new stream is refused with 503 and Retry-After. */
	health?: StorageHealth
	/** A client whose unsent backlog passes this is dropped, so it cannot hold memory or slow others. */
	maxBufferedBytes?: number
	/** Sent to EventSource as its reconnection delay. */
	retryMs?: number
	/** How often an idle stream gets a comment, so proxies keep it open (the broker sends it). */
	heartbeatMs?: number
}

/** The live stream this request asks for, if it is a GET of one. */
export function streamOf(req: IncomingMessage): LiveStream | undefined {
	if (req.method !== 'GET') return undefined
	const url = req.url ?? ''
	return liveStreams.find(
		({ path }) => url.startsWith(path) && (url.length === path.length || url[path.length] === '?'),
	)
}

export function liveStreamHandler(
	broker: LiveBroker,
	auth: Auth,
	logger: Logger,
	options: StreamOptions,
) {
	const maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024
	const retry = `retry: ${options.retryMs ?? 3_000}\n\n`
	// Built once and shared by every stream.
	const security = securityHeaders({ https: options.https })
	const streamHeaders = {
		...security,
		'Content-Type': 'text/event-stream; charset=utf-8',
		'Cache-Control': 'no-cache, no-transform',
		'X-Accel-Buffering': 'no',
	}
	const invalid = JSON.stringify(invalidPositionAnswer)

	return async (req: IncomingMessage, res: ServerResponse, stream: LiveStream) => {
		const started = performance.now()
		const log = (status: number) =>
			logger.info('request', {
				method: 'GET',
				path: stream.path,
				status,
				durationMs: Math.round((performance.now() - started) * 10) / 10,
			})
		const query = (req.url ?? '').slice(stream.path.length + 1)
		if (stream.editors && !(await editorOf(auth, fromNodeHeaders(req.headers)))) {
			res.writeHead(302, {
				...security,
				Location: signInAddress(req.url ?? stream.path),
				'Cache-Control': 'no-store',
			})
			res.end()
			log(302)
			return
		}
		// EventSource sends Last-Event-ID when it reconnects; it wins over the page's ?since=.
		const header = req.headers['last-event-id']
		const since = parseStreamPosition(
			typeof header === 'string' ? header : new URLSearchParams(query).get('since'),
		)
		if (since === 'invalid') {
			res.writeHead(400, { ...security, 'Content-Type': 'application/json' })
			res.end(invalid)
			log(400)
			return
		}
		// A resume may need the database to replay from. Streams already open stay open through
		// an outage (heartbeats go on) and catch up once it is back; a new one is told to come
		// back later, which the page's client does, backing off (event-source.client.ts).
		if (options.health && !options.health.available) {
			const seconds = options.health.retryAfterSeconds
			res.writeHead(503, {
				...security,
				'Content-Type': 'application/json',
				'Retry-After': String(seconds),
				'Cache-Control': 'no-store',
			})
			res.end(JSON.stringify({ error: outageMessage(seconds), retryAfterSeconds: seconds }))
			log(503)
			return
		}
		// An event stream ends only when the connection does, so chunked framing would buy nothing:
		// without it the body is delimited by the close and each event is a single socket write.
		res.useChunkedEncodingByDefault = false
		res.writeHead(200, streamHeaders)
		res.write(retry)
		log(200)

		let unsubscribe: (() => void) | undefined
		let closed = false
		res.on('close', () => {
			closed = true
			unsubscribe?.()
		})
		const sink = {
			write(chunk: string | Uint8Array) {
				if (closed || res.destroyed) return false
				res.write(chunk)
				if (res.writableLength > maxBufferedBytes) {
					res.destroy()
					return false
				}
				return true
			},
			end() {
				if (!closed) res.end()
			},
		}
		try {
			unsubscribe = await broker.subscribe(sink, since ?? broker.lastId, stream.topics)
		} catch (error) {
			// The database could not replay; the client reconnects after `retry` and tries again.
			logger.warn('live: could not resume a stream', { error })
			res.end()
		}
		if (closed) unsubscribe?.()
	}
}
