// Prometheus metrics at /metrics (docs/decisions/035-metrics.md), with prom-client: requests and
// their latency per route, open live streams per topic, the page cache's hits, the queues the
// workers drain, how late the periodic jobs are, and the database pool; plus Node's own (event
// loop lag, heap, garbage collection). Served only with METRICS_TOKEN, to a bearer of it.
import { timingSafeEqual } from 'node:crypto'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { Storage } from '#storage/port/storage.ts'
import type { LiveBroker } from './live/broker.ts'

export type CacheResult = 'hit' | 'miss' | 'bypass'

export interface Metrics {
	/** One answered request: its route's pattern, method, status and time. */
	request(route: string, method: string, status: number, seconds: number): void
	cache(result: CacheResult): void
	/** GET /metrics: the text format for a bearer of the token, 401 for others. */
	answer(request: Request): Promise<Response>
}

/** What the queues and jobs read from the database may be this old when scraped. */
const freshForMs = 5_000

/** Seconds: from a cached page's 1 ms to a slow render's seconds. */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

function sameToken(given: string, expected: string): boolean {
	const a = Buffer.from(given)
	const b = Buffer.from(expected)
	return a.length === b.length && timingSafeEqual(a, b)
}

export function createMetrics(
	deps: { storage: Storage; broker: LiveBroker; token: string },
	now: () => Date = () => new Date(),
): Metrics {
	const { storage, broker } = deps
	const registry = new Registry()
	collectDefaultMetrics({ register: registry })
	// Node's figures that walk every open handle or file descriptor on each scrape (with 10,000
	// live streams open, a scrape took 40 ms: bench/RESULTS.md), and the one that waits a turn of
	// the event loop to time it, so a scrape of a busy server waits on the busyness it reports.
	// canopy_live_streams counts the streams; the event loop's delay histogram stays
	// (nodejs_eventloop_lag_p99_seconds and the rest), measured continuously by Node.
	for (const costly of [
		'nodejs_eventloop_lag_seconds',
		'process_open_fds',
		'nodejs_active_handles',
		'nodejs_active_handles_total',
		'nodejs_active_requests',
		'nodejs_active_requests_total',
		'nodejs_active_resources',
		'nodejs_active_resources_total',
	])
		registry.removeSingleMetric(costly)
	const requests = new Counter({
		name: 'canopy_http_requests_total',
		help: 'Requests answered, by route pattern, method and status.',
		labelNames: ['route', 'method', 'status'],
		registers: [registry],
	})
	const latency = new Histogram({
		name: 'canopy_http_request_duration_seconds',
		help: 'Time from a request arriving to its answer being handed to Node, by route pattern.',
		labelNames: ['route', 'method'],
		buckets: latencyBuckets,
		registers: [registry],
	})
	const cacheLookups = new Counter({
		name: 'canopy_page_cache_requests_total',
		help: 'Page requests by what the page cache did: hit, miss (rendered), bypass (signed in, or not cacheable).',
		labelNames: ['result'],
		registers: [registry],
	})
	new Gauge({
		name: 'canopy_live_streams',
		help: 'Open live streams (server-sent events) of this instance, by topic.',
		labelNames: ['topic'],
		registers: [registry],
		collect() {
			this.reset()
			for (const [topic, count] of broker.topicCounts()) this.set({ topic }, count)
		},
	})

	// The database's figures, read at most every few seconds whatever the scrape rate: a scrape
	// takes the last reading and, when it is old, starts the next behind it (only the first
	// scrape waits). A database that cannot answer gives no queue figures, not a failed scrape.
	type Figures = Awaited<ReturnType<typeof readDatabase>>
	let last: Figures | undefined
	let reading: Promise<Figures> | undefined
	let readAt = 0
	async function readDatabase() {
		const at = now()
		try {
			const [queues, jobs] = await Promise.all([storage.operations.queues(at), storage.jobs.list()])
			return { at, queues, jobs }
		} catch {
			return { at, queues: [], jobs: [] }
		}
	}
	function databaseFigures(): Promise<Figures> {
		if (!reading && (!last || Date.now() - readAt > freshForMs)) {
			readAt = Date.now()
			reading = readDatabase().then((figures) => {
				last = figures
				reading = undefined
				return figures
			})
		}
		return last ? Promise.resolve(last) : (reading as Promise<Figures>)
	}
	new Gauge({
		name: 'canopy_queue_waiting',
		help: 'Items waiting in each background queue (mail, push, newsletter, newsletter-sends, webhooks, images).',
		labelNames: ['queue'],
		registers: [registry],
		async collect() {
			const { queues } = await databaseFigures()
			for (const queue of queues) this.set({ queue: queue.queue }, queue.waiting)
		},
	})
	new Gauge({
		name: 'canopy_queue_oldest_seconds',
		help: 'How long the oldest waiting item of each queue has waited.',
		labelNames: ['queue'],
		registers: [registry],
		async collect() {
			const { queues } = await databaseFigures()
			for (const queue of queues) this.set({ queue: queue.queue }, queue.oldestSeconds)
		},
	})
	new Gauge({
		name: 'canopy_job_lag_seconds',
		help: 'How far past its due time each periodic job is (0: on time).',
		labelNames: ['job'],
		registers: [registry],
		async collect() {
			const { at, jobs } = await databaseFigures()
			for (const job of jobs) {
				const late = (at.getTime() - new Date(job.nextRunAt).getTime()) / 1000
				this.set({ job: job.name }, Math.max(0, late))
			}
		},
	})
	new Gauge({
		name: 'canopy_db_pool_connections',
		help: 'The PostgreSQL pool: max, open, idle, and queries waiting for a connection.',
		labelNames: ['state'],
		registers: [registry],
		collect() {
			const pool = storage.operations.pool()
			if (!pool) return
			this.set({ state: 'max' }, pool.max)
			this.set({ state: 'open' }, pool.open)
			this.set({ state: 'idle' }, pool.idle)
			this.set({ state: 'waiting' }, pool.waiting)
		},
	})

	return {
		request(route, method, status, seconds) {
			requests.inc({ route, method, status: String(status) })
			latency.observe({ route, method }, seconds)
		},
		cache(result) {
			cacheLookups.inc({ result })
		},
		async answer(request) {
			const header = request.headers.get('authorization') ?? ''
			const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? ''
			if (!sameToken(given, deps.token))
				return new Response('Send the METRICS_TOKEN as a bearer token.\n', {
					status: 401,
					headers: { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Cache-Control': 'no-store' },
				})
			return new Response(await registry.metrics(), {
				headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
			})
		},
	}
}
