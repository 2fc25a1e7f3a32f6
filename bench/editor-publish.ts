// How long a scripted editor takes, and how many clicks, from the sign-in page to a published
// article with a cover image and two tags, in a real browser against the production server.
// Baseline: the same script against the editor as it was before the staff area and the editor
// were redesigned (commit `before`), built and served in the same run, so the ratio is the
// redesign's and not the machine's. A person is slower than a script; what matters is the ratio
// and the clicks, which a person makes too.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Locator, type Page } from '@playwright/test'
import { chromeFlags, pageBrowserPath } from '../tests/e2e/chrome.ts'
import { pngImage } from '../tests/fixtures/images.ts'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import { median, ms, type Row, row, times } from './support/report.ts'
import { runNode } from './support/run-node.ts'
import { prepareCommit, runAlone, type Target } from './support/target.ts'

/** The last commit before the staff area had a chrome of its own and the editor its columns. */
const before = '6d28e61'
const runs = 3
const email = 'bench-editor@example.org'
const password = 'bench editor password 12'

interface Walk {
	ms: number
	/** Each step's share, in the order walked. */
	steps: Record<string, number>
	clicks: number
	/** Fields typed into. */
	fields: number
}

/** One editor's way from sign-in to "Published.", clicking and typing as a person does. */
async function walk(browser: Browser, url: string, run: number): Promise<Walk> {
	const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } })
	const page = await context.newPage()
	let clicks = 0
	let fields = 0
	const click = async (target: Locator) => {
		clicks++
		await target.click()
	}
	const type = async (target: Locator, text: string) => {
		fields++
		await click(target)
		await page.keyboard.type(text)
	}
	const steps: Record<string, number> = {}
	let mark = 0
	const step = (name: string) => {
		const now = performance.now()
		steps[name] = now - mark
		mark = now
	}
	try {
		await page.goto('/admin/sign-in')
		const started = performance.now()
		mark = started
		await type(page.getByLabel('Email address'), email)
		await type(page.getByLabel('Password'), password)
		await click(page.getByRole('button', { name: 'Sign in' }))
		// The way to a new article: "New article" in the sidebar, or the overview's button before.
		await click(page.getByRole('link', { name: /^(New article|Write a new article)$/ }).first())
		await page.getByLabel('Title', { exact: true }).waitFor()
		await waitForScripts(page)
		step('sign in, open the editor')
		await type(page.getByLabel('Title', { exact: true }), `Reed beds filter the river ${run}`)
		await type(page.getByLabel('Text (Markdown)'), 'Reed beds slow the water and hold its silt. ')
		await type(page.getByLabel('Tags'), 'rivers, wetlands')
		step('type title, text, tags')
		// The file picker: a click to open it and one to choose the file.
		clicks += 2
		await page
			.getByLabel(/^Upload an image/)
			.first()
			.setInputFiles({
				name: 'reeds.png',
				mimeType: 'image/png',
				buffer: Buffer.from(pngImage(1200, 630)),
			})
		await page
			.getByLabel('Cover image', { exact: true })
			.and(page.locator('[value^="/media/"]'))
			.waitFor({ timeout: 30_000 })
		step('upload the cover')
		await type(page.getByLabel('Cover image description'), 'Tall reeds at the water’s edge')
		await click(page.getByRole('button', { name: 'Publish now' }))
		await page.getByRole('status').filter({ hasText: 'Published.' }).waitFor({ timeout: 30_000 })
		step('describe the cover, publish')
		return { ms: performance.now() - started, steps, clicks, fields }
	} finally {
		await context.close()
	}
}

/** Until the page's scripts have taken over (the editor's uploads and previews need them). */
async function waitForScripts(page: Page) {
	await page.waitForFunction(
		() => {
			const title = document.querySelector('input[name="title"]')
			return title !== null && Object.keys(title).some((key) => key.startsWith('__reactProps$'))
		},
		null,
		{ timeout: 30_000 },
	)
}

async function measure(
	target: Target,
	browser: Browser,
	label: string,
	note: (line: string) => void,
): Promise<Walk[]> {
	const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-editor-'))
	const server = await startCanopy(target, { logLevel: 'error', dataDir })
	try {
		await runNode(
			target,
			['server/cli.ts', 'user:create', '--email', email, '--role', 'editor'],
			{ DATA_DIR: dataDir, NODE_ENV: 'production' },
			`${password}\n`,
		)
		// One walk to warm the server and the browser's caches, as an editor's first day would.
		await walk(browser, server.url, 0)
		const walks: Walk[] = []
		for (let run = 1; run <= runs; run++) walks.push(await walk(browser, server.url, run))
		const stepMedians = Object.keys(walks[0]?.steps ?? {}).map(
			(name) => `${name} ${ms(median(walks.map((w) => w.steps[name] ?? 0)))}`,
		)
		note(
			`${label}: ${walks.map((w) => ms(w.ms)).join(', ')}; ${walks[0]?.clicks} clicks; medians by step: ${stepMedians.join(', ')}`,
		)
		return walks
	} finally {
		await server.stop()
		rmSync(dataDir, { recursive: true, force: true })
	}
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('editor-publish')
	const browser = await chromium.launch({ executablePath: pageBrowserPath, args: chromeFlags })
	const baselineTarget = prepareCommit(before, note)
	try {
		const now = await measure(target, browser, 'now', note)
		const rows: Row[] = []
		const nowMs = median(now.map((w) => w.ms))
		const nowClicks = now[0]?.clicks ?? 0
		if (!baselineTarget) {
			note(`commit ${before} is not in this checkout's history: no baseline`)
			rows.push(
				row({ bench: 'editor-publish', figure: 'sign-in to published (median)', value: ms(nowMs) }),
			)
		} else {
			const then = await measure(baselineTarget, browser, `before (${before})`, note)
			const thenMs = median(then.map((w) => w.ms))
			rows.push(
				row({
					bench: 'editor-publish',
					figure: 'sign-in to published, cover and two tags (median of 3)',
					value: ms(nowMs),
					baseline: `${ms(thenMs)} before the redesign (${before})`,
					ratio: times(nowMs, thenMs),
				}),
				row({
					bench: 'editor-publish',
					figure: 'clicks on the way (fields typed into)',
					value: `${nowClicks} (${now[0]?.fields})`,
					baseline: `${then[0]?.clicks} (${then[0]?.fields})`,
				}),
			)
		}
		return { rows, notes }
	} finally {
		await browser.close()
		baselineTarget?.remove()
	}
}

if (import.meta.main) await runAlone(run)
