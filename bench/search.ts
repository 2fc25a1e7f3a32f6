// Search: on a publication of 10,000 generated articles of ~1,000 words, on SQLite and (when
// TEST_DATABASE_URL names a server) PostgreSQL:
// - each kind of query (a word in nearly every article, a rare word, a phrase, no match) timed in
//   the server's process through the Storage port, beside the staff lists' former LIKE query on
//   the same database;
// - /search over HTTP, uncached, at 10 concurrent readers (each request from another address, so
//   the limit per address measures nothing), beside an article's page rendered the same way;
// - the publish transaction with the index, beside the same saves at the commit before search
//   (no index) in the same run, alternating rounds on databases filled alike;
// - building the index for the 10,000 articles, as the upgrade's migrations do;
// - the smallest React Router 8 app's page at the same 10 readers: what the framework allows.
// Server on core 0, readers on core 1.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import { startMinimalApp } from './support/minimal-app.ts'
import { renderEveryTime } from './support/pages.ts'
import { jsonFromNode, pinningNote } from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { median, met, type Row, row, times } from './support/report.ts'
import { createBenchDatabase, postgresProblem } from './support/scale-database.ts'
import { prepareCommit, runAlone, type Target } from './support/target.ts'

/** The last commit before search: its saves write no index. */
const before = '04c990b'
const serverCpu = 0
const loadCpu = 1
const clients = 10
const articles = Number(process.env.BENCH_ARTICLES ?? 10_000)
const publishRounds = 3
const publishPerRound = 200
const kinds = ['common', 'rare', 'phrase', 'none'] as const
type Kind = (typeof kinds)[number]
const described: Record<Kind, string> = {
	common: 'a word in nearly every article',
	rare: 'a rare word',
	phrase: 'a phrase',
	none: 'no match',
}

interface Timing {
	count: number
	p50: number
	p99: number
}
type Queries = Record<Kind, { text: string; total: number; search: Timing; like: Timing }>

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`
const pair = (timing: { p50: number; p99: number }) => `${ms(timing.p50)} / ${ms(timing.p99)}`

/** Runs bench/support/search-data.ts of `target` in `mode`; its one JSON line. */
async function data<T>(target: Target, mode: string, env: Record<string, string>): Promise<T> {
	return jsonFromNode<T>(
		[join(target.root, 'bench/support/search-data.ts'), mode],
		{ cwd: target.root, cpu: serverCpu, env: { ...process.env, ...env, LOG_LEVEL: 'error' } },
		30 * 60_000,
		`search data (${mode})`,
	)
}

interface SearchLoad {
	requests: number
	perSecond: number
	p50: number
	p99: number
	failed: number
}

async function load(target: Target, url: string, headers: Record<string, string> = {}) {
	const options = { url, clients, warmupSeconds: 2, seconds: 6, headers }
	const result = await jsonFromNode<SearchLoad>(
		[join(target.root, 'bench/support/search-load.ts'), JSON.stringify(options)],
		{ cpu: loadCpu },
		60_000,
		'the search readers',
	)
	if (result.failed > 0 || result.requests === 0)
		throw new Error(`${result.failed} of ${result.requests} searches of ${url} failed`)
	return result
}

interface Place {
	/** DATA_DIR or DATABASE_URL for the scripts and the server. */
	env: Record<string, string>
	dataDir: string
	drop(): Promise<void>
}

async function onDatabase(
	target: Target,
	baseline: Target | undefined,
	name: 'SQLite' | 'PostgreSQL',
	place: () => Promise<Place>,
	note: (line: string) => void,
): Promise<Row[]> {
	const rows: Row[] = []
	const now = await place()
	const then = baseline ? await place() : undefined
	try {
		const env = (at: Place) => ({ ...at.env, DATA_DIR: at.dataDir, ARTICLES: String(articles) })
		const filled = await data<{ writeSeconds: number; stemSeconds?: number }>(
			target,
			'fill',
			env(now),
		)
		note(
			`${name}: ${articles.toLocaleString('en')} articles of ~1,000 words written through the Storage port in ${filled.writeSeconds.toFixed(1)} s, with the index; their stems made after in ${filled.stemSeconds?.toFixed(1) ?? '–'} s (the search-stems worker's steps)`,
		)
		let filledBefore: { writeSeconds: number } | undefined
		if (baseline && then) {
			filledBefore = await data<{ writeSeconds: number }>(baseline, 'fill', env(then))
			note(
				`${name}: the same at commit ${before} (no index) in ${filledBefore.writeSeconds.toFixed(1)} s`,
			)
		}

		// The publish transaction: rounds alternating between the two, so drift hits both alike.
		const withIndex: Timing[] = []
		const withoutIndex: Timing[] = []
		for (let round = 0; round < publishRounds; round++) {
			const batch = { COUNT: String(publishPerRound), FROM: String(100_000 + round * 1_000) }
			await waitForQuiet(note)
			withIndex.push(await data<Timing>(target, 'publish', { ...env(now), ...batch }))
			if (baseline && then)
				withoutIndex.push(await data<Timing>(baseline, 'publish', { ...env(then), ...batch }))
		}
		const worst = (timings: Timing[]) => ({
			p50: Math.max(...timings.map((t) => t.p50)),
			p99: Math.max(...timings.map((t) => t.p99)),
		})
		const middle = (timings: Timing[]) => ({
			p50: median(timings.map((t) => t.p50)),
			p99: median(timings.map((t) => t.p99)),
		})
		note(
			`${name}: publish rounds of ${publishPerRound}, p50 / p99 with the index: ${withIndex.map(pair).join('; ')}; without: ${withoutIndex.map(pair).join('; ') || 'no baseline'} (worst round ${pair(worst(withIndex))})`,
		)
		const withMedian = middle(withIndex)
		if (withoutIndex.length > 0) {
			const withoutMedian = middle(withoutIndex)
			const added = withMedian.p99 - withoutMedian.p99
			rows.push(
				row({
					bench: 'search',
					figure: `${name}: publish transaction p50 / p99 with the index (median of ${publishRounds} rounds)`,
					value: pair(withMedian),
					baseline: `${pair(withoutMedian)} at ${before}, no index`,
					ratio: times(withMedian.p99, withoutMedian.p99),
					target: name === 'SQLite' ? 'adds ≤ 1 ms p99' : '',
					status: name === 'SQLite' ? met(added <= 1) : 'info',
				}),
			)
		}

		// In the process, through the Storage port, beside the former LIKE query.
		await waitForQuiet(note)
		const queries = await data<Queries>(target, 'query', { ...env(now), REPEAT: '300' })
		for (const kind of kinds) {
			const found = queries[kind]
			note(
				`${name}, ${described[kind]} (${found.text}, ${found.total}${found.total === 500 ? '+' : ''} matches): search ${pair(found.search)}, LIKE ${pair(found.like)}`,
			)
			rows.push(
				row({
					bench: 'search',
					figure: `${name}: search p50 / p99 in the process, ${described[kind]}`,
					value: pair(found.search),
					baseline: `LIKE ${pair(found.like)}`,
					ratio: times(found.search.p99, found.like.p99),
					target: 'p99 ≤ 2 ms',
					status: met(found.search.p99 <= 2),
				}),
			)
		}

		// Over HTTP: the server on the same database, trusting loopback's X-Forwarded-For.
		const canopy = await startCanopy(target, {
			cpu: serverCpu,
			logLevel: 'error',
			dataDir: now.dataDir,
			env: { ...now.env, TRUST_PROXY: '127.0.0.1' },
		})
		try {
			// Beside: an article's page rendered for each request (no page cache), as every page is.
			await waitForQuiet(note)
			const article = await load(
				target,
				`${canopy.url}/articles/field-notes-${Math.ceil(articles / 2)}`,
				renderEveryTime,
			)
			note(
				`${name}, an article page rendered: ${Math.round(article.perSecond)} req/s, p50 ${ms(article.p50)}, p99 ${ms(article.p99)}`,
			)
			for (const kind of kinds) {
				const found = queries[kind]
				await waitForQuiet(note)
				const url = `${canopy.url}/search?${new URLSearchParams({ q: found.text })}`
				const result = await load(target, url)
				note(
					`${name}, /search, ${described[kind]}: ${Math.round(result.perSecond)} req/s, p50 ${ms(result.p50)}, p99 ${ms(result.p99)} (${result.requests} requests)`,
				)
				rows.push(
					row({
						bench: 'search',
						figure: `${name}: /search p50 / p99 over HTTP, ${clients} readers, ${described[kind]}`,
						value: `${pair(result)} · ${Math.round(result.perSecond)} req/s`,
						baseline: `article page ${pair(article)} · ${Math.round(article.perSecond)} req/s`,
						ratio: times(result.p99, article.p99),
						target: 'p99 ≤ 20 ms',
						status: met(result.p99 <= 20),
					}),
				)
			}
		} finally {
			await canopy.stop()
		}

		// The upgrade: this tree's migrations over the commit before search's database.
		if (then) {
			const built = await data<{ seconds: number; applied: string[] }>(target, 'migrate', env(then))
			note(
				`${name}: migrations ${built.applied.join(', ')} over ${articles} articles in ${built.seconds.toFixed(1)} s`,
			)
			rows.push(
				row({
					bench: 'search',
					figure: `${name}: the index built for ${articles.toLocaleString('en')} articles (the upgrade's migrations)`,
					value: `${built.seconds.toFixed(1)} s`,
					baseline: filledBefore ? `writing them: ${filledBefore.writeSeconds.toFixed(1)} s` : '',
					ratio: filledBefore ? times(built.seconds, filledBefore.writeSeconds) : '',
					status: 'info',
				}),
			)
		}
	} finally {
		await now.drop()
		await then?.drop()
	}
	return rows
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('search')
	note(`${pinningNote()}: server and scripts on core ${serverCpu}, readers on core ${loadCpu}`)
	const baseline = prepareCommit(before, note)
	if (baseline) {
		// The baseline's copy holds no benchmarks: it is given this one's data script (which uses
		// the Storage port alone), the percentile it reports with, and the stems step it imports
		// (which finds no stems in a tree before them).
		mkdirSync(join(baseline.root, 'bench/support'), { recursive: true })
		for (const file of ['search-data.ts', 'report.ts', 'stems.ts'])
			copyFileSync(
				join(target.root, 'bench/support', file),
				join(baseline.root, 'bench/support', file),
			)
	} else
		note(`commit ${before} is not in this checkout's history: no baseline for the publish figure`)
	const rows: Row[] = []
	try {
		// What the framework alone allows at 10 readers: the smallest React Router 8 app's page.
		const minimal = await startMinimalApp(target, serverCpu)
		try {
			await waitForQuiet(note)
			const result = await load(target, minimal.url)
			note(
				`minimal React Router 8 app (${minimal.routes}), its article page: ${Math.round(result.perSecond)} req/s, p50 ${ms(result.p50)}, p99 ${ms(result.p99)}`,
			)
			rows.push(
				row({
					bench: 'search',
					figure: `minimal React Router 8 app (${minimal.routes}), a page rendered, ${clients} readers`,
					value: `${pair(result)} · ${Math.round(result.perSecond)} req/s`,
					target: 'what /search is held to: p99 ≤ 20 ms',
					status: met(result.p99 <= 20),
				}),
			)
		} finally {
			await minimal.stop()
		}
		const sqlitePlace = async (): Promise<Place> => {
			const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-search-'))
			return {
				env: { DATABASE_URL: '' },
				dataDir,
				drop: async () => rmSync(dataDir, { recursive: true, force: true }),
			}
		}
		rows.push(...(await onDatabase(target, baseline, 'SQLite', sqlitePlace, note)))
		const serverUrl = process.env.TEST_DATABASE_URL
		const problem = await postgresProblem(serverUrl)
		if (problem || !serverUrl) {
			note(`PostgreSQL skipped: ${problem}`)
			return { rows, notes }
		}
		const postgresPlace = async (): Promise<Place> => {
			const database = await createBenchDatabase(serverUrl)
			const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-search-'))
			return {
				env: { DATABASE_URL: database.url },
				dataDir,
				drop: async () => {
					await database.drop()
					rmSync(dataDir, { recursive: true, force: true })
				},
			}
		}
		rows.push(...(await onDatabase(target, baseline, 'PostgreSQL', postgresPlace, note)))
	} finally {
		baseline?.remove()
	}
	return { rows, notes }
}

if (import.meta.main) await runAlone(run)
