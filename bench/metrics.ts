// /metrics with 10,000 open live streams (docs/decisions/035-metrics.md): what one Prometheus
// scrape costs, p50 and p99 over 1,000 sequential scrapes, beside GET /healthz (the cheapest
// answer through the same chain) taken in turn with them. Target: scrape p99 ≤ 5 ms. The server
// runs on core 0, the streams in one client process on core 1 (bench/support/fanout-client.ts).

import { Agent } from 'node:http'
import { join } from 'node:path'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import { getRaw } from './support/http-get.ts'
import { callsTo } from './support/ipc.ts'
import { pinningNote, sleep, startNode, stopProcess } from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { met, ms, percentile, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const bench = 'metrics'
const streams = 10_000
const scrapes = 1_000
// Pairs taken first and not counted. Right after 10,000 streams open, the server's first young
// collections promote their objects and its own start-up objects, 20-50 ms each, in the first
// two seconds of requests (traced with Node's gc entries, bench/RESULTS.md): a one-time cost of
// the streams opening, not of a scrape. About three seconds of pairs pass them; what follows is
// the steady state a scraper meets every 15 s.
const warmUp = 300
const token = 'bench-metrics-token-0123456789abcdef'

const get = async (url: string, headers: Record<string, string>, agent: Agent) => {
	const answer = await getRaw(url, headers, 10_000, agent)
	return { status: answer.status, body: answer.body.toString('utf8') }
}

/**
 * Scrapes and GETs of /healthz taken in turn, one at a time, so each has the same server state
 * around it (a collection, the streams' heartbeats): two sorted lists of durations.
 */
async function timed(
	requests: { url: string; headers: Record<string, string> }[],
	agent: Agent,
): Promise<number[][]> {
	const durations = requests.map((): number[] => [])
	for (let i = 0; i < scrapes + warmUp; i++) {
		for (const [n, { url, headers }] of requests.entries()) {
			const started = performance.now()
			const answer = await get(url, headers, agent)
			const elapsed = performance.now() - started
			if (answer.status !== 200 || answer.body.length === 0)
				throw new Error(`${url} answered ${answer.status}`)
			if (i >= warmUp) durations[n]?.push(elapsed)
			// As scrapes come: apart, not back to back.
			await sleep(5)
		}
	}
	return durations.map((list) => list.sort((a, b) => a - b))
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes(bench)
	const server = await startCanopy(target, { cpu: 0, env: { METRICS_TOKEN: token } })
	const clientProcess = startNode([join(target.root, 'bench/support/fanout-client.ts')], {
		cpu: 1,
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		serialization: 'advanced',
	})
	const agent = new Agent({ keepAlive: true, maxSockets: 1 })
	try {
		const client = callsTo(clientProcess, 'the subscriber process')
		await client.ready()
		const port = Number(new URL(server.url).port)
		const opened = await client.call<{ open: number; ms: number }>(
			'connect',
			{ port, path: '/api/articles/stream', count: streams, batch: 250 },
			120_000,
		)
		note(`${pinningNote()}; ${opened.open} streams open in ${ms(opened.ms)}`)
		await waitForQuiet(note, 30_000)
		const [scrape = [], health = []] = await timed(
			[
				{ url: `${server.url}/metrics`, headers: { Authorization: `Bearer ${token}` } },
				{ url: `${server.url}/healthz`, headers: {} },
			],
			agent,
		)
		const { body: text } = await get(
			`${server.url}/metrics`,
			{ Authorization: `Bearer ${token}` },
			agent,
		)
		const counted = /canopy_live_streams\{topic="articles"\} (\d+)/.exec(text)?.[1]
		note(
			`the scrape reports ${counted} article streams, ${Math.round(text.length / 1000)} KB of text`,
		)
		note(
			`scrape p50 ${ms(percentile(scrape, 50))} p99 ${ms(percentile(scrape, 99))}; /healthz p50 ${ms(percentile(health, 50))} p99 ${ms(percentile(health, 99))}`,
		)
		const p99 = percentile(scrape, 99)
		return {
			rows: [
				row({
					bench,
					figure: `/metrics scrape p99, ${streams.toLocaleString('en')} open streams`,
					value: `${ms(p99)} (p50 ${ms(percentile(scrape, 50))})`,
					baseline: `${ms(percentile(health, 99))} /healthz p99`,
					ratio: times(p99, percentile(health, 99)),
					target: '≤ 5 ms',
					status: met(p99 <= 5 && Number(counted) === streams),
				}),
			],
			notes,
		}
	} finally {
		agent.destroy()
		await stopProcess(clientProcess, 5_000)
		await server.stop()
	}
}

if (import.meta.main) await runAlone(run)
