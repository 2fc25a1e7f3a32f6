// The load generator, run as its own process (on its own core) so it never competes with the
// server it measures: a short warm-up, then the measured run; one JSON line on stdout.
import autocannon from 'autocannon'

export interface LoadOptions {
	url: string
	connections: number
	warmupSeconds: number
	seconds: number
	headers: Record<string, string>
}

export interface LoadResult {
	requestsPerSecond: number
	p50: number
	p99: number
	max: number
	requests: number
	bytesPerRequest: number
	errors: number
	timeouts: number
	non2xx: number
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions
// Never pipelined: a browser sends one request at a time on a connection.
const base = {
	url: options.url,
	connections: options.connections,
	pipelining: 1,
	headers: options.headers,
	timeout: 10,
}
await autocannon({ ...base, duration: options.warmupSeconds })
const result = await autocannon({ ...base, duration: options.seconds })
const summary: LoadResult = {
	requestsPerSecond: result.requests.total / result.duration,
	p50: result.latency.p50,
	p99: result.latency.p99,
	max: result.latency.max,
	requests: result.requests.total,
	bytesPerRequest: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
	errors: result.errors,
	timeouts: result.timeouts,
	non2xx: result.non2xx,
}
process.stdout.write(`${JSON.stringify(summary)}\n`)
