// The `test` every spec uses: a Canopy server per spec file (its own data, so one file's
// publishing never shows up in another's counts) on the project's database, baseURL pointing at
// it, and a page that fails the test on any console error, uncaught exception or
// Content-Security-Policy violation.
import { test as base, expect, type Page } from '@playwright/test'
import type { E2eDatabase } from './databases.ts'
import { type CanopyServer, startServer } from './server.ts'

// Files run one after another in a worker, so the file's own server is the current one.
let current: CanopyServer | undefined

interface CanopyFixtures {
	/** Console errors matching this are expected by the test (say, from a server it stopped itself). */
	expectedConsoleError: RegExp | null
}

interface CanopyWorkerFixtures {
	/** The database this project runs on (playwright.config.ts: a project per database). */
	database: E2eDatabase
}

export const test = base.extend<CanopyFixtures, CanopyWorkerFixtures>({
	database: ['sqlite', { scope: 'worker', option: true }],
	// Playwright also sets up test fixtures for beforeAll hooks, before the server exists; a test
	// in a file without serveCanopy() then fails on its first relative URL.
	// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
	baseURL: async ({}, use) => {
		await use(current?.url)
	},
	expectedConsoleError: [null, { option: true }],
	page: async ({ page, expectedConsoleError }, use) => {
		const problems: string[] = []
		// The browser reports blocked scripts and styles on the console too, but this also names
		// the directive, and catches violations reported without a console message.
		await page.addInitScript(() => {
			document.addEventListener('securitypolicyviolation', (event) => {
				console.error(
					`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline code'}`,
				)
			})
		})
		page.on('console', (message) => {
			if (message.type() !== 'error') return
			const text = `console error: ${message.text()} (at ${message.location().url || 'unknown'})`
			if (!expectedConsoleError?.test(text)) problems.push(text)
		})
		page.on('pageerror', (error) => problems.push(`uncaught ${error.name}: ${error.message}`))
		await use(page)
		expect(problems, 'console errors, uncaught exceptions or CSP violations on the page').toEqual(
			[],
		)
	},
})

export { expect }

/**
 * For a test of what the browser draws and does with data any database returns alike (layout,
 * focus, the keyboard, the editor's own behaviour): `test(title, interfaceOnly, body)`. It runs on
 * SQLite only; tests of what is stored, in what order, and what readers see after a write run on
 * both (playwright.config.ts, docs/decisions/018-browser-tests-on-both-databases.md).
 */
export const interfaceOnly = { tag: '@interface' }

/** Starts a server for this spec file and stops it (deleting its data) when the file is done. */
export function serveCanopy(
	options: { env?: () => Record<string, string> } = {},
): () => CanopyServer {
	let server: CanopyServer | undefined
	test.beforeAll(async ({ database }) => {
		server = await startServer({ database, env: options.env?.() })
		current = server
	})
	test.afterAll(async () => {
		await server?.dispose()
		if (current === server) current = undefined
	})
	return () => {
		if (!server) throw new Error('The server for this spec file has not started.')
		return server
	}
}

/**
 * Resolves once React has hydrated the page, so clicks are client-side navigations and live
 * effects are running. React marks the elements it owns with `__reactFiber$…` keys.
 */
export async function waitForHydration(page: Page): Promise<void> {
	await page.waitForFunction(() => {
		// The public header's title, or the staff area's site link in its place.
		const title = document.querySelector('a.site-title, a.staff-site')
		return title !== null && Object.keys(title).some((key) => key.startsWith('__reactFiber$'))
	})
}

/**
 * Screenshots of the page as it is, at a phone's and a laptop's width, into the test's output
 * (`<name>-390.png`, `<name>-1280.png`), to be looked at. `fullPage`: the whole length.
 */
export async function screenshotsAtWidths(
	page: Page,
	name: string,
	{ fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
	for (const width of [390, 1280]) {
		await page.setViewportSize({ width, height: 900 })
		await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage })
	}
}

/** Marks the current document; `isSameDocument` is then false after any full page load. */
export async function markDocument(page: Page): Promise<void> {
	await page.evaluate(() => {
		Reflect.set(window, 'canopyE2eMarker', true)
	})
}

export function isSameDocument(page: Page): Promise<boolean> {
	return page.evaluate(() => Reflect.get(window, 'canopyE2eMarker') === true)
}

export const seededSlugsNewestFirst = [
	'what-we-throw-away',
	'solar-wind-and-efficiency',
	'the-living-ground',
	'oceans-heat-acid-and-overfishing',
	'natures-decline-and-30x30',
	'half-a-degree-matters',
] as const

export const siteTitle = 'Preserve the Planet'
