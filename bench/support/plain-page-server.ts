// The throughput baseline: a plain node:http server answering every GET with one page held in
// memory (the same bytes and headers Canopy sends), gzip-compressed ahead of time for clients
// that accept it. What Node itself costs per request, with no framework work at all.
//
// Given a cost (argv[3], in ms), each answer first spends that long on the CPU, synchronously:
// a server as slow as a render and as steady as a clock. At a rendered page's own rate its p99
// is the least that rate allows, so the page's p99 can be read against it (ssr-throughput).
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { gzipSync } from 'node:zlib'
import { serveUntilStopped } from './serve-until-stopped.ts'

export interface PlainPage {
	headers: Record<string, string>
	bodyBase64: string
}

const page = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as PlainPage
const costMs = Number(process.argv[3] ?? 0)
const identity = Buffer.from(page.bodyBase64, 'base64')
// zlib's default level, as Hono's compress() uses through CompressionStream.
const gzipped = gzipSync(identity)

const server = createServer((req, res) => {
	const until = performance.now() + costMs
	while (performance.now() < until) {
		// Busy on purpose: the cost is CPU time, as a render's is.
	}
	const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
	const body = gzip ? gzipped : identity
	res.writeHead(200, {
		...page.headers,
		vary: 'Accept-Encoding',
		'content-length': String(body.length),
		...(gzip ? { 'content-encoding': 'gzip' } : {}),
	})
	res.end(body)
})
serveUntilStopped(server)
