// A server restart while a visitor has /articles open: what was published while it was down
// reaches the page on its own once the server is back, once, and nothing already shown doubles.
import {
	expect,
	isSameDocument,
	markDocument,
	seededSlugsNewestFirst,
	serveCanopy,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { publishArticle } from './server.ts'

const server = serveCanopy()

// While the server is down the browser reports each failed reconnect of the stream (and nothing
// else may fail).
test.use({
	expectedConsoleError:
		/net::ERR_CONNECTION_REFUSED \(at http:\/\/127\.0\.0\.1:\d+\/api\/articles\/stream\?since=\d+\)$/,
})

test('an article published while the server was down appears after it restarts, without a reload', async ({
	page,
}) => {
	test.setTimeout(60_000)
	const cards = page.locator('[data-testid=article-list] article.article-card[data-article-id]')
	const stream = page.waitForResponse((response) => response.url().includes('/api/articles/stream'))
	await page.goto('/articles')
	await waitForHydration(page)
	expect((await stream).status()).toBe(200)
	await markDocument(page)
	await expect(cards).toHaveCount(seededSlugsNewestFirst.length)
	const seededTitles = await cards.locator('.article-card-title').allTextContents()

	const failedReconnect = page.waitForEvent('requestfailed', {
		predicate: (request) => request.url().includes('/api/articles/stream'),
		timeout: 15_000,
	})
	await server().stop()
	const title = 'Seed Banks Keep Tomorrow’s Forests Within Reach'
	const published = await publishArticle(server(), { title, slug: 'seed-banks' })
	expect(published.code, published.stderr).toBe(0)
	// Stay down until the page has tried to reconnect and failed, as it would in a real outage.
	await failedReconnect
	await server().start()

	// The page's EventSource reconnects by itself (retry: 3 s) and resumes from its change id.
	await expect(cards.first().locator('.article-card-title')).toHaveText(title, { timeout: 20_000 })
	await expect(page.getByTestId('live-announcement')).toHaveText(`New article: ${title}`)
	expect(await isSameDocument(page), 'the page was not reloaded').toBe(true)

	// Let any replayed or duplicated event land before counting.
	await page.waitForTimeout(1_000)
	await expect(cards).toHaveCount(seededSlugsNewestFirst.length + 1)
	expect(await cards.locator('.article-card-title').allTextContents()).toEqual([
		title,
		...seededTitles,
	])
	const ids = await cards.evaluateAll((articles) =>
		articles.map((article) => article.getAttribute('data-article-id')),
	)
	expect(new Set(ids).size, `article ids on the page: ${ids.join(', ')}`).toBe(ids.length)
})
