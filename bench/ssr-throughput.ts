// SSR throughput: the article page from the production server under 50 concurrent connections,
// beside a plain node:http server sending the same bytes from memory. Server on core 0, load
// generator on core 1, so neither steals the other's CPU and the ratio is the framework's cost.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import { getOk } from './support/http-get.ts'
import { describeInterference, disturbedAbove, leastDisturbed } from './support/interference.ts'
import type { LoadOptions, LoadResult } from './support/load-client.ts'
import { articlePath } from './support/pages.ts'
import type { PlainPage } from './support/plain-page-server.ts'
import {
	exitedWithin,
	pinningNote,
	startNode,
	stopProcess,
	waitForOutput,
} from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { kb, met, type Row, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const serverCpu = 0
const loadCpu = 1
const connections = 50
const warmupSeconds = 2
const seconds = 10
const minRatio = 0.5
/** autocannon records whole milliseconds; 0 means under one. */
const ms = (value: number) => (value < 1 ? '< 1 ms' : `${Math.round(value)} ms`)
const maxP99Ms = 25
const skippedHeaders = new Set([
	'date',
	'connection',
	'keep-alive',
	'content-length',
	'transfer-encoding',
	'content-encoding',
	'vary',
])

async function load(
	target: Target,
	url: string,
	headers: Record<string, string>,
): Promise<LoadResult> {
	const options: LoadOptions = { url, connections, warmupSeconds, seconds, headers }
	const child = startNode(
		[join(target.root, 'bench/support/load-client.ts'), JSON.stringify(options)],
		{
			cpu: loadCpu,
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	)
	let out = ''
	child.stdout?.setEncoding('utf8')
	child.stdout?.on('data', (chunk: string) => {
		out += chunk
	})
	const code = await exitedWithin(child, (warmupSeconds + seconds + 30) * 1000, 'autocannon')
	if (code !== 0) throw new Error(`autocannon exited with code ${code}`)
	const result = JSON.parse(out.trim().split('\n').at(-1) ?? '') as LoadResult
	if (result.errors > 0 || result.non2xx > 0 || result.requests === 0) {
		throw new Error(
			`load run against ${url} had ${result.errors} errors and ${result.non2xx} non-2xx answers`,
		)
	}
	return result
}

const summarise = (r: LoadResult) =>
	`${Math.round(r.requestsPerSecond)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}, ` +
	`${r.requests} requests, ${kb(r.bytesPerRequest)} per response`

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('ssr-throughput')
	const dir = mkdtempSync(join(tmpdir(), 'canopy-bench-ssr-'))
	// Everything started here, stopped in reverse order however the run ends.
	const running: { stop(): Promise<void> }[] = []
	try {
		const canopy = await startCanopy(target, { cpu: serverCpu, logLevel: 'error' })
		running.push(canopy)
		const url = new URL(articlePath, canopy.url).href
		await getOk(url) // fills the page cache
		const page = await getOk(url)
		const headers: Record<string, string> = {}
		for (const [name, value] of Object.entries(page.headers)) {
			if (typeof value === 'string' && !skippedHeaders.has(name)) headers[name] = value
		}
		const file = join(dir, 'page.json')
		writeFileSync(
			file,
			JSON.stringify({ headers, bodyBase64: page.body.toString('base64') } satisfies PlainPage),
		)
		const child = startNode([join(target.root, 'bench/support/plain-page-server.ts'), file], {
			cpu: serverCpu,
			stdio: ['ignore', 'pipe', 'inherit'],
		})
		running.push({ stop: () => stopProcess(child) })
		const port = (
			await waitForOutput(child, /listening on (\d+)/, 15_000, 'the plain page server')
		)[1]
		const plainUrl = `http://127.0.0.1:${port}${articlePath}`
		note(
			`${pinningNote()}: servers on core ${serverCpu}, autocannon on core ${loadCpu}; ${connections} connections, not pipelined, ${warmupSeconds} s warm-up + ${seconds} s`,
		)
		note(`page: ${articlePath}, ${kb(page.body.length)} of HTML`)

		const gzip = { 'accept-encoding': 'gzip' }
		const measure = async (label: string, pageUrl: string, headers: Record<string, string>) => {
			const { result, interference } = await leastDisturbed(() => load(target, pageUrl, headers), {
				before: () => waitForQuiet(note),
				note,
				label,
			})
			note(`${label}: ${summarise(result)}; ${describeInterference(interference)}`)
			return { ...result, disturbed: interference.foreignCores > disturbedAbove }
		}
		const base = await measure('baseline, plain node:http from memory', plainUrl, {})
		const cached = await measure('Canopy, page cache', url, {})
		// The page cache skips any request with a cookie: this is the cost of rendering.
		const uncached = await measure('Canopy, rendered every time (Cookie header)', url, {
			cookie: 'bench=uncached',
		})
		// Browsers always send Accept-Encoding, so this is what visitors get.
		const baseGzip = await measure(
			'baseline with gzip (compressed once, ahead of time)',
			plainUrl,
			gzip,
		)
		const cachedGzip = await measure(
			'Canopy, page cache, Accept-Encoding: gzip (nonce spliced into the stored gzip)',
			url,
			gzip,
		)
		await canopy.stop()
		await stopProcess(child)

		// The documented start command leaves NODE_ENV unset, so React renders with its
		// development build; this is how much that costs.
		const production = await startCanopy(target, {
			cpu: serverCpu,
			logLevel: 'error',
			nodeEnv: 'production',
		})
		running.push(production)
		const productionUrl = new URL(articlePath, production.url).href
		const uncachedProduction = await measure(
			'Canopy with NODE_ENV=production, rendered every time',
			productionUrl,
			{ cookie: 'bench=uncached' },
		)

		const ratio = cached.requestsPerSecond / base.requestsPerSecond
		const gzipRatio = cachedGzip.requestsPerSecond / baseGzip.requestsPerSecond
		const rows: Row[] = [
			row({
				bench: 'ssr-throughput',
				figure: 'article req/s, page cache',
				value: `${Math.round(cached.requestsPerSecond)} req/s`,
				baseline: `${Math.round(base.requestsPerSecond)} req/s plain Node`,
				ratio: times(cached.requestsPerSecond, base.requestsPerSecond),
				target: `≥ ${minRatio}× baseline`,
				status: met(ratio >= minRatio),
				disturbed: cached.disturbed || base.disturbed,
			}),
			row({
				bench: 'ssr-throughput',
				figure: 'article p50 / p99, page cache',
				value: `${ms(cached.p50)} / ${ms(cached.p99)}`,
				baseline: `${ms(base.p50)} / ${ms(base.p99)}`,
				ratio: times(cached.p99, base.p99),
				target: `p99 ≤ ${maxP99Ms} ms`,
				status: met(cached.p99 <= maxP99Ms),
				disturbed: cached.disturbed || base.disturbed,
			}),
			row({
				bench: 'ssr-throughput',
				figure: 'article, page cache, gzip (as browsers ask)',
				value: `${Math.round(cachedGzip.requestsPerSecond)} req/s · p50 ${ms(cachedGzip.p50)} · p99 ${ms(cachedGzip.p99)}`,
				baseline: `${Math.round(baseGzip.requestsPerSecond)} req/s · p99 ${ms(baseGzip.p99)}, pre-gzipped`,
				ratio: times(cachedGzip.requestsPerSecond, baseGzip.requestsPerSecond),
				target: `≥ ${minRatio}× and p99 ≤ ${maxP99Ms} ms`,
				status: met(gzipRatio >= minRatio && cachedGzip.p99 <= maxP99Ms),
				disturbed: cachedGzip.disturbed || baseGzip.disturbed,
			}),
			row({
				bench: 'ssr-throughput',
				figure: 'article, rendered (no cache)',
				value: `${Math.round(uncached.requestsPerSecond)} req/s · p50 ${ms(uncached.p50)} · p99 ${ms(uncached.p99)}`,
				baseline: `${Math.round(base.requestsPerSecond)} req/s`,
				ratio: times(uncached.requestsPerSecond, base.requestsPerSecond),
				disturbed: uncached.disturbed || base.disturbed,
			}),
			row({
				bench: 'ssr-throughput',
				figure: 'article, rendered, NODE_ENV=production',
				value: `${Math.round(uncachedProduction.requestsPerSecond)} req/s · p50 ${ms(uncachedProduction.p50)} · p99 ${ms(uncachedProduction.p99)}`,
				baseline: `${Math.round(uncached.requestsPerSecond)} req/s as documented (unset)`,
				ratio: times(uncachedProduction.requestsPerSecond, uncached.requestsPerSecond),
				disturbed: uncachedProduction.disturbed || uncached.disturbed,
			}),
		]
		return { rows, notes }
	} finally {
		for (const started of running.reverse()) await started.stop()
		rmSync(dir, { recursive: true, force: true })
	}
}

if (import.meta.main) await runAlone(run)
