// The analytics dashboard as an editor uses it: views stored in the server's database, the
// figures and tables for 7, 30 days and dates of one's own, the chart drawn and its numbers as a
// table, a CSV download, visitors right now updating by itself, 320 px, keyboard and axe.
import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, interfaceOnly, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()

signedInAs(server, { email: 'lena@example.org', role: 'editor', name: 'Lena Berg' })

// Chromium logs the 400 of a period that cannot be shown (the tests ask for some on purpose).
test.use({
	expectedConsoleError: /status of 400 \(Bad Request\) \(at http:[^ ]+\/admin\/analytics/,
})

const dayMs = 86_400_000
const today = new Date().toISOString().slice(0, 10)
const daysAgo = (n: number) => new Date(Date.parse(today) - n * dayMs).toISOString().slice(0, 10)

interface StoredView {
	at: Date
	visitor: string
	path: string
	title?: string
	device?: 'mobile' | 'tablet' | 'desktop'
	language?: string
}

/** Stores views as the collector does, from this process, in the server's database. */
function store(views: StoredView[]) {
	return server().withStorage((storage) =>
		storage.analytics.record(
			views.map((view) => ({
				at: view.at,
				visitor: view.visitor,
				screen: view.path.startsWith('/articles/') ? 'article' : 'page',
				path: view.path,
				title: view.title ?? '',
				previousPath: '',
				referrerHost: '',
				utmSource: '',
				utmMedium: '',
				utmCampaign: '',
				device: view.device ?? 'desktop',
				language: view.language ?? 'en',
			})),
		),
	)
}

const noon = (day: string, minutes = 0) =>
	new Date(Date.parse(`${day}T12:00:00Z`) + minutes * 60_000)

test.beforeAll(async () => {
	await store([
		// 2 days ago: two visitors, three views, two visits.
		{ at: noon(daysAgo(2)), visitor: 'v1', path: '/home', device: 'mobile' },
		{ at: noon(daysAgo(2), 5), visitor: 'v1', path: '/articles/tides', title: 'Tides' },
		{ at: noon(daysAgo(2), 9), visitor: 'v2', path: '/home', language: 'fr' },
		// 3 days ago: one more reader of the article.
		{ at: noon(daysAgo(3)), visitor: 'v3', path: '/articles/tides', title: 'Tides' },
		// 10 days ago: the 7 days before the last 7.
		{ at: noon(daysAgo(10)), visitor: 'p1', path: '/home' },
		// 20 days ago: three visitors.
		{ at: noon(daysAgo(20)), visitor: 'w1', path: '/contact' },
		{ at: noon(daysAgo(20), 1), visitor: 'w2', path: '/contact' },
		{ at: noon(daysAgo(20), 2), visitor: 'w3', path: '/home' },
	])
})

/** A UTC day as the page writes it: "21 Nov 2026". */
const day = (iso: string) =>
	new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(
		new Date(`${iso}T00:00:00Z`),
	)

const figure = (page: Page, label: string) =>
	page.locator('.figure').filter({ has: page.getByRole('term').filter({ hasText: label }) })

async function expectFigures(page: Page, visitors: string, views: string, visits: string) {
	await expect(figure(page, 'Visitors').locator('.figure-value')).toHaveText(visitors)
	await expect(figure(page, 'Page views').locator('.figure-value')).toHaveText(views)
	await expect(figure(page, 'Visits').locator('.figure-value')).toHaveText(visits)
}

/** A table's body rows as cell texts. */
function rowsOf(page: Page, caption: string | RegExp) {
	return page
		.getByRole('table', { name: caption })
		.locator('tbody tr')
		.evaluateAll((rows) =>
			rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '')),
		)
}

async function chartInk(page: Page) {
	return page.locator('.chart canvas').evaluate((canvas: HTMLCanvasElement) => {
		const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data
		let inked = 0
		for (let i = 3; pixels && i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) inked++
		return { inked, width: canvas.getBoundingClientRect().width }
	})
}

test('an editor reads the figures, switches periods, reads the chart and its numbers', async ({
	page,
}) => {
	await page.goto('/admin')
	await waitForHydration(page)
	await page
		.getByRole('navigation', { name: 'Editor area' })
		.getByRole('link', { name: 'Analytics' })
		.click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Analytics')
	await expect(page).toHaveURL(/\/admin\/analytics$/)

	// The last 30 days by default: 7 visitors, 8 views, 7 visits; nothing in the 30 before.
	await expect(page.getByRole('radio', { name: 'Last 30 days' })).toBeChecked()
	await expectFigures(page, '7', '8', '7')
	await expect(figure(page, 'Visitors').locator('.figure-change')).toHaveText(
		'Up from 0 in the previous 30 days',
	)
	expect(await rowsOf(page, 'Pages by visitors, then views')).toEqual([
		['/home', '4', '4'],
		['/articles/tides', '2', '2'],
		['/contact', '2', '2'],
	])

	await page.getByRole('radio', { name: 'Last 7 days' }).check()
	await page.getByRole('button', { name: 'Show this period' }).click()
	await expect(page).toHaveURL(/\/admin\/analytics\?range=7$/)
	await expectFigures(page, '3', '4', '3')
	await expect(figure(page, 'Visitors').locator('.figure-change')).toHaveText(
		'Up 200% from 1 in the previous 7 days',
	)
	expect(await rowsOf(page, 'Pages by visitors, then views')).toEqual([
		['/articles/tides', '2', '2'],
		['/home', '2', '2'],
	])
	expect(await rowsOf(page, /^Articles by visitors/)).toEqual([
		['Tides', '/articles/tides', '2', '2'],
	])

	// The chart is drawn, and its numbers are a table too.
	await expect(page.locator('.chart canvas')).toBeVisible()
	await expect.poll(async () => (await chartInk(page)).inked).toBeGreaterThan(1000)
	await expect(page.locator('#daily-summary')).toContainText('3 visitors and 4 page views in all')
	const numbers = page.getByRole('table', { name: 'Day by day' })
	await expect(numbers).toBeHidden()
	await page.getByText('Show the numbers').click()
	await expect(numbers).toBeVisible()
	const daily = await rowsOf(page, 'Day by day')
	expect(daily).toHaveLength(7)
	expect(daily[3]).toEqual([day(daysAgo(3)), '1', '1', '1', day(daysAgo(10)), '1', '1'])
	expect(daily[4]).toEqual([day(daysAgo(2)), '2', '3', '2', day(daysAgo(9)), '0', '0'])
	expect(daily.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(3)

	// Dates of one's own: typing a date chooses them.
	await page.getByLabel('First day').fill(daysAgo(25))
	await expect(page.getByRole('radio', { name: 'Dates of your own' })).toBeChecked()
	await page.getByLabel('Last day').fill(daysAgo(15))
	await page.getByRole('button', { name: 'Show this period' }).click()
	await expect(page).toHaveURL(new RegExp(`\\?range=custom&from=${daysAgo(25)}&to=${daysAgo(15)}$`))
	await expectFigures(page, '3', '3', '3')
	await expect(figure(page, 'Page views').locator('.figure-change')).toHaveText(
		'Up from 0 in the previous 11 days',
	)
	expect(await rowsOf(page, 'Pages by visitors, then views')).toEqual([
		['/contact', '2', '2'],
		['/home', '1', '1'],
	])
	await expect(page.getByRole('region', { name: 'Top articles' })).toContainText(
		'No views in this period',
	)

	// Days the wrong way round are refused where they were typed, and kept for correcting.
	await page.getByLabel('First day').fill(daysAgo(5))
	await page.getByLabel('Last day').fill(daysAgo(8))
	await page.getByRole('button', { name: 'Show this period' }).click()
	await expect(page.getByRole('alert')).toHaveText(
		'These dates cannot be shown. Check the messages in the form below.',
	)
	await expect(page.getByLabel('First day')).toHaveAttribute('aria-invalid', 'true')
	await expect(page.getByLabel('First day')).toHaveAccessibleDescription(
		'Counted from midnight in UTC The first day must be on or before the last day.',
	)
	await expect(page.getByLabel('First day')).toHaveValue(daysAgo(5))
	await expect(page.locator('.figure')).toHaveCount(0)
})

test('a table downloads as a CSV file of the period shown', async ({ page }) => {
	await page.goto('/admin/analytics?range=7')
	await waitForHydration(page)
	const downloading = page.waitForEvent('download')
	await page.getByRole('link', { name: 'Download CSV of top pages' }).click()
	const download = await downloading
	expect(download.suggestedFilename()).toBe(`canopy-pages-${daysAgo(6)}-to-${today}.csv`)
	const csv = readFileSync(await download.path(), 'utf8')
	expect(csv).toBe('\uFEFFPage,Visitors,Views\r\n/articles/tides,2,2\r\n/home,2,2\r\n')
})

test('visitors right now follow new views while the page is open', async ({ page }) => {
	// The page's own clock, stopped and moved on by the test alone: the page asks every 15
	// seconds from the moment it starts, whatever time the machine takes to load and hydrate it.
	const start = Date.now()
	await page.clock.install({ time: start })
	await page.clock.pauseAt(start + 1_000)
	await page.goto('/admin/analytics')
	await waitForHydration(page)
	const now = page.locator('[aria-live="polite"]')
	await expect(now).toHaveText('0 visitors in the last 5 minutes')
	await store([
		{ at: new Date(), visitor: 'n1', path: '/home' },
		{ at: new Date(), visitor: 'n2', path: '/articles/tides', title: 'Tides' },
	])
	// Not before its time: 14 seconds on, it has not asked again.
	await page.clock.runFor(14_000)
	await expect(now).toHaveText('0 visitors in the last 5 minutes')
	await page.clock.runFor(1_000)
	await expect(now).toHaveText('2 visitors in the last 5 minutes')
	await store([{ at: new Date(), visitor: 'n3', path: '/contact' }])
	await page.clock.runFor(15_000)
	await expect(now).toHaveText('3 visitors in the last 5 minutes')
	// The period's figures count them too, written by another process as they were.
	await page.getByRole('radio', { name: 'Last 7 days' }).check()
	await page.getByRole('button', { name: 'Show this period' }).click()
	await expect(page).toHaveURL(/\?range=7$/)
	await expectFigures(page, '6', '7', '6')
})

test(
	'the dashboard fits 320 px, redraws its chart to the width, and works by keyboard',
	interfaceOnly,
	async ({ page }) => {
		await page.setViewportSize({ width: 1024, height: 800 })
		await page.goto('/admin/analytics?range=30')
		await waitForHydration(page)
		await expect.poll(async () => (await chartInk(page)).width).toBeGreaterThan(600)
		await page.setViewportSize({ width: 320, height: 720 })
		const narrow = await page.evaluate(() => document.documentElement.clientWidth)
		await expect.poll(async () => (await chartInk(page)).width).toBeLessThanOrEqual(narrow - 16)
		expect((await chartInk(page)).inked).toBeGreaterThan(500)
		await page.getByText('Show the numbers').click()
		const width = await page.evaluate(() => document.documentElement.scrollWidth)
		expect(width, 'document width at 320 px').toBeLessThanOrEqual(320)

		// Keyboard only: each control shows where the focus is.
		await page.goto('/admin/analytics?range=30')
		await waitForHydration(page)
		const focusRing = () =>
			page.evaluate(() => {
				const element = document.activeElement as HTMLElement
				const style = getComputedStyle(element)
				return {
					text:
						element.textContent?.trim() || element.getAttribute('aria-label') || element.tagName,
					outline: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
				}
			})
		const seen: string[] = []
		for (let i = 0; i < 60 && !seen.includes('Download CSV of top pages'); i++) {
			await page.keyboard.press('Tab')
			const focused = await focusRing()
			expect(focused.outline, `focus outline on ${focused.text}`).toBe(true)
			seen.push(focused.text)
		}
		expect(seen).toContain('Show this period')
		expect(seen).toContain('Show the numbers')
		expect(seen).toContain('Download CSV of top pages')
		// The period changes by keyboard alone.
		await page.getByRole('radio', { name: 'Last 30 days' }).focus()
		await page.keyboard.press('ArrowLeft')
		await expect(page.getByRole('radio', { name: 'Last 7 days' })).toBeChecked()
		await page.keyboard.press('Enter')
		await expect(page).toHaveURL(/\?range=7$/)
		await expect(page.getByRole('heading', { level: 2, name: / to / })).toHaveText(
			`${day(daysAgo(6))} to ${day(today)}`,
		)
	},
)

for (const colorScheme of ['light', 'dark'] as const) {
	test(`the dashboard has no axe violations (${colorScheme})`, interfaceOnly, async ({ page }) => {
		await page.emulateMedia({ colorScheme })
		await page.goto('/admin/analytics?range=7')
		await waitForHydration(page)
		await page.getByText('Show the numbers').click()
		const audit = await new AxeBuilder({ page })
			.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
			.analyze()
		expect(
			audit.violations.map(
				(violation) =>
					`${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`,
			),
		).toEqual([])
		// The error state too.
		await page.goto('/admin/analytics?from=2026-02-30&to=2026-03-01')
		await waitForHydration(page)
		const errors = await new AxeBuilder({ page })
			.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
			.analyze()
		expect(errors.violations.map((violation) => violation.id)).toEqual([])
	})
}
