// Live pages and the Back button, with the back/forward cache on as readers have it (Playwright
// turns it off by default). A page kept for Back kept its live stream open, and HTTP/1.1 allows a
// site six connections, so the seventh full page load of a live page in one tab never loaded.
// The stream now closes when the page is left and opens again, from the last event heard, when
// Back brings the page back (app/lib/live-stream.client.ts).

import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { chromeFlags, chromePath } from './chrome.ts'

serveCanopy()

test.use({
	launchOptions: {
		executablePath: chromePath,
		args: chromeFlags,
		ignoreDefaultArgs: ['--disable-back-forward-cache'],
	},
})

test('ten full loads of live pages in one tab all load, and Back brings a live page back live', async ({
	page,
}) => {
	await page.addInitScript(() => {
		addEventListener('pageshow', (event) => {
			if (event.persisted) document.documentElement.dataset.restored = 'yes'
		})
	})
	for (let load = 0; load < 10; load++) {
		const path = load % 2 === 0 ? '/articles' : '/home'
		const stream = page.waitForRequest((request) => request.url().includes('/api/articles/stream'))
		// A load held up behind six open streams never finishes: this fails within 10 s.
		await page.goto(path, { timeout: 10_000 })
		await waitForHydration(page)
		await stream
	}
	// Back to /articles: from the cache (the page is not loaded again), its stream asked for anew.
	const reopened = page.waitForRequest((request) => request.url().includes('/api/articles/stream'))
	// A page restored from the cache fires no load event: the navigation's commit is what to wait for.
	await page.goBack({ waitUntil: 'commit' })
	await expect(page).toHaveURL(/\/articles$/)
	await expect(page.locator('html')).toHaveAttribute('data-restored', 'yes')
	expect((await reopened).url()).toMatch(/\/api\/articles\/stream\?since=\d+/)
})
