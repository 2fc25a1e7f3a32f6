// GET /api/articles/stream: Server-Sent Events. Answered by a plain Node handler ahead of Hono
// (server/app.ts): a stream lives for hours, and nothing of a framework request should stay in
// memory with it. A broadcast then costs one socket write per client (bench/live-fanout.ts).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from '#app/lib/logger.ts'
import { outageMessage } from '#server/outage.ts'
import type { StorageHealth } from '#storage/port/unavailable.ts'
import { securityHeaders } from '#server/security.ts'
import type { ArticleBroker } from './broker.ts'

export const articleStreamPath = '/api/articles/stream'

export interface StreamOptions {
	https: boolean
	/** The database's state: while it is away, a new stream is refused with 503 and Retry-After. */
	health?: StorageHealth
	/** A client whose unsent backlog passes this is dropped, so it cannot hold memory or slow others. */
	maxBufferedBytes?: number
	/** Sent to EventSource as its reconnection delay. */
	retryMs?: number
}

function parseSince(value: string | null | undefined): number | 'invalid' | undefined {
	if (value === undefined || value === null || value === '') return undefined
	if (!/^\d{1,15}$/.test(value)) return 'invalid'
	return Number(value)
}

export function isArticleStreamRequest(req: IncomingMessage): boolean {
	const url = req.url ?? ''
	return (
		req.method === 'GET' &&
		url.startsWith(articleStreamPath) &&
		(url.length === articleStreamPath.length || url[articleStreamPath.length] === '?')
	)
}

export function articleStreamHandler(
	broker: ArticleBroker,
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
	const invalid = JSON.stringify({
		error: 'The stream position is not valid.',
		fields: { since: ['Use the whole-number change id from the page or the last event.'] },
	})

	return async (req: IncomingMessage, res: ServerResponse) => {
		const started = performance.now()
		const log = (status: number) =>
			logger.info('request', {
				method: 'GET',
				path: articleStreamPath,
				status,
				durationMs: Math.round((performance.now() - started) * 10) / 10,
			})
		const query = (req.url ?? '').slice(articleStreamPath.length + 1)
		// EventSource sends Last-Event-ID when it reconnects; it wins over the page's ?since=.
		const header = req.headers['last-event-id']
		const since = parseSince(
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
		// back later, which the page's client does, backing off (use-live-articles.ts).
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
			unsubscribe = await broker.subscribe(sink, since ?? broker.lastId)
		} catch (error) {
			// The database could not replay; the client reconnects after `retry` and tries again.
			logger.warn('live: could not resume a stream', { error })
			res.end()
		}
		if (closed) unsubscribe?.()
	}
}
