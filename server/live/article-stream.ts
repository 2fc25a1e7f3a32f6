// GET /api/articles/stream: Server-Sent Events written straight to the Node response, so a
// broadcast costs one socket write per client and nothing else (bench/live-fanout.ts).
import type { HttpBindings } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Context } from 'hono'
import { securityHeaders } from '#server/security.ts'
import type { ArticleBroker } from './broker.ts'

export interface StreamOptions {
	https: boolean
	/** A client whose unsent backlog passes this is dropped, so it cannot hold memory or slow others. */
	maxBufferedBytes?: number
	/** Sent to EventSource as its reconnection delay. */
	retryMs?: number
}

function parseSince(value: string | undefined): number | 'invalid' | undefined {
	if (value === undefined || value === '') return undefined
	if (!/^\d{1,15}$/.test(value)) return 'invalid'
	return Number(value)
}

export function articleStream(broker: ArticleBroker, options: StreamOptions) {
	const maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024
	const retryMs = options.retryMs ?? 3_000

	return async (c: Context<{ Bindings: HttpBindings }>) => {
		// EventSource sends Last-Event-ID when it reconnects; it wins over the page's ?since=.
		const since = parseSince(c.req.header('last-event-id') ?? c.req.query('since'))
		if (since === 'invalid') {
			return c.json(
				{
					error: 'The stream position is not valid.',
					fields: { since: ['Use the whole-number change id from the page or the last event.'] },
				},
				400,
			)
		}
		const res = c.env.outgoing
		res.writeHead(200, {
			...securityHeaders({ https: options.https }),
			'Content-Type': 'text/event-stream; charset=utf-8',
			'Cache-Control': 'no-cache, no-transform',
			'X-Accel-Buffering': 'no',
		})
		res.write(`retry: ${retryMs}\n\n`)

		let unsubscribe: (() => void) | undefined
		let closed = false
		res.on('close', () => {
			closed = true
			unsubscribe?.()
		})
		const sink = {
			write(chunk: string) {
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
		} catch {
			// The database could not replay; the client reconnects after `retry` and tries again.
			res.end()
		}
		if (closed) unsubscribe?.()
		return RESPONSE_ALREADY_SENT
	}
}
