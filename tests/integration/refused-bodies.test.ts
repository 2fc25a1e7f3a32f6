// A body refused before it has all arrived (too large, cross-site), as a proxy in front of Canopy
// sees it: the proxy goes on sending the body while the answer comes back, and must be able to
// send all of it, read a complete answer that says the connection closes, and then see the
// connection end cleanly, never reset (server/refused-body.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { type SlowBody, sendSlowBody } from '#tests/fixtures/slow-body.ts'

const KB = 1024
const MB = 1024 * KB

describe('a body refused before it has all arrived', () => {
	let app: TestApp
	beforeAll(async () => {
		app = await startTestApp()
	})
	afterAll(async () => {
		await app?.close()
	})

	/**
	 * Sends `bytes` in about 40 writes over 800 ms: longer than @hono/node-server reads a
	 * refused body (500 ms) before it closes the socket.
	 */
	const send = (request: Omit<SlowBody, 'chunkBytes' | 'pauseMs'>) =>
		sendSlowBody(app.url, {
			...request,
			headers: { Origin: app.url, ...request.headers },
			chunkBytes: Math.ceil(request.bytes / 40),
			pauseMs: 20,
		})

	function expectClosedCleanly(result: Awaited<ReturnType<typeof sendSlowBody>>, bytes: number) {
		// The whole body went out, nothing was reset, and the client read a complete answer.
		expect(result.error).toBeUndefined()
		expect(result.sentBytes).toBe(bytes)
		expect(result.headers.connection).toBe('close')
		expect(result.body).toHaveLength(Number(result.headers['content-length']))
		// The server ended its side right after the answer, while the body was still coming, and
		// the connection closed once the client had sent it all and closed its own.
		expect(result.serverEndedAt).toBeDefined()
		expect(result.sentAt).toBeDefined()
		expect(result.serverEndedAt as number).toBeLessThan(result.sentAt as number)
		expect(result.closedAt).toBeDefined()
	}

	// Every body cap in server/app.ts, each with a body just over it.
	it.each([
		['a contact message', '/api/contact', 64 * KB, 'The request body is larger than 64 KB.'],
		['a screen view', '/api/collect', 4 * KB, 'A screen view is at most 4 KB; this one is larger.'],
		[
			'a push subscription',
			'/api/push/subscriptions',
			4 * KB,
			'A push subscription is at most 4 KB; this one is larger.',
		],
		[
			'an image upload',
			'/api/admin/uploads',
			20 * MB + 64 * KB,
			'The upload is larger than 20 MB.',
		],
		['the site settings', '/admin/settings', 20 * MB + 64 * KB, 'The upload is larger than 20 MB.'],
		[
			'an article from the API',
			'/api/admin/articles',
			6 * MB,
			'The request body is larger than 6 MB.',
		],
		[
			'an article from the editor (with its cover file)',
			'/admin/articles/new',
			21 * MB + 64 * KB,
			'The request body is larger than 21 MB.',
		],
		[
			'a configuration parameter',
			'/admin/config/home_layout',
			64 * KB,
			'The request body is larger than 64 KB.',
		],
	])('%s over its cap: 413, then a clean close', async (_name, path, cap, message) => {
		const bytes = cap + 256 * KB
		const result = await send({ path, bytes })
		expect(result.status).toBe(413)
		expect(JSON.parse(result.body)).toEqual({ error: message })
		expectClosedCleanly(result, bytes)
	})

	it('refuses a chunked body once it passes the cap, and closes as cleanly', async () => {
		const bytes = 1 * MB
		const result = await send({ path: '/api/contact', bytes, chunked: true })
		expect(result.status).toBe(413)
		expect(JSON.parse(result.body)).toEqual({ error: 'The request body is larger than 64 KB.' })
		expectClosedCleanly(result, bytes)
	})

	it('closes as cleanly after refusing a large cross-site write', async () => {
		const bytes = 1 * MB
		const result = await send({
			path: '/api/contact',
			bytes,
			headers: { Origin: 'https://evil.example' },
		})
		expect(result.status).toBe(403)
		expectClosedCleanly(result, bytes)
	})

	it('never runs a request sent after a refused body on the closing connection', async () => {
		const result = await send({
			path: '/api/contact',
			bytes: 256 * KB,
			pipelined: `GET /healthz?after-refused-body HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
		})
		expect(result.status).toBe(413)
		expect(result.raw.match(/HTTP\/1\.1 /g)).toHaveLength(1)
		expect(result.error).toBeUndefined()
		expect(app.logs.filter((entry) => entry.path === '/healthz')).toEqual([])
	})

	it('keeps serving: the next request on a new connection is answered', async () => {
		const response = await fetch(`${app.url}/healthz`)
		expect(response.status).toBe(200)
		expect(app.errors()).toEqual([])
	})
})
