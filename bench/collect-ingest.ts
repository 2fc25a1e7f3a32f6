// Screen view ingest: how many POST /api/collect a second the production server accepts on this
// machine, and its p99 at a rate it sustains, beside a plain node:http server that reads and
// discards the same bodies. Every view comes from another visitor (X-Forwarded-For from a
// trusted local proxy), so the per-visitor rate limit is never what is measured. Afterwards the
// server is stopped (its queue is written at shutdown) and its database must hold exactly as many
// views as there were 202 answers. Server on core 0, load generator on core 1.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { createNotes, type BenchResult } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import type { CollectLoadOptions, CollectLoadResult } from './support/collect-client.ts'
import { describeInterference, disturbedAbove, watchInterference } from './support/interference.ts'
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
/**
 * The sustained run offers this share of the saturated rate, at an even pace (autocannon then
 * counts a late answer's delay against every request it held up); a second, slower run only
 * when the first could not take everything.
 */
const sustainedShares = [0.75, 0.5]
/** Distinct visitors: each sends a few views over the whole run, far under 60 a minute. */
const visitors = 40_000
/*
 * The targets. 2,000 views a second is a site with over 7 million page views an hour, far more
 * than one instance serves pages for (ssr-throughput), so ingest is never what limits a site;
 * measured here: about 5,000 to 6,000 a second on one core, 2.5 to 3× the target. The p99 is
 * taken at an even pace (autocannon counts a late answer's delay against every request it held
 * up) at 75% of the saturated rate; measured 55 to 95 ms on this 2-core machine, the tail being
 * the single thread's pauses: garbage collection (~15 ms) and the batched SQLite commit with its
 * disk sync (~10 to 35 ms per 500 views), sometimes back to back. No reader ever waits for a
 * beacon, so the bound is loose on purpose: past 150 ms something new blocks the thread.
 */
const minSustained = 2_000
const maxP99Ms = 150

const body = JSON.stringify({
	screen: 'article',
	path: `${articlePath}?utm_source=newsletter&utm_medium=email&utm_campaign=spring`,
	title: 'The living ground · Preserve the Planet',
	referrer: 'https://news.example.org/',
	device: 'mobile',
	language: 'en-GB',
})

const ms = (value: number) => (value < 1 ? '< 1 ms' : `${Math.round(value)} ms`)
const perSecond = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`
const accepted = (result: CollectLoadResult) => result.statuses['202'] ?? 0
const acceptedRate = (result: CollectLoadResult) => accepted(result) / result.seconds
const describe = (result: CollectLoadResult) =>
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

	const load = async (
		url: string,
		label: string,
		options: Pick<CollectLoadOptions, 'amount' | 'overallRate'>,
	): Promise<CollectLoadResult> => {
		const settings: CollectLoadOptions = {
			url,
			connections,
			visitors,
			firstVisitor: nextVisitor,
			body,
			...options,
		}
		nextVisitor += options.amount
		// Bounded: the whole benchmark stays within about a minute on a busy machine.
		await waitForQuiet(note, 5_000)
		const window = watchInterference()
		const child = startNode(
			[join(target.root, 'bench/support/collect-client.ts'), JSON.stringify(settings)],
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
		note(`${label}: ${describe(result)}; ${describeInterference(interference)}`)
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
				overallRate: rate,
				amount: rate * sustainedSeconds,
			})
			runs.push(result)
			sustained = { share, rate, result }
			if (accepted(result) === result.requests) break
		}
		if (!sustained) throw new Error('no sustained run')

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
				figure: `views accepted, sustained (${Math.round(share * 100)}% of saturated)`,
				value: `${perSecond(sustainedRate)} of ${perSecond(rate)} offered · p50 ${ms(result.p50)} · p99 ${ms(result.p99)}`,
				baseline: all(result)
					? 'every answer 202'
					: `${result.requests - accepted(result)} not 202`,
				target: `≥ ${perSecond(minSustained)}, p99 ≤ ${maxP99Ms} ms, all 202`,
				status: met(sustainedRate >= minSustained && result.p99 <= maxP99Ms && all(result)),
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
