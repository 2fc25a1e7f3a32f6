// The load generator, run as its own process (on its own core) so it never competes with the
// server it measures: a short warm-up, then the measured run; one JSON line on stdout.
import autocannon from 'autocannon'

export interface LoadOptions {
	/** Several URLs share the connections out between them evenly. */
	url: string | string[]
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
	/** CPU this load generator used over the measured run, in cores. */
	cores: number
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions
// Never pipelined: a browser sends one request at a time on a connection.
const base = {
	// autocannon 9 takes several URLs and gives connection i the URL i mod n (its README); its
	// type declarations know only one.
	url: options.url as string,
	connections: options.connections,
	pipelining: 1,
	headers: options.headers,
	timeout: 10,
}
await autocannon({ ...base, duration: options.warmupSeconds })
const cpuBefore = process.cpuUsage()
const result = await autocannon({ ...base, duration: options.seconds })
const cpu = process.cpuUsage(cpuBefore)
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
	cores: (cpu.user + cpu.system) / 1e6 / result.duration,
}
process.stdout.write(`${JSON.stringify(summary)}\n`)
