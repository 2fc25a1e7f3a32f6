// The staged close after a refused body, on a plain Node server: its bounds, and the connections
// it leaves alone.
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { sendSlowBody } from '#tests/fixtures/slow-body.ts'
import { closeIfBodyRefused, type LingerLimits } from './refused-body.ts'

let server: Server | undefined
afterEach(async () => {
	server?.closeAllConnections()
	await new Promise((resolve) => server?.close(resolve))
	server = undefined
})

async function serve(limits: LingerLimits, handler: RequestListener): Promise<string> {
	server = createServer((req, res) => {
		closeIfBodyRefused(req, res, limits)
		handler(req, res)
	})
	await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const refuseAtOnce: RequestListener = (_req, res) => {
	res.writeHead(413, { 'Content-Type': 'text/plain', 'Content-Length': 10 }).end('Too large.')
}

describe('closeIfBodyRefused', () => {
	it('cuts off a client that sends more than the bound after the answer', async () => {
		const url = await serve({ timeoutMs: 10_000, maxBytes: 256 * 1024 }, refuseAtOnce)
		const bytes = 64 * 1024 * 1024
		const result = await sendSlowBody(url, { path: '/', bytes, chunkBytes: 64 * 1024, pauseMs: 1 })
		// The answer arrived whole; the rest of the body was refused by a reset, far short of 64 MB.
		expect(result.status).toBe(413)
		expect(result.body).toBe('Too large.')
		expect(result.error).toMatch(/^(EPIPE|ECONNRESET)$/)
		expect(result.sentBytes).toBeLessThan(bytes / 4)
	})

	it('cuts off a client that is still sending when the time is up', async () => {
		const url = await serve({ timeoutMs: 300, maxBytes: 64 * 1024 * 1024 }, refuseAtOnce)
		const result = await sendSlowBody(url, {
			path: '/',
			bytes: 1024 * 1024,
			chunkBytes: 1024,
			pauseMs: 5,
		})
		expect(result.status).toBe(413)
		expect(result.error).toMatch(/^(EPIPE|ECONNRESET)$/)
		expect(result.closedAt).toBeGreaterThanOrEqual(300)
		expect(result.closedAt).toBeLessThan(2_000)
	})

	it('keeps the connection when the whole body was read before the answer', async () => {
		const url = await serve(lingerLimitsForTests, (req, res) => {
			req.resume()
			req.on('end', () => refuseAtOnce(req, res))
		})
		const response = await fetch(url, { method: 'POST', body: 'x'.repeat(100_000) })
		expect(response.status).toBe(413)
		expect(response.headers.get('connection')).toBe('keep-alive')
	})

	it('leaves requests without a body alone, however soon they are answered', async () => {
		const url = await serve(lingerLimitsForTests, refuseAtOnce)
		const response = await fetch(url)
		expect(response.headers.get('connection')).toBe('keep-alive')
	})
})

const lingerLimitsForTests: LingerLimits = { timeoutMs: 1_000, maxBytes: 1024 * 1024 }
