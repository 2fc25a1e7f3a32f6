// A few readers browse the site in their own browsers; an editor then opens the dashboard and finds
// them counted by day, page and source. Readers who asked not to be counted, and robots, are not.
// Nothing in the database could tell who any reader was.
import type { Browser, BrowserContextOptions, Page } from '@playwright/test'
import { sql } from 'kysely'
import {
	expect,
	seededSlugsNewestFirst,
	serveCanopy,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()
signedInAs(server, { email: 'eve@example.org', role: 'editor', name: 'Eve Editor' })

// Each reader's user agent carries a mark, so the database can be searched for it afterwards.
const chrome = (mark: string) =>
	`Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 ${mark}`
const phone = (mark: string) =>
	`Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 ${mark}`
const marks = ['ReaderAda', 'ReaderBo', 'ReaderCy']

function storedViewCount(): Promise<number> {
	return server().withStorage((storage) => storage.analytics.countViews())
}

/** What a stored value says, as text: PostgreSQL returns JSON columns parsed, SQLite as text. */
function asText(value: unknown): string | undefined {
	if (typeof value === 'string') return value
	if (value === null || value instanceof Date || value instanceof Uint8Array) return undefined
	return typeof value === 'object' ? JSON.stringify(value) : undefined
}

/**
 * Every text value in every table, by table, but sign-in's own: the editors' sessions and
 * better-auth's per-address limit on sign-in attempts are about people signing in, not readers.
 */
function everyStoredText(): Promise<string[]> {
	// Every table, which no repository reads: the query builder, on either database.
	return server().withStorage(async (storage) => {
		const { db } = storage.authDatabase
		const tables =
			storage.dialect === 'postgres'
				? sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
						WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
				: sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`
		// SQLite's full-text indexes are contentless: their shadow tables hold single words in
		// binary pages (and 64-bit counters no JavaScript number holds), never a text; the
		// clues looked for below are several words each.
		const indexes =
			storage.dialect === 'postgres'
				? []
				: (
						await sql<{ name: string }>`SELECT name FROM sqlite_master
							WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`.execute(db)
					).rows.map(({ name }) => name)
		const names = (await tables.execute(db)).rows
			.map(({ name }) => name)
			.filter((name) => name !== 'session' && name !== 'rateLimit')
			.filter((name) => !indexes.some((index) => name.startsWith(`${index}_`)))
		expect(names).toContain('analytics_events')
		const texts: string[] = []
		for (const name of names) {
			const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(
				db,
			)
			for (const row of rows)
				for (const value of Object.values(row)) {
					const text = asText(value)
					if (text !== undefined) texts.push(`${name}: ${text}`)
				}
		}
		return texts
	})
}

async function reader(browser: Browser, options: BrowserContextOptions) {
	// A context of its own: no session, no storage shared with the editor or another reader.
	const context = await browser.newContext({
		...options,
		baseURL: server().url,
		storageState: undefined,
	})
	const page = await context.newPage()
	return { page, close: () => context.close() }
}

async function follow(page: Page, name: string, path: RegExp) {
	await page.getByRole('link', { name, exact: true }).first().click()
	await expect(page).toHaveURL(path)
	await expect(page.locator('h1')).toBeVisible()
}

const rowsOf = (page: Page, caption: string) =>
	page
		.getByRole('table', { name: caption })
		.locator('tbody tr')
		.evaluateAll((rows) =>
			rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '')),
		)

test('readers browse, and an editor sees them counted by day, page and source', async ({
	browser,
	page,
}) => {
	const slug = seededSlugsNewestFirst[0]
	const article = `/articles/${slug}`
	const before = await storedViewCount()

	// Ada arrives from a news site on the home page, then reads the list and the newest article.
	const ada = await reader(browser, { userAgent: chrome(marks[0] ?? '') })
	await ada.page.goto('/home', { referer: 'https://news.example.org/story?reader=ada' })
	await waitForHydration(ada.page)
	await follow(ada.page, 'Articles', /\/articles$/)
	await ada.page.locator(`a[href="${article}"]`).first().click()
	await expect(ada.page).toHaveURL(new RegExp(`${article}$`))

	// Bo opens the same article from a newsletter on a phone, then goes to the contact page.
	const bo = await reader(browser, {
		userAgent: phone(marks[1] ?? ''),
		viewport: { width: 390, height: 844 },
		locale: 'fr-FR',
	})
	await bo.page.goto(`${article}?utm_source=newsletter&utm_medium=email&utm_campaign=spring`)
	await waitForHydration(bo.page)
	await follow(bo.page, 'Contact', /\/contact$/)

	// Cy asks not to be tracked; a robot crawls. Neither is counted.
	const cy = await reader(browser, {
		userAgent: chrome(marks[2] ?? ''),
		extraHTTPHeaders: { DNT: '1' },
	})
	await cy.page.goto('/home')
	await waitForHydration(cy.page)
	await follow(cy.page, 'Articles', /\/articles$/)
	const robot = await reader(browser, {})
	await robot.page.goto('/home')
	await waitForHydration(robot.page)

	// Views reach the database within the write buffer's second.
	await expect.poll(storedViewCount, { timeout: 10_000 }).toBe(before + 5)
	for (const someone of [ada, bo, cy, robot]) await someone.close()

	await page.goto('/admin/analytics?range=7')
	await waitForHydration(page)
	const figure = (label: string) =>
		page
			.locator('.figure')
			.filter({ has: page.getByRole('term').filter({ hasText: label }) })
			.locator('.figure-value')
	await expect(figure('Visitors')).toHaveText('2')
	await expect(figure('Page views')).toHaveText('5')
	await expect(figure('Visits')).toHaveText('2')

	// By day: all of it today (UTC).
	const today = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(
		new Date(),
	)
	await page.getByText('Show the numbers').click()
	const days = (await rowsOf(page, 'Day by day')).map((row) => row.slice(0, 4))
	expect(days).toHaveLength(7)
	expect(days.filter((row) => row[0] === today)).toEqual([[today, '2', '5', '2']])
	expect(days.filter((row) => row[0] !== today).map((row) => row.slice(1))).toEqual(
		Array(6).fill(['0', '0', '0']),
	)

	// By page.
	expect(await rowsOf(page, 'Pages by visitors, then views')).toEqual([
		[article, '2', '2'],
		['/articles', '1', '1'],
		['/contact', '1', '1'],
		['/home', '1', '1'],
	])
	expect(await rowsOf(page, 'Where visits began, by visitors, then visits')).toEqual([
		[article, '1', '1'],
		['/home', '1', '1'],
	])
	// By source.
	expect(await rowsOf(page, 'Other sites visits came from, by visitors, then visits')).toEqual([
		['Direct or unknown', '1', '1'],
		['news.example.org', '1', '1'],
	])
	expect(
		await rowsOf(page, 'Campaigns named in links (utm_campaign), by visitors, then visits'),
	).toEqual([['spring', 'newsletter', 'email', '1', '1']])
	expect(await rowsOf(page, 'Device classes by screen width, by visitors, then views')).toEqual([
		['Desktop', '1', '3'],
		['Mobile', '1', '2'],
	])
	expect(await rowsOf(page, 'Browser languages, by visitors, then views')).toEqual([
		['English (en)', '1', '3'],
		['French (fr)', '1', '2'],
	])

	// Nothing stored anywhere names a reader: no address, no user agent, no referring URL's query.
	// The site's own address (here on 127.0.0.1) is configuration, which instances record to
	// compare at start (docs/decisions/019-instance-settings-agree.md); any other mention counts.
	const naming = (await everyStoredText()).filter((text) => {
		const stored = text.replaceAll(server().url, '')
		return [...marks, 'Mozilla/5.0', '127.0.0.1', 'reader=ada'].some((clue) =>
			stored.includes(clue),
		)
	})
	expect(naming).toEqual([])
})
