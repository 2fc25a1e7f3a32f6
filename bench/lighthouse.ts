// Lighthouse mobile performance (its default: Moto G Power screen, slow 4G and a 4× slower CPU,
// simulated) on the four public pages of the production server, median of three runs each.
// Baseline: the article page's own HTML and build files served from memory by a plain Node
// server. It has the same JS, CSS and markup, so the gap between the two is what Canopy's
// server adds (time to first byte, compression, headers); what remains below 100 is the page.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromeFlags, chromePath } from '../tests/e2e/chrome.ts'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import { getOk } from './support/http-get.ts'
import { disturbedAbove, leastDisturbed } from './support/interference.ts'
import { articlePath, publicPages } from './support/pages.ts'
import { exitedWithin, startNode } from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { kb, met, ms, type Row, row, times } from './support/report.ts'
import { startStaticMirror } from './support/static-mirror.ts'
import { runAlone, type Target, workingTree } from './support/target.ts'

const runsPerPage = 3
const minScore = 95

interface Audit {
	numericValue?: number
	details?: {
		items?: { url?: string; statusCode?: number; resourceType?: string; transferSize?: number }[]
	}
}

interface Report {
	categories: { performance: { score: number | null } }
	audits: Record<string, Audit>
	runtimeError?: { code: string; message: string }
	runWarnings?: string[]
}

interface LighthouseRun {
	score: number
	fcp: number
	lcp: number
	tbt: number
	cls: number
	si: number
	ttfb: number
	scriptBytes: number
	totalBytes: number
	warnings: string[]
}

/** Lighthouse itself sometimes fails to record a trace (NO_NAVSTART and the like). */
class FlakyRun extends Error {}

async function lighthouse(url: string, dir: string, index: number): Promise<LighthouseRun> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await lighthouseOnce(url, dir, index)
		} catch (error) {
			if (!(error instanceof FlakyRun) || attempt >= 3) throw error
			console.warn(`[lighthouse] ${error.message.split('\n')[0]}: running it again`)
		}
	}
}

async function lighthouseOnce(url: string, dir: string, index: number): Promise<LighthouseRun> {
	const output = join(dir, `run-${index}.json`)
	const cli = join(workingTree, 'node_modules/lighthouse/cli/index.js')
	const child = startNode(
		[
			cli,
			url,
			'--quiet',
			'--output=json',
			`--output-path=${output}`,
			'--only-categories=performance',
			`--chrome-flags=${chromeFlags.join(' ')}`,
		],
		{
			env: { ...process.env, CHROME_PATH: chromePath },
			stdio: ['ignore', 'ignore', 'pipe'],
		},
	)
	let errors = ''
	child.stderr?.setEncoding('utf8')
	child.stderr?.on('data', (chunk: string) => {
		errors = (errors + chunk).slice(-4_000)
	})
	const code = await exitedWithin(child, 120_000, `Lighthouse on ${url}`)
	if (code !== 0)
		throw new FlakyRun(`Lighthouse on ${url} exited with code ${code}: ${errors.trim()}`)
	const report = JSON.parse(readFileSync(output, 'utf8')) as Report
	const score = report.categories.performance.score
	if (report.runtimeError || score === null) {
		throw new FlakyRun(
			`Lighthouse could not measure ${url}: ${report.runtimeError?.message ?? 'no score'}`,
		)
	}
	// A page whose scripts failed to load scores well and means nothing.
	const failed = (report.audits['network-requests']?.details?.items ?? []).filter(
		(item) => (item.statusCode ?? 0) >= 400,
	)
	if (failed.length > 0) {
		throw new Error(
			`Lighthouse on ${url}: requests failed: ${failed.map((item) => `${item.statusCode} ${item.url}`).join(', ')}`,
		)
	}
	const value = (id: string) => report.audits[id]?.numericValue ?? Number.NaN
	const resources = report.audits['resource-summary']?.details?.items ?? []
	const bytes = (type: string) =>
		resources.find((item) => item.resourceType === type)?.transferSize ?? 0
	return {
		score: Math.round(score * 100),
		fcp: value('first-contentful-paint'),
		lcp: value('largest-contentful-paint'),
		tbt: value('total-blocking-time'),
		cls: value('cumulative-layout-shift'),
		si: value('speed-index'),
		ttfb: value('server-response-time'),
		scriptBytes: bytes('script'),
		totalBytes: bytes('total'),
		warnings: report.runWarnings ?? [],
	}
}

/** The run with the median score, so its metrics belong together. */
async function medianRun(url: string, dir: string, note: (line: string) => void, label: string) {
	const runs: LighthouseRun[] = []
	let disturbed = false
	for (let i = 0; i < runsPerPage; i++) {
		const { result, interference } = await leastDisturbed(() => lighthouse(url, dir, i), {
			attempts: 2,
			before: () => waitForQuiet(note, 20_000),
			note,
			label: `${label}, run ${i + 1}`,
		})
		runs.push(result)
		disturbed ||= interference.foreignCores > disturbedAbove
	}
	const sorted = [...runs].sort((a, b) => a.score - b.score)
	const median = sorted[Math.floor(sorted.length / 2)] as LighthouseRun
	note(
		`${label}: scores ${runs.map((r) => r.score).join(', ')}; median run FCP ${ms(median.fcp)}, LCP ${ms(median.lcp)}, ` +
			`TBT ${ms(median.tbt)}, CLS ${median.cls.toFixed(3)}, Speed Index ${ms(median.si)}, server response ${ms(median.ttfb)}, ` +
			`transferred ${kb(median.totalBytes)} (JS ${kb(median.scriptBytes)})` +
			(median.warnings.length > 0 ? `; warnings: ${median.warnings.join(' | ')}` : ''),
	)
	return { median, runs, disturbed }
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('lighthouse')
	const dir = mkdtempSync(join(tmpdir(), 'canopy-bench-lighthouse-'))
	const server = await startCanopy(target)
	let mirror: Awaited<ReturnType<typeof startStaticMirror>> | undefined
	try {
		// Visitors after the first get the page from the cache: measure those.
		for (const page of publicPages) await getOk(new URL(page.path, server.url).href)
		const html = (await getOk(new URL(articlePath, server.url).href)).body
		mirror = await startStaticMirror({
			clientDir: target.clientDir,
			pagePath: articlePath,
			html,
			origin: server.url,
		})
		note(
			`mobile preset, simulated throttling, ${runsPerPage} runs per page; Chromium at ${chromePath}`,
		)
		const base = await medianRun(
			new URL(articlePath, mirror.url).href,
			dir,
			note,
			'baseline: static copy of the article page',
		)

		const rows: Row[] = []
		for (const page of publicPages) {
			const { median, runs, disturbed } = await medianRun(
				new URL(page.path, server.url).href,
				dir,
				note,
				page.name,
			)
			rows.push(
				row({
					bench: 'lighthouse',
					figure: `${page.name} performance (mobile)`,
					value: `${median.score} (runs ${runs.map((r) => r.score).join(', ')})`,
					baseline: `${base.median.score} static copy of article`,
					ratio: times(median.score, base.median.score),
					target: `≥ ${minScore}`,
					status: met(median.score >= minScore),
					disturbed: disturbed || base.disturbed,
				}),
			)
		}
		return { rows, notes }
	} finally {
		await mirror?.close()
		await server.stop()
		rmSync(dir, { recursive: true, force: true })
	}
}

if (import.meta.main) await runAlone(run)
