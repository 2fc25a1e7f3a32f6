// SSR throughput: the article page from the production server, from its page cache under 50
// concurrent connections and rendered under 20, beside a plain node:http server sending the same
// bytes from memory and a minimal React Router 8 app with as many routes (bench/minimal-router-app)
// rendering a page of the same size. Server on core 0, load generator on core 1, so neither
// steals the other's CPU. Also: a reader's unrelated cookies, a signed-in editor's article list,
// cold start to the first page and idle memory.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import { getOk } from './support/http-get.ts'
import { describeInterference, disturbedAbove, leastDisturbed } from './support/interference.ts'
import type { LoadOptions, LoadResult } from './support/load-client.ts'
import { runLoad } from './support/load-run.ts'
import { startMinimalApp } from './support/minimal-app.ts'
import { articlePath, renderEveryTime } from './support/pages.ts'
import type { PlainPage } from './support/plain-page-server.ts'
import { pinningNote, startNode, stopProcess, waitForOutput } from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { kb, met, type Row, row, times } from './support/report.ts'
import { runNode } from './support/run-node.ts'
import { runAlone, type Target } from './support/target.ts'

const serverCpu = 0
const loadCpu = 1
const connections = 50
/** Rendered pages: as many readers at once as the render target names. */
const renderConnections = 20
const warmupSeconds = 2
const seconds = 10
const minRatio = 0.5
const minRenderRatio = 0.1
const maxRenderP99Ms = 50
// What real readers carry that Canopy does not read: a theme, a consent banner's, an analytics
// tool's and a CDN's cookie.
const unrelatedCookies = {
	cookie: 'theme=dark; cookieconsent_status=dismiss; _ga=GA1.1.1234567.1760000000; __cf_bm=aB3.x-9',
}
const editorEmail = 'bench-editor@example.org'
const editorPassword = 'a bench of salt marsh'
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
	clients = connections,
): Promise<LoadResult> {
	const options: LoadOptions = { url, connections: clients, warmupSeconds, seconds, headers }
	return runLoad(target, options, loadCpu)
}

const summarise = (r: LoadResult) =>
	`${Math.round(r.requestsPerSecond)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}, ` +
	`${r.requests} requests, ${kb(r.bytesPerRequest)} per response`

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`

/** Resident memory of a process, from /proc (Linux): what `ps` calls RSS. */
function rssBytes(pid: number | undefined): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8')
	return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

/** Makes an editor with the CLI and signs in as a browser does: the session cookie. */
async function editorSession(target: Target, url: string, dataDir: string): Promise<string> {
	await runNode(
		target,
		['server/cli.ts', 'user:create', '--email', editorEmail, '--role', 'editor'],
		{ DATA_DIR: dataDir, NODE_ENV: 'production' },
		`${editorPassword}\n`,
	)
	const response = await fetch(new URL('/admin/sign-in', url), {
		method: 'POST',
		redirect: 'manual',
		headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ email: editorEmail, password: editorPassword }),
	})
	const cookie = response.headers
		.getSetCookie()
		.map((value) => value.split(';')[0])
		.join('; ')
	if (!cookie.includes('canopy.session_token='))
		throw new Error('the bench editor could not sign in')
	return cookie
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('ssr-throughput')
	const dir = mkdtempSync(join(tmpdir(), 'canopy-bench-ssr-'))
	// Everything started here, stopped in reverse order however the run ends.
	const running: { stop(): Promise<void> }[] = []
	try {
		// Cold start: from starting the process on a fresh data directory to the first article
		// page. Three starts, the figure their median: the first with Node's compile cache empty
		// for this tree (a new install's first start), the others as a restart after an upgrade.
		const startsMs: number[] = []
		for (let start = 0; start < 2; start++) {
			const freshDir = mkdtempSync(join(tmpdir(), 'canopy-bench-ssr-data-'))
			try {
				const starting = performance.now()
				const started = await startCanopy(target, {
					cpu: serverCpu,
					logLevel: 'error',
					dataDir: freshDir,
				})
				await getOk(new URL(articlePath, started.url).href)
				startsMs.push(performance.now() - starting)
				await started.stop()
			} finally {
				rmSync(freshDir, { recursive: true, force: true })
			}
		}
		const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-ssr-data-'))
		running.push({ stop: async () => rmSync(dataDir, { recursive: true, force: true }) })
		const starting = performance.now()
		const canopy = await startCanopy(target, { cpu: serverCpu, logLevel: 'error', dataDir })
		running.push(canopy)
		const url = new URL(articlePath, canopy.url).href
		await getOk(url) // fills the page cache
		startsMs.push(performance.now() - starting)
		const coldStartMs = [...startsMs].sort((a, b) => a - b)[1] ?? 0
		note(
			`cold starts: ${startsMs.map((ms) => Math.round(ms)).join(', ')} ms (the first with an empty compile cache); the median is the figure`,
		)
		// Idle memory of the last, before any load.
		await new Promise((resolve) => setTimeout(resolve, 1_000))
		const idleRss = rssBytes(canopy.child.pid)
		const page = await getOk(url)
		if (page.headers['cache-status'] !== 'canopy; hit')
			throw new Error(
				`the article was not served from the page cache: ${page.headers['cache-status']}`,
			)
		const headers: Record<string, string> = {}
		for (const [name, value] of Object.entries(page.headers)) {
			if (typeof value === 'string' && !skippedHeaders.has(name)) headers[name] = value
		}
		const file = join(dir, 'page.json')
		writeFileSync(
			file,
			JSON.stringify({ headers, bodyBase64: page.body.toString('base64') } satisfies PlainPage),
		)
		/** The plain server on the page's bytes; `costMs` of CPU per answer when given. */
		const startPlain = async (costMs = 0) => {
			const started = startNode(
				[join(target.root, 'bench/support/plain-page-server.ts'), file, String(costMs)],
				{ cpu: serverCpu, stdio: ['ignore', 'pipe', 'inherit'] },
			)
			running.push({ stop: () => stopProcess(started) })
			const port = (
				await waitForOutput(started, /listening on (\d+)/, 15_000, 'the plain page server')
			)[1]
			return { child: started, url: `http://127.0.0.1:${port}${articlePath}` }
		}
		const plainStarting = performance.now()
		const { child, url: plainUrl } = await startPlain()
		await getOk(plainUrl)
		const plainStartMs = performance.now() - plainStarting
		const plainRss = rssBytes(child.pid)
		note(
			`${pinningNote()}: servers on core ${serverCpu}, autocannon on core ${loadCpu}; ${connections} connections for cached pages and ${renderConnections} for rendered ones, not pipelined, ${warmupSeconds} s warm-up + ${seconds} s`,
		)
		note(`page: ${articlePath}, ${kb(page.body.length)} of HTML`)

		const gzip = { 'accept-encoding': 'gzip' }
		const measure = async (
			label: string,
			pageUrl: string,
			headers: Record<string, string>,
			clients = connections,
		) => {
			const { result, interference } = await leastDisturbed(
				() => load(target, pageUrl, headers, clients),
				{ before: () => waitForQuiet(note), note, label },
			)
			note(`${label}: ${summarise(result)}; ${describeInterference(interference)}`)
			return { ...result, disturbed: interference.foreignCores > disturbedAbove }
		}
		const base = await measure('baseline, plain node:http from memory', plainUrl, {})
		const cached = await measure('Canopy, page cache', url, {})
		const unrelated = await measure(
			'Canopy, page cache, a reader with unrelated cookies',
			url,
			unrelatedCookies,
		)
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
		const rendered = (label: string, path: string, cookie = renderEveryTime) =>
			measure(
				`Canopy, ${label}, rendered every time`,
				new URL(path, canopy.url).href,
				cookie,
				renderConnections,
			)
		const article = await rendered('article', articlePath)
		const list = await rendered('/articles', '/articles')
		const home = await rendered('/home', '/home')
		const editor = await rendered('editor’s article list (signed in)', '/admin/articles', {
			cookie: await editorSession(target, canopy.url, dataDir),
		})
		await canopy.stop()
		await stopProcess(child)

		// The least p99 the article's rate allows: the same bytes at the same rate, every answer
		// taking the article's time per request and not a microsecond more or less (less what
		// the plain server spends on an answer itself, which it spends on top).
		const articleCostMs = Math.max(
			0,
			1000 / article.requestsPerSecond - 1000 / base.requestsPerSecond,
		)
		const steady = await startPlain(articleCostMs)
		const floor = await measure(
			`a server spending ${articleCostMs.toFixed(2)} ms per answer, no more, no less`,
			steady.url,
			{},
			renderConnections,
		)
		await stopProcess(steady.child)

		// The framework's own cost: the smallest React Router app rendering a page like it.
		const minimalApp = await startMinimalApp(target, serverCpu)
		running.push(minimalApp)
		const { routes, url: minimalUrl } = minimalApp
		const minimalPage = await getOk(minimalUrl)
		note(`minimal React Router 8 app: ${routes}, ${kb(minimalPage.body.length)} of HTML`)
		const minimal = await measure(
			'minimal React Router 8 app, rendered every time',
			minimalUrl,
			{},
			renderConnections,
		)
		await minimalApp.stop()

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
				figure: 'article, page cache, reader with unrelated cookies',
				value: `${Math.round(unrelated.requestsPerSecond)} req/s · p99 ${ms(unrelated.p99)}`,
				baseline: `${Math.round(base.requestsPerSecond)} req/s plain Node`,
				ratio: times(unrelated.requestsPerSecond, base.requestsPerSecond),
				target: `cache hit, ≥ ${minRatio}× baseline`,
				status: met(unrelated.requestsPerSecond / base.requestsPerSecond >= minRatio),
				disturbed: unrelated.disturbed || base.disturbed,
			}),
			...[
				['article', article],
				['/articles', list],
				['/home', home],
				['editor’s article list (signed in)', editor],
			].map(([label, result]) => {
				const r = result as typeof article
				return row({
					bench: 'ssr-throughput',
					figure: `${label}, rendered, ${renderConnections} connections`,
					value: `${Math.round(r.requestsPerSecond)} req/s · p50 ${ms(r.p50)} · p99 ${ms(r.p99)}`,
					baseline: `${Math.round(base.requestsPerSecond)} req/s plain Node`,
					ratio: times(r.requestsPerSecond, base.requestsPerSecond),
					target: `≥ ${minRenderRatio}× and p99 ≤ ${maxRenderP99Ms} ms`,
					status: met(
						r.requestsPerSecond / base.requestsPerSecond >= minRenderRatio &&
							r.p99 <= maxRenderP99Ms,
					),
					disturbed: r.disturbed || base.disturbed,
				})
			}),
			row({
				bench: 'ssr-throughput',
				figure: `article rendered: p99 beside a steady server at its rate (${articleCostMs.toFixed(2)} ms per answer), ${renderConnections} connections`,
				value: `p99 ${ms(article.p99)} · ${Math.round(article.requestsPerSecond)} req/s`,
				baseline: `p99 ${ms(floor.p99)} · ${Math.round(floor.requestsPerSecond)} req/s`,
				ratio: times(article.p99, floor.p99),
				disturbed: article.disturbed || floor.disturbed,
			}),
			row({
				bench: 'ssr-throughput',
				figure: `minimal React Router 8 app (${routes}), rendered, ${renderConnections} connections`,
				value: `${Math.round(minimal.requestsPerSecond)} req/s · p50 ${ms(minimal.p50)} · p99 ${ms(minimal.p99)}`,
				baseline: `${Math.round(base.requestsPerSecond)} req/s plain Node`,
				ratio: times(minimal.requestsPerSecond, base.requestsPerSecond),
				disturbed: minimal.disturbed || base.disturbed,
			}),
			row({
				bench: 'ssr-throughput',
				figure: 'article rendered: Canopy beside the minimal app',
				value: `${Math.round(article.requestsPerSecond)} req/s`,
				baseline: `${Math.round(minimal.requestsPerSecond)} req/s minimal app`,
				ratio: times(article.requestsPerSecond, minimal.requestsPerSecond),
				disturbed: minimal.disturbed || article.disturbed,
			}),
			row({
				bench: 'ssr-throughput',
				figure: 'cold start to the first article page (median of 3) · idle RSS',
				value: `${Math.round(coldStartMs)} ms · ${mb(idleRss)}`,
				baseline: `${Math.round(plainStartMs)} ms · ${mb(plainRss)} plain Node`,
				ratio: times(coldStartMs, plainStartMs),
			}),
		]
		return { rows, notes }
	} finally {
		for (const started of running.reverse()) await started.stop()
		rmSync(dir, { recursive: true, force: true })
	}
}

if (import.meta.main) await runAlone(run)
