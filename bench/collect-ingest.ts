// Screen view ingest: how many POST /api/collect a second the production server accepts on this
// machine (closed loop, autocannon), beside a plain node:http server that reads and discards the
// same bodies; then, paced evenly (paced-client.ts), whether it takes 75% of that rate with every
// answer 202, and its latency at the target rate. Every view comes from another visitor
// (X-Forwarded-For from a trusted local proxy), so the per-visitor rate limit is never what is
// measured. Afterwards the server is stopped (its queue is written at shutdown) and its database
// must hold exactly as many views as there were 202 answers. Server on core 0, load on core 1.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import type { CollectLoadOptions, CollectLoadResult } from './support/collect-client.ts'
import { describeInterference, disturbedAbove, watchInterference } from './support/interference.ts'
import type { PacedLoadOptions } from './support/paced-client.ts'
import { articlePath } from './support/pages.ts'
import {
	exitedWithin,
	pinningNote,
	startNode,
	stopProcess,
	waitForOutput,
} from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { met, type Row, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const serverCpu = 0
const loadCpu = 1
const connections = 50
/** Requests that warm the JIT and give a first estimate of the rate. */
const warmupRequests = 5_000
const baselineSeconds = 4
const saturatedSeconds = 5
const sustainedSeconds = 6
const targetSeconds = 5
/**
 * The sustained run offers this share of the saturated rate at an even pace (paced-client.ts:
 * a late answer's delay counts against every request it held up); a second, slower run only
 * when the first could not take everything.
 */
const sustainedShares = [0.75, 0.5]
/** Distinct visitors: each sends a few views over the whole run, far under 60 a minute. */
const visitors = 40_000
/*
 * The targets, chosen after measuring on this 2-core machine.
 * - Sustained: at least 2,000 views a second (7.2 million an hour), every one answered 202 and
 *   stored. That is over three times the pages one instance renders a second without its page
 *   cache (ssr-throughput), so ingest does not limit a site before rendering does. Measured:
 *   6,100 to 7,200 a second saturated, 4,600 to 5,400 taken at 75% of that with every answer 202.
 * - p99 at 2,000 a second, paced evenly: at most 250 ms. Measured 23 to 181 ms (p50 about
 *   1 ms): p99 is about the longest stall of the server's one thread in the run, as every request
 *   due meanwhile waits behind it. The stalls, found with --trace-gc and timings of each write:
 *   garbage collection (scavenges of 15 to 50 ms, marking up to about 100 ms, on the one pinned
 *   core), and the batched SQLite commit (500 views, about 12 ms under load; 45 to 65 ms when a
 *   WAL checkpoint runs inside it), at worst back to back, about 200 ms. No reader waits for a
 *   beacon (sendBeacon returns at once), so the bound only has to catch something new blocking
 *   the thread, or a queue that stops draining.
 */
const minSustained = 2_000
const maxP99AtTargetMs = 250

const userAgent =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const body = JSON.stringify({
	screen: 'article',
	path: `${articlePath}?utm_source=newsletter&utm_medium=email&utm_campaign=spring`,
	title: 'The living ground · Preserve the Planet',
	referrer: 'https://news.example.org/',
	device: 'mobile',
	language: 'en-GB',
})

/** autocannon records whole milliseconds (0 means under one); paced-client.ts, fractions. */
const ms = (value: number) => (value < 1 ? '< 1 ms' : `${Math.round(value)} ms`)
const perSecond = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`
const accepted = (result: CollectLoadResult) => result.statuses['202'] ?? 0
const acceptedRate = (result: CollectLoadResult) => accepted(result) / result.seconds
const summary = (result: CollectLoadResult) =>
	`${result.requests} requests in ${result.seconds.toFixed(1)} s: ${Object.entries(result.statuses)
		.map(([code, count]) => `${count} × ${code}`)
		.join(', ')}; ${perSecond(result.requests / result.seconds)} answered, ` +
	`p50 ${ms(result.p50)}, p99 ${ms(result.p99)}, max ${ms(result.max)}` +
	(result.errors > 0 ? `; ${result.errors} errors (${result.timeouts} timeouts)` : '')

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('collect-ingest')
	const running: { stop(): Promise<void> }[] = []
	const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-collect-'))
	let nextVisitor = 0
	let disturbed = false

	/** Closed loop (collect-client.ts) without a rate, open loop (paced-client.ts) with one. */
	const load = async (
		url: string,
		label: string,
		options: { amount: number; rate?: number },
	): Promise<CollectLoadResult> => {
		const common = { url, connections, visitors, firstVisitor: nextVisitor, body, userAgent }
		const [script, settings] = options.rate
			? [
					'paced-client.ts',
					{ ...common, amount: options.amount, rate: options.rate } satisfies PacedLoadOptions,
				]
			: ['collect-client.ts', { ...common, amount: options.amount } satisfies CollectLoadOptions]
		nextVisitor += options.amount
		// Bounded: the whole benchmark stays within about a minute on a busy machine.
		await waitForQuiet(note, 5_000)
		const window = watchInterference()
		const child = startNode(
			[join(target.root, 'bench/support', script), JSON.stringify(settings)],
			{ cpu: loadCpu, stdio: ['ignore', 'pipe', 'inherit'] },
		)
		let out = ''
		child.stdout?.setEncoding('utf8')
		child.stdout?.on('data', (chunk: string) => {
			out += chunk
		})
		const code = await exitedWithin(child, 60_000, 'autocannon')
		if (code !== 0) throw new Error(`autocannon exited with code ${code}`)
		const result = JSON.parse(out.trim().split('\n').at(-1) ?? '') as CollectLoadResult
		const interference = window.stop()
		if (interference.foreignCores > disturbedAbove) disturbed = true
		note(`${label}: ${summary(result)}; ${describeInterference(interference)}`)
		return result
	}
	/**
	 * A warm-up, then a closed-loop run of about `seconds`, sized from the warm-up's rate (the
	 * warm-up runs cold, at about two thirds of the warm rate). A count, not a duration: a run cut
	 * at a deadline drops answers to requests the server has taken, and the 202s must be exact.
	 */
	const saturate = async (url: string, label: string, seconds: number) => {
		const warmup = await load(url, `${label}, warm-up`, { amount: warmupRequests })
		const amount = Math.max(
			warmupRequests,
			Math.round((warmup.requests / warmup.seconds) * 1.5 * seconds),
		)
		return { warmup, measured: await load(url, label, { amount }) }
	}

	try {
		note(
			`${pinningNote()}: servers on core ${serverCpu}, autocannon on core ${loadCpu}; ${connections} connections, not pipelined; ${Buffer.byteLength(body)}-byte JSON bodies sent as text/plain (as sendBeacon does), each from the next of ${visitors.toLocaleString('en-US')} visitors`,
		)
		const plain = startNode([join(target.root, 'bench/support/plain-collect-server.ts')], {
			cpu: serverCpu,
			stdio: ['ignore', 'pipe', 'inherit'],
		})
		running.push({ stop: () => stopProcess(plain) })
		const port = (
			await waitForOutput(plain, /listening on (\d+)/, 15_000, 'the plain ingest server')
		)[1]
		const base = (
			await saturate(
				`http://127.0.0.1:${port}/api/collect`,
				'baseline, plain node:http reading and discarding the body',
				baselineSeconds,
			)
		).measured
		await stopProcess(plain)

		const canopy = await startCanopy(target, {
			cpu: serverCpu,
			logLevel: 'error',
			nodeEnv: 'production',
			env: { TRUST_PROXY: '127.0.0.1' },
			dataDir,
		})
		running.push(canopy)
		const url = new URL('/api/collect', canopy.url).href
		const runs: CollectLoadResult[] = []
		const { warmup, measured: saturated } = await saturate(
			url,
			'Canopy, closed loop',
			saturatedSeconds,
		)
		runs.push(warmup, saturated)

		let sustained: { share: number; rate: number; result: CollectLoadResult } | undefined
		for (const share of sustainedShares) {
			const rate = Math.round(acceptedRate(saturated) * share)
			const result = await load(url, `Canopy at ${Math.round(share * 100)}% of that`, {
				rate,
				amount: rate * sustainedSeconds,
			})
			runs.push(result)
			sustained = { share, rate, result }
			if (accepted(result) === result.requests) break
		}
		if (!sustained) throw new Error('no sustained run')
		const atTarget = await load(url, `Canopy at ${perSecond(minSustained)}`, {
			rate: minSustained,
			amount: minSustained * targetSeconds,
		})
		runs.push(atTarget)

		// SIGTERM: the server writes what is queued before it exits.
		await canopy.stop()
		const answered202 = runs.reduce((total, result) => total + accepted(result), 0)
		const db = new DatabaseSync(join(dataDir, 'canopy.db'), { readOnly: true })
		const stored = Number(
			(db.prepare('SELECT count(*) AS n FROM analytics_events').get() as { n: number }).n,
		)
		db.close()
		note(`after shutdown: ${stored} views stored, ${answered202} answers were 202`)

		const all = (result: CollectLoadResult) => accepted(result) === result.requests
		const { share, rate, result } = sustained
		const sustainedRate = acceptedRate(result)
		const rows: Row[] = [
			row({
				bench: 'collect-ingest',
				figure: 'views accepted, saturated (closed loop)',
				value: `${perSecond(acceptedRate(saturated))} · p99 ${ms(saturated.p99)}${all(saturated) ? '' : ` (${saturated.requests - accepted(saturated)} not 202)`}`,
				baseline: `${perSecond(base.requests / base.seconds)} · p99 ${ms(base.p99)} plain Node`,
				ratio: times(acceptedRate(saturated), base.requests / base.seconds),
				disturbed,
			}),
			row({
				bench: 'collect-ingest',
				figure: `views accepted, sustained (${Math.round(share * 100)}% of saturated, paced)`,
				value: `${perSecond(sustainedRate)} of ${perSecond(rate)} offered · p50 ${ms(result.p50)} · p99 ${ms(result.p99)}`,
				baseline: all(result)
					? 'every answer 202'
					: `${result.requests - accepted(result)} not 202`,
				target: `≥ ${perSecond(minSustained)}, all 202`,
				status: met(sustainedRate >= minSustained && all(result)),
				disturbed,
			}),
			row({
				bench: 'collect-ingest',
				figure: `views at ${perSecond(minSustained)} (the target rate)`,
				value: `p50 ${ms(atTarget.p50)} · p99 ${ms(atTarget.p99)} · max ${ms(atTarget.max)}`,
				baseline: all(atTarget)
					? 'every answer 202'
					: `${atTarget.requests - accepted(atTarget)} not 202`,
				target: `p99 ≤ ${maxP99AtTargetMs} ms, all 202`,
				status: met(atTarget.p99 <= maxP99AtTargetMs && all(atTarget)),
				disturbed,
			}),
			row({
				bench: 'collect-ingest',
				figure: 'views stored after shutdown = 202 answers',
				value: `${stored.toLocaleString('en-US')} stored`,
				baseline: `${answered202.toLocaleString('en-US')} answered 202`,
				target: 'equal',
				status: met(stored === answered202),
			}),
		]
		return { rows, notes }
	} finally {
		for (const started of running.reverse()) await started.stop()
		rmSync(dataDir, { recursive: true, force: true })
	}
}

if (import.meta.main) await runAlone(run)
