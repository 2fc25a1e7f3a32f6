// Screen views as a reader's browser sends them and the server stores them: one per page and
// route change, nothing for a hash, for the editor area, under Do Not Track or Global Privacy
// Control, or from a robot. What was stored is read from the server's own database.
import type { Page, Request } from '@playwright/test'
import {
	expect,
	seededSlugsNewestFirst,
	serveCanopy,
	siteTitle,
	test,
	waitForHydration,
} from './canopy-test.ts'

const server = serveCanopy()

// Headless Chromium says "HeadlessChrome" in its user agent, which the server takes for a robot.
const desktopChrome =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
test.use({ userAgent: desktopChrome, locale: 'en-GB', viewport: { width: 1280, height: 800 } })

interface StoredView {
	id: number
	visitor: string
	screen: string
	path: string
	title: string
	previous_path: string
	referrer_host: string
	utm_source: string
	utm_medium: string
	utm_campaign: string
	device: string
	language: string
}

/** The views the server has written after `afterId`, read from its database. */
function storedViews(afterId = 0): Promise<StoredView[]> {
	// Raw rows, columns as stored: no repository returns them (the dashboard reads sums).
	return server().withStorage((storage) =>
		storage.authDatabase.db
			.selectFrom('analytics_events')
			.selectAll()
			.where('id', '>', afterId)
			.orderBy('id')
			.execute(),
	)
}

const lastId = async () => (await storedViews()).at(-1)?.id ?? 0

/** Every request the page makes to /api/collect, with the status it got. */
function watchCollect(page: Page) {
	const sent: { request: Request; body: Record<string, unknown>; status?: number }[] = []
	page.on('request', (request) => {
		if (new URL(request.url()).pathname !== '/api/collect') return
		sent.push({ request, body: JSON.parse(request.postData() ?? '{}') })
	})
	page.on('response', (response) => {
		const entry = sent.find((item) => item.request === response.request())
		if (entry) entry.status = response.status()
	})
	return sent
}

/** Resolves after two frames: any effect of the last commit has run by then. */
const settled = (page: Page) =>
	page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))))

test('one view per screen, in order, each with its own title and the path before it', async ({
	page,
}) => {
	const before = await lastId()
	const sent = watchCollect(page)
	const slug = seededSlugsNewestFirst[0]
	const header = page.locator('header.site-header')
	const expected: Partial<StoredView>[] = []
	const arrived = async (screen: string, path: string, previous: string) => {
		await expect(page).toHaveURL(new RegExp(`${path}$`))
		await expect.poll(() => sent.length).toBe(expected.length + 1)
		expected.push({ screen, path, title: await page.title(), previous_path: previous })
	}

	await page.goto('/home')
	await waitForHydration(page)
	await arrived('home', '/home', '')
	await header.getByRole('link', { name: 'Articles', exact: true }).click()
	await expect(page.locator('main h1')).toHaveText('Articles')
	await arrived('articles', '/articles', '/home')
	await page.locator(`main a[href="/articles/${slug}"]`).first().click()
	await expect(page.locator('main article h1')).toBeVisible()
	await arrived('article', `/articles/${slug}`, '/articles')
	await header.getByRole('link', { name: 'Contact', exact: true }).click()
	await expect(page.locator('main h1')).toHaveText('Contact')
	await arrived('contact', '/contact', `/articles/${slug}`)

	// A change of the hash alone is no new screen: the skip link, then a script.
	await page.locator('a.skip-link').focus()
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/\/contact#main$/)
	await page.evaluate(() => {
		location.hash = 'top'
	})
	await expect(page).toHaveURL(/\/contact#top$/)
	await settled(page)

	await header.locator('a.site-title').click()
	await expect(page.locator('main h1')).toHaveText(siteTitle)
	await arrived('home', '/home', '/contact')
	await settled(page)

	// Each title is the page's own, not the one before it.
	expect(new Set(expected.map((view) => view.title)).size).toBe(4)
	expect(sent.map((item) => item.body.screen)).toEqual(expected.map((view) => view.screen))
	await expect.poll(() => sent.every((item) => item.status === 202)).toBe(true)
	await expect.poll(async () => (await storedViews(before)).length).toBe(expected.length)
	const stored = await storedViews(before)
	expect(stored).toEqual(
		expected.map((view) =>
			expect.objectContaining({
				...view,
				referrer_host: '',
				utm_campaign: '',
				device: 'desktop',
				language: 'en',
			}),
		),
	)
	expect(new Set(stored.map((view) => view.visitor)).size).toBe(1)
	expect(sent.length).toBe(expected.length)
})

test('an arrival from another site with a campaign keeps the host and the campaign only', async ({
	page,
}) => {
	const before = await lastId()
	const sent = watchCollect(page)
	await page.goto('/articles?utm_source=newsletter&utm_campaign=spring&email=ana%40example.org', {
		referer: 'https://news.example.org/story/42?private=1',
	})
	await expect.poll(() => sent.length).toBe(1)
	expect(sent[0]?.body.path).toBe('/articles?utm_source=newsletter&utm_campaign=spring')
	await expect.poll(async () => (await storedViews(before)).length).toBe(1)
	expect((await storedViews(before))[0]).toMatchObject({
		screen: 'articles',
		path: '/articles',
		previous_path: '',
		referrer_host: 'news.example.org',
		utm_source: 'newsletter',
		utm_campaign: 'spring',
	})
})

test('a 390 px wide screen is counted as mobile, and a French browser as fr', async ({
	browser,
}) => {
	const context = await browser.newContext({
		baseURL: server().url,
		userAgent: desktopChrome.replace('X11; Linux x86_64', 'Linux; Android 14; Pixel 8'),
		viewport: { width: 390, height: 844 },
		locale: 'fr-CA',
	})
	try {
		const before = await lastId()
		const page = await context.newPage()
		await page.goto('/contact')
		await expect.poll(async () => (await storedViews(before)).length).toBe(1)
		expect((await storedViews(before))[0]).toMatchObject({
			screen: 'contact',
			device: 'mobile',
			language: 'fr',
		})
	} finally {
		await context.close()
	}
})

test.describe('a page that is not there', () => {
	// The browser reports the document's 404 on the console.
	test.use({ expectedConsoleError: /status of 404/ })

	test('an unknown article counts as not_found', async ({ page }) => {
		const before = await lastId()
		const response = await page.goto('/articles/no-such-article')
		expect(response?.status()).toBe(404)
		await expect.poll(async () => (await storedViews(before)).length).toBe(1)
		expect((await storedViews(before))[0]).toMatchObject({
			screen: 'not_found',
			path: '/articles/no-such-article',
		})
		// Leaving the error page is a route change like any other.
		await waitForHydration(page)
		await page.getByRole('link', { name: 'Go to the home page' }).click()
		await expect(page.locator('main h1')).toHaveText(siteTitle)
		await expect.poll(async () => (await storedViews(before)).length).toBe(2)
		expect((await storedViews(before))[1]).toMatchObject({
			screen: 'home',
			previous_path: '/articles/no-such-article',
		})
	})
})

test('the editor area sends nothing', async ({ page }) => {
	const before = await lastId()
	const sent = watchCollect(page)
	await page.goto('/admin/sign-in')
	await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
	await waitForHydration(page)
	await settled(page)
	expect(sent).toEqual([])
	await page.goto('/home')
	await expect.poll(() => sent.length).toBe(1)
	expect(sent[0]?.body.screen).toBe('home')
	await expect.poll(async () => (await storedViews(before)).length).toBe(1)
})

test('without sendBeacon, a keepalive fetch delivers the view', async ({ page }) => {
	await page.addInitScript(() => {
		Object.defineProperty(Navigator.prototype, 'sendBeacon', { value: undefined })
	})
	const before = await lastId()
	const sent = watchCollect(page)
	await page.goto('/articles')
	await expect.poll(() => sent[0]?.status).toBe(202)
	expect(sent[0]?.request.resourceType()).toBe('fetch')
	await expect.poll(async () => (await storedViews(before)).length).toBe(1)
})

test.describe('Do Not Track', () => {
	test.use({ extraHTTPHeaders: { DNT: '1' } })

	test('a browser that sends DNT: 1 has nothing stored', async ({ page }) => {
		const before = await lastId()
		const sent = watchCollect(page)
		await page.goto('/home')
		await waitForHydration(page)
		await page.locator('header.site-header').getByRole('link', { name: 'Articles' }).click()
		await expect(page.locator('main h1')).toHaveText('Articles')
		// The server answered each with 204: nothing was queued, so nothing will be written.
		await expect.poll(() => sent.map((item) => item.status)).toEqual([204, 204])
		expect(await storedViews(before)).toEqual([])
	})
})

test('Global Privacy Control: nothing is sent at all', async ({ page }) => {
	await page.addInitScript(() => {
		Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })
	})
	const sent = watchCollect(page)
	await page.goto('/home')
	await waitForHydration(page)
	await page.locator('header.site-header').getByRole('link', { name: 'Contact' }).click()
	await expect(page.locator('main h1')).toHaveText('Contact')
	await settled(page)
	expect(sent).toEqual([])
})

test.describe('a robot', () => {
	test.use({ userAgent: undefined })

	test('a headless browser (a robot to the server) has nothing stored', async ({ page }) => {
		expect(await page.evaluate(() => navigator.userAgent)).toContain('HeadlessChrome')
		const before = await lastId()
		const sent = watchCollect(page)
		await page.goto('/articles')
		await expect.poll(() => sent[0]?.status).toBe(204)
		expect(await storedViews(before)).toEqual([])
	})
})
