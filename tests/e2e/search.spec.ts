// A reader searches: on a phone without JavaScript (the header's link to the search page, a plain
// form) and on a wide screen from the header's own field; the word is marked in each result.
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { publishArticles } from './server.ts'

const server = serveCanopy()

// A refused search answers 400, which the browser logs as a failed load.
test.use({ expectedConsoleError: /status of 400 \(Bad Request\) \(at [^ ]+\/search\?q=/ })

test.beforeAll(async () => {
	await publishArticles(server(), [
		{
			title: 'Peatlands hold the carbon',
			slug: 'peatlands-hold-the-carbon',
			body: 'A peat bog grows a millimetre a year, and keeps what it grew for ten thousand.',
		},
	])
})

test('on a phone without JavaScript a reader finds the peatlands article, the word marked', async ({
	browser,
}) => {
	const context = await browser.newContext({
		baseURL: server().url,
		javaScriptEnabled: false,
		viewport: { width: 390, height: 844 },
	})
	const page = await context.newPage()
	try {
		await page.goto('/home')
		await page.getByRole('banner').getByRole('link', { name: 'Search' }).click()
		await expect(page).toHaveURL(/\/search$/)
		await page.getByLabel('Words to look for').fill('peat')
		await page.getByLabel('Words to look for').press('Enter')
		await expect(page).toHaveURL(/\/search\?q=peat$/)
		const results = page.getByRole('region', { name: /results? for “peat”/ })
		const result = results.getByRole('listitem').filter({ hasText: 'Peatlands hold the carbon' })
		await expect(result.locator('mark').first()).toHaveText('peat')
		await result.getByRole('link', { name: 'Peatlands hold the carbon' }).click()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Peatlands hold the carbon')
		const overflow = await page.evaluate(
			() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
		)
		expect(overflow).toBeLessThanOrEqual(0)
	} finally {
		await context.close()
	}
})

test('on a wide screen the header’s field searches, and the results page passes axe', async ({
	page,
}) => {
	await page.setViewportSize({ width: 1280, height: 800 })
	await page.goto('/articles')
	await waitForHydration(page)
	const field = page.getByRole('banner').getByRole('searchbox', { name: 'Search the site' })
	await field.fill('carbon')
	await field.press('Enter')
	await expect(page).toHaveURL(/\/search\?q=carbon$/)
	await expect(page.getByRole('heading', { level: 2 })).toContainText('for “carbon”')
	await expect(page.getByRole('link', { name: 'Peatlands hold the carbon' })).toBeVisible()
	// The header stays one line.
	const header = await page.getByRole('banner').boundingBox()
	expect(header?.height).toBeLessThanOrEqual(72)
	await expectNoAxeViolations(page)
	await page.goto('/search?q=%21%21%21')
	await expect(page.getByRole('alert')).toContainText('Type a word to look for')
})
