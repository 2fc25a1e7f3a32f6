// The closed-loop load generator for POST /api/collect (each connection sends its next request
// as soon as it has an answer), run as its own process (on its own core): screen views as
// browsers send them (text/plain JSON, from the site's own pages), each from the next of
// `visitors` addresses in X-Forwarded-For, so no one visitor reaches the per-visitor rate limit
// and what is measured is the endpoint. One JSON line on stdout.
import autocannon, { type Result } from 'autocannon'

export interface CollectLoadOptions {
	url: string
	connections: number
	/** Exactly this many requests, every answer awaited: the count of 202s is then exact. */
	amount: number
	visitors: number
	/** Added to the visitor number, so runs against one server use different visitors. */
	firstVisitor: number
	body: string
	userAgent: string
}

export interface CollectLoadResult {
	requests: number
	seconds: number
	/** Answers per status code, e.g. { "202": 41000 }. */
	statuses: Record<string, number>
	/** Latency of 2xx answers, whole milliseconds (autocannon's resolution). */
	p50: number
	p99: number
	max: number
	errors: number
	timeouts: number
}

const options = JSON.parse(process.argv[2] ?? '{}') as CollectLoadOptions
const headers = {
	'content-type': 'text/plain;charset=UTF-8',
	'user-agent': options.userAgent,
	origin: new URL(options.url).origin,
}
let visitor = 0
const address = () => {
	const n = options.firstVisitor + (visitor++ % options.visitors)
	return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
}

let first = 0
let last = 0
const result = await new Promise<Result>((resolve, reject) => {
	const instance = autocannon(
		{
			url: options.url,
			connections: options.connections,
			// Never pipelined: a browser sends one request at a time on a connection.
			pipelining: 1,
			amount: options.amount,
			timeout: 10,
			requests: [
				{
					method: 'POST',
					body: options.body,
					setupRequest: (request) => {
						request.headers = { ...headers, 'x-forwarded-for': address() }
						return request
					},
				},
			],
		},
		(error, done) => (error ? reject(error) : resolve(done)),
	)
	// autocannon notices the last answer only at its next one-second tick: time the answers here.
	instance.on('response', () => {
		last = performance.now()
		first ||= last
	})
})
const statuses: Record<string, number> = {}
for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count
const summary: CollectLoadResult = {
	requests: Object.values(statuses).reduce((total, count) => total + count, 0),
	seconds: (last - first) / 1000,
	statuses,
	p50: result.latency.p50,
	p99: result.latency.p99,
	max: result.latency.max,
	errors: result.errors,
	timeouts: result.timeouts,
}
process.stdout.write(`${JSON.stringify(summary)}\n`)
