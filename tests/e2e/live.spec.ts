// The live article list: what an editor publishes from the shell shows up on an open /articles
// page within a second, once, in place, and announced to screen-reader users.
import type { Page } from '@playwright/test'
import {
	expect,
	isSameDocument,
	markDocument,
	seededSlugsNewestFirst,
	serveCanopy,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { type CliResult, publishArticle, unpublishArticle } from './server.ts'

const server = serveCanopy()

const budgetMs = 1_000

function cards(page: Page) {
	return page.locator('[data-testid=article-list] article.article-card[data-article-id]')
}

function cardTitles(page: Page): Promise<string[]> {
	return cards(page)
		.locator('.article-card-title')
		.evaluateAll((headings) => headings.map((heading) => heading.textContent ?? ''))
}

function expectCliOk(result: CliResult) {
	expect(result.code, `CLI failed:\n${result.stdout}${result.stderr}`).toBe(0)
}

/** Opens /articles with its live stream connected, as a visitor would have it. */
async function openArticles(page: Page) {
	const stream = page.waitForResponse((response) => response.url().includes('/api/articles/stream'))
	await page.goto('/articles')
	await waitForHydration(page)
	expect((await stream).status()).toBe(200)
	await markDocument(page)
}

/**
 * Starts watching the list before a change is made; resolves with the page's clock (Date.now(),
 * the same system clock as the test's) when the title first shows, or first is gone.
 */
function whenTitle(page: Page, title: string, state: 'shown' | 'gone'): () => Promise<number> {
	const handle = page.waitForFunction(
		([wanted, shown]) => {
			const headings = document.querySelectorAll('[data-testid=article-list] .article-card-title')
			const present = [...headings].some((heading) => heading.textContent === wanted)
			return present === shown ? Date.now() : false
		},
		[title, state === 'shown'] as const,
		{ polling: 'raf', timeout: 15_000 },
	)
	// Awaited later; until then a timeout must not count as an unhandled rejection.
	handle.catch(() => {})
	return async () => (await handle).jsonValue() as Promise<number>
}

test('an article published with the CLI appears at the top within 1 s, once, and is announced', async ({
	page,
}) => {
	await openArticles(page)
	const before = await cardTitles(page)
	expect(before).toHaveLength(seededSlugsNewestFirst.length)
	const title = 'Wetlands Store More Carbon Than We Thought'
	const shown = whenTitle(page, title, 'shown')

	const published = await publishArticle(server(), { title, slug: 'wetlands-store-carbon' })
	expectCliOk(published)
	const delay = (await shown()) - published.exitedAt
	console.log(
		`live: "${title}" on screen ${delay} ms after the CLI exited (below 0: before its exit was seen)`,
	)
	expect(delay, 'ms from the CLI exiting to the title on the open page').toBeLessThanOrEqual(
		budgetMs,
	)

	expect(await cardTitles(page)).toEqual([title, ...before])
	await expect(cards(page).first().getByRole('link', { name: title })).toHaveAttribute(
		'href',
		'/articles/wetlands-store-carbon',
	)
	await expect(page.getByTestId('live-announcement')).toHaveText(`New article: ${title}`)
	expect(await isSameDocument(page), 'the page was not reloaded').toBe(true)
	// Nothing arrives late and doubles it.
	await page.waitForTimeout(500)
	expect(await cardTitles(page)).toEqual([title, ...before])
})

test('re-publishing a slug with a new title replaces its card in place', async ({ page }) => {
	const slug = 'peatland-restoration'
	expectCliOk(await publishArticle(server(), { title: 'Peatland Restoration, Draft Title', slug }))
	await openArticles(page)
	const before = await cardTitles(page)
	const index = before.indexOf('Peatland Restoration, Draft Title')
	expect(index).toBeGreaterThanOrEqual(0)
	const id = await cards(page).nth(index).getAttribute('data-article-id')

	const title = 'Peatland Restoration Pays Off Within a Decade'
	const shown = whenTitle(page, title, 'shown')
	const republished = await publishArticle(server(), { title, slug })
	expectCliOk(republished)
	expect((await shown()) - republished.exitedAt).toBeLessThanOrEqual(budgetMs)

	const after = await cardTitles(page)
	expect(after).toEqual(before.map((old, i) => (i === index ? title : old)))
	await expect(cards(page).nth(index)).toHaveAttribute('data-article-id', id ?? '')
	await expect(page.locator(`[data-article-id="${id}"]`)).toHaveCount(1)
	// An edit is not news: the status region does not call it a new article.
	await expect(page.getByTestId('live-announcement')).not.toContainText(title)
	expect(await isSameDocument(page)).toBe(true)
})

test('an article unpublished with the CLI disappears without a reload, and its page is gone', async ({
	page,
	request,
}) => {
	const slug = 'coral-nurseries'
	const title = 'Coral Nurseries, One Fragment at a Time'
	expectCliOk(await publishArticle(server(), { title, slug }))
	await openArticles(page)
	const before = await cardTitles(page)
	expect(before.filter((shown) => shown === title)).toHaveLength(1)

	const gone = whenTitle(page, title, 'gone')
	const unpublished = await unpublishArticle(server(), slug)
	expectCliOk(unpublished)
	expect((await gone()) - unpublished.exitedAt).toBeLessThanOrEqual(budgetMs)
	expect(await cardTitles(page)).toEqual(before.filter((shown) => shown !== title))
	expect(await isSameDocument(page), 'the page was not reloaded').toBe(true)

	const page404 = await request.get(`/articles/${slug}`, { maxRedirects: 0 })
	expect(page404.status()).toBe(404)
})

test('the home page’s latest articles are live too: new on top, the list kept at its length, a removal refilled', async ({
	page,
}) => {
	const latest = page.locator('[data-testid=latest-list] .article-card-title')
	const stream = page.waitForResponse((response) => response.url().includes('/api/articles/stream'))
	await page.goto('/home')
	await waitForHydration(page)
	expect((await stream).status()).toBe(200)
	await markDocument(page)
	const before = await latest.allTextContents()
	expect(before.length).toBeGreaterThan(1)

	const title = 'Seagrass Meadows Return to the Bay'
	expectCliOk(await publishArticle(server(), { title, slug: 'seagrass-meadows-return' }))
	await expect(latest).toHaveText([title, ...before.slice(0, -1)])
	await expect(page.getByRole('status').filter({ hasText: `New article: ${title}` })).toBeAttached()

	// Taken down: the one it pushed off comes back, read again from the server.
	expectCliOk(await unpublishArticle(server(), 'seagrass-meadows-return'))
	await expect(latest).toHaveText(before)
	expect(await isSameDocument(page), 'the page was not reloaded').toBe(true)
})

test('a tag’s page is live: an article given the tag arrives, one that loses it leaves', async ({
	page,
}) => {
	// Five saves through the command line, each a process of its own: 15 s alone, over 30 s
	// while the other worker keeps the second core busy.
	test.setTimeout(60_000)
	const titles = page.locator('[data-testid=article-list] .article-card-title')
	const stream = page.waitForResponse((response) => response.url().includes('/api/articles/stream'))
	await page.goto('/tags/oceans')
	await waitForHydration(page)
	expect((await stream).status()).toBe(200)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oceans')
	await markDocument(page)
	const before = await titles.allTextContents()
	expect(before.length).toBeGreaterThan(0)

	const title = 'Kelp Forests Off the Headland'
	const slug = 'kelp-forests-headland'
	expectCliOk(await publishArticle(server(), { title, slug, tags: ['Oceans', 'Restoration'] }))
	await expect(titles).toHaveText([title, ...before])
	// Its card links to its tags' pages and its author's.
	const card = cards(page).first()
	await expect(card.getByRole('link', { name: 'Restoration' })).toHaveAttribute(
		'href',
		'/tags/restoration',
	)
	await expect(card.getByRole('link', { name: 'E2E Test' })).toHaveAttribute(
		'href',
		'/authors/e2e-test',
	)
	// Another tag's article does not belong here.
	expectCliOk(
		await publishArticle(server(), { title: 'Hedgerows', slug: 'hedgerows-e2e', tags: ['Soil'] }),
	)
	// Saved without the tag: it leaves, in place.
	expectCliOk(await publishArticle(server(), { title, slug, tags: ['Restoration'] }))
	await expect(titles).toHaveText(before)
	expect(await isSameDocument(page), 'the page was not reloaded').toBe(true)

	// The tag it kept lists it.
	await card.page().goto('/tags/restoration')
	await expect(titles).toHaveText([title])
	expectCliOk(await unpublishArticle(server(), slug))
	expectCliOk(await unpublishArticle(server(), 'hedgerows-e2e'))
})
