// Moving in from Ghost (docs/decisions/034-moving-in.md): a generated export of 5,000 posts of
// about 1,000 words, 2,000 of them with a camera photo, imported by the command a user runs
// (`npm run cli -- import:ghost`) into a new SQLite site.
//
//   1. Time, beside the same 5,000 posts given as Markdown to saveArticle (Canopy's own write
//      path) in the same run: what reading, converting and re-hosting add.
//   2. Memory: the import's peak resident memory (VmHWM: the main thread, the Markdown workers'
//      heaps and the image library's cache together) at 5,000 posts beside the same import of a
//      fifth of the export (1,000 posts, 400 photos) in the same run. Streaming, the posts pass
//      through and only the links between posts, tags and authors are held: target ≤ 2× for 5×
//      the posts. JSON.parse of the whole file, alone in a process, is printed for scale.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { writeGhostSite } from './support/move-in-data.ts'
import { exitedWithin, jsonFromNode, startNode } from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { met, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const bench = 'move-in'
/** The smaller export, for the memory figure: a fifth of the posts and photos. */
const fifth = 5
const posts = 5_000
const images = 2_000

/** The highest resident memory a process reached, read from /proc until it exits. */
function peakMemory(pid: number | undefined): () => number {
	let peak = 0
	const timer = setInterval(() => {
		try {
			const status = readFileSync(`/proc/${pid}/status`, 'utf8')
			const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0)
			peak = Math.max(peak, kb * 1024)
		} catch {
			clearInterval(timer)
		}
	}, 50)
	return () => {
		clearInterval(timer)
		return peak
	}
}

async function measured(
	args: string[],
	options: { cwd: string; env: Record<string, string> },
	what: string,
): Promise<{ ms: number; peak: number; output: string }> {
	const started = performance.now()
	const child = startNode(args, {
		cwd: options.cwd,
		env: { ...process.env, ...options.env },
		stdio: ['ignore', 'pipe', 'inherit'],
	})
	const peak = peakMemory(child.pid)
	let output = ''
	child.stdout?.setEncoding('utf8')
	child.stdout?.on('data', (chunk: string) => {
		output += chunk
	})
	const code = await exitedWithin(child, 20 * 60_000, what)
	const elapsed = performance.now() - started
	if (code !== 0) throw new Error(`${what} exited with code ${code}: ${output}`)
	return { ms: elapsed, peak: peak(), output }
}

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`
const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes(bench)
	const dir = mkdtempSync(join(tmpdir(), 'canopy-move-in-'))
	try {
		const site = await writeGhostSite(dir, { posts, images })
		note(
			`export: ${mb(site.bytes)}, ${posts.toLocaleString('en')} posts, ${images.toLocaleString('en')} photos`,
		)

		await waitForQuiet(note)
		const parse = await measured(
			['-e', `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(site.file)}, 'utf8'))`],
			{ cwd: target.root, env: {} },
			'JSON.parse of the export',
		)
		note(
			`JSON.parse of the whole file, alone in a process: ${seconds(parse.ms)}, peak ${mb(parse.peak)}`,
		)
		const small = await writeGhostSite(join(dir, 'small'), {
			posts: posts / fifth,
			images: images / fifth,
		})
		await waitForQuiet(note)
		const smaller = await measured(
			['server/cli.ts', 'import:ghost', small.file, '--images', small.images],
			{
				cwd: target.root,
				env: { DATA_DIR: join(dir, 'small-site'), DATABASE_URL: '', LOG_LEVEL: 'warn' },
			},
			'import:ghost of the smaller export',
		)
		note(
			`import:ghost of ${(posts / fifth).toLocaleString('en')} posts (${mb(small.bytes)}): ${seconds(smaller.ms)}, peak ${mb(smaller.peak)}`,
		)

		await waitForQuiet(note)
		const baseline = await jsonFromNode<{ ms: number }>(
			['bench/support/move-in-baseline.ts', join(dir, 'baseline.db'), String(posts)],
			{ cwd: target.root },
			20 * 60_000,
			'saveArticle baseline',
		)
		note(`saveArticle of the same posts as Markdown: ${seconds(baseline.ms)}`)

		await waitForQuiet(note)
		const imported = await measured(
			['server/cli.ts', 'import:ghost', site.file, '--images', site.images],
			{
				cwd: target.root,
				env: { DATA_DIR: join(dir, 'site'), DATABASE_URL: '', LOG_LEVEL: 'warn' },
			},
			'import:ghost',
		)
		note(
			`import:ghost of ${posts.toLocaleString('en')} posts: ${seconds(imported.ms)}, peak ${mb(imported.peak)}`,
		)
		note(`its report: ${imported.output.split('\n')[0]}`)
		const complete = imported.output.startsWith(
			`Imported from Ghost: ${posts.toLocaleString('en')} articles, 0 pages, 20 tags, 10 authors, ${images.toLocaleString('en')} images`,
		)
		return {
			rows: [
				row({
					bench,
					figure: `import of ${posts.toLocaleString('en')} posts with ${images.toLocaleString('en')} images (Ghost, SQLite)`,
					value: `${seconds(imported.ms)} (${Math.round((posts / imported.ms) * 1000)} posts/s)`,
					baseline: `${seconds(baseline.ms)} saveArticle of the same posts as Markdown`,
					ratio: times(imported.ms, baseline.ms),
					target: 'everything imported',
					status: met(complete),
				}),
				row({
					bench,
					figure: `import peak memory, ${posts.toLocaleString('en')} posts (export ${mb(site.bytes)})`,
					value: mb(imported.peak),
					baseline: `${mb(smaller.peak)} importing ${(posts / fifth).toLocaleString('en')} posts`,
					ratio: times(imported.peak, smaller.peak),
					target: '≤ 2× for 5× the posts',
					status: met(complete && imported.peak <= 2 * smaller.peak),
				}),
			],
			notes,
		}
	} finally {
		rmSync(dir, { recursive: true, force: true })
	}
}

if (import.meta.main) await runAlone(run)
