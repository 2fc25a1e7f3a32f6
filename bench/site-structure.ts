// Site structure: a tag's page and an author's page rendered without the page cache, at 10
// concurrent readers on a publication of 10,000 articles, beside the article page in the same
// run; and a renamed article's old address (301) beside a page-cache hit. On SQLite, and on
// PostgreSQL when TEST_DATABASE_URL names a server. Server on core 0, load on core 1.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import { describeInterference, disturbedAbove, leastDisturbed } from './support/interference.ts'
import type { LoadOptions, LoadResult } from './support/load-client.ts'
import { renderEveryTime } from './support/pages.ts'
import { jsonFromNode, pinningNote } from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { met, type Row, row, times } from './support/report.ts'
import { createBenchDatabase, postgresProblem } from './support/scale-database.ts'
import { runAlone, type Target } from './support/target.ts'

const serverCpu = 0
const loadCpu = 1
const connections = 10
const warmupSeconds = 2
const seconds = 8
const maxP99Ms = 50
const articles = Number(process.env.BENCH_ARTICLES ?? 10_000)
/** autocannon records whole milliseconds; 0 means under one. */
const ms = (value: number) => (value < 1 ? '< 1 ms' : `${Math.round(value)} ms`)

interface SiteData {
	writeSeconds: number
	/** Their search stems made after (undefined on a tree without stems). */
	stemSeconds?: number
	article: string
	tag: string
	author: string
	oldAddress: string
	newAddress: string
}

/** Fills the database through the Storage port (bench/support/site-data.ts). */
async function fill(target: Target, env: Record<string, string>): Promise<SiteData> {
	return jsonFromNode<SiteData>(
		[join(target.root, 'bench/support/site-data.ts')],
		{
			cwd: target.root,
			env: { ...process.env, ...env, ARTICLES: String(articles), LOG_LEVEL: 'error' },
		},
		30 * 60_000,
		'the site data',
	)
}

/** One load run; `redirects` when every answer should be a 301. */
async function load(
	target: Target,
	url: string,
	headers: Record<string, string>,
	redirects = false,
): Promise<LoadResult> {
	const options: LoadOptions = { url, connections, warmupSeconds, seconds, headers }
	const result = await jsonFromNode<LoadResult>(
		[join(target.root, 'bench/support/load-client.ts'), JSON.stringify(options)],
		{ cpu: loadCpu },
		(warmupSeconds + seconds + 30) * 1000,
		'autocannon',
	)
	const wrong = redirects ? result.requests - result.non2xx : result.non2xx
	if (result.errors > 0 || wrong > 0 || result.requests === 0)
		throw new Error(
			`load run against ${url} had ${result.errors} errors and ${wrong} answers of the wrong kind`,
		)
	return result
}

async function onDatabase(
	target: Target,
	name: 'SQLite' | 'PostgreSQL',
	env: Record<string, string>,
	dataDir: string,
	note: (line: string) => void,
	/** The database's own processes: their work is part of each render, not a disturbance. */
	serves?: (pid: number) => boolean,
): Promise<Row[]> {
	const data = await fill(target, { ...env, DATA_DIR: dataDir })
	note(
		`${name}: ${articles.toLocaleString('en')} articles written through the Storage port in ${data.writeSeconds.toFixed(1)} s, their search stems made after in ${data.stemSeconds?.toFixed(1) ?? '–'} s (a server started on them would otherwise spend its first half minute on it)`,
	)
	const canopy = await startCanopy(target, { cpu: serverCpu, logLevel: 'error', dataDir, env })
	try {
		const measure = async (
			label: string,
			path: string,
			headers: Record<string, string>,
			redirects = false,
		) => {
			const url = new URL(path, canopy.url).href
			const { result, interference } = await leastDisturbed(
				() => load(target, url, headers, redirects),
				{ before: () => waitForQuiet(note), note, label, alsoOurs: serves },
			)
			note(
				`${name}, ${label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${ms(result.p50)}, p99 ${ms(result.p99)}, max ${ms(result.max)}; ${describeInterference(interference)}`,
			)
			return { ...result, disturbed: interference.foreignCores > disturbedAbove }
		}
		const uncached = renderEveryTime
		const article = await measure('article, rendered', data.article, uncached)
		const tag = await measure('tag page, rendered', data.tag, uncached)
		const author = await measure('author page, rendered', data.author, uncached)
		const hit = await measure('article, page cache', data.newAddress, {})
		const moved = await measure('renamed article’s old address (301)', data.oldAddress, {}, true)
		const rendered = (label: string, result: typeof tag) =>
			row({
				bench: 'site-structure',
				figure: `${name}: ${label} p50 / p99, rendered, ${connections} readers`,
				value: `${ms(result.p50)} / ${ms(result.p99)} · ${Math.round(result.requestsPerSecond)} req/s`,
				baseline: `article ${ms(article.p50)} / ${ms(article.p99)} · ${Math.round(article.requestsPerSecond)} req/s`,
				ratio: times(result.p99, article.p99),
				target: `p99 ≤ ${maxP99Ms} ms`,
				status: met(result.p99 <= maxP99Ms),
				disturbed: result.disturbed || article.disturbed,
			})
		return [
			rendered('/tags/:slug', tag),
			rendered('/authors/:slug', author),
			row({
				bench: 'site-structure',
				figure: `${name}: 301 from a renamed slug`,
				value: `${Math.round(moved.requestsPerSecond)} req/s · p99 ${ms(moved.p99)}`,
				baseline: `${Math.round(hit.requestsPerSecond)} req/s · p99 ${ms(hit.p99)} page-cache hit`,
				ratio: times(moved.requestsPerSecond, hit.requestsPerSecond),
				target: '≥ 0.9× a page-cache hit',
				status: met(moved.requestsPerSecond >= 0.9 * hit.requestsPerSecond),
				disturbed: moved.disturbed || hit.disturbed,
			}),
		]
	} finally {
		await canopy.stop()
	}
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('site-structure')
	note(
		`${pinningNote()}: server on core ${serverCpu}, autocannon on core ${loadCpu}; ${connections} connections, ${warmupSeconds} s warm-up + ${seconds} s; NODE_ENV unset, as documented`,
	)
	const rows: Row[] = []
	const sqliteDir = mkdtempSync(join(tmpdir(), 'canopy-bench-site-'))
	try {
		rows.push(...(await onDatabase(target, 'SQLite', { DATABASE_URL: '' }, sqliteDir, note)))
	} finally {
		rmSync(sqliteDir, { recursive: true, force: true })
	}
	const serverUrl = process.env.TEST_DATABASE_URL
	const problem = await postgresProblem(serverUrl)
	if (problem || !serverUrl) {
		note(`PostgreSQL skipped: ${problem}`)
		return { rows, notes }
	}
	const database = await createBenchDatabase(serverUrl)
	const postgresDir = mkdtempSync(join(tmpdir(), 'canopy-bench-site-'))
	try {
		rows.push(
			...(await onDatabase(
				target,
				'PostgreSQL',
				{ DATABASE_URL: database.url },
				postgresDir,
				note,
				database.serves,
			)),
		)
	} finally {
		await database.drop()
		rmSync(postgresDir, { recursive: true, force: true })
	}
	return { rows, notes }
}

if (import.meta.main) await runAlone(run)
