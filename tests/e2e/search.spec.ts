// A reader searches: on a phone without JavaScript (the header's link to the search page, a plain
// form) and on a wide screen from the header's own field; the word is marked in each result, and
// found by its other forms too ("bogs" finds "bog");
// titles offered as they type, chosen with the keyboard, without moving the page.
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, interfaceOnly, serveCanopy, test, waitForHydration } from './canopy-test.ts'
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
		// "bogs" finds the article's "bog" by its stem (made by the server just after the publish).
		await expect(async () => {
			await page.goto('/search?q=bogs')
			const found = page
				.getByRole('region', { name: /result for “bogs”/ })
				.getByRole('listitem')
				.filter({ hasText: 'Peatlands hold the carbon' })
			await expect(found.locator('mark')).toHaveText(['bog'], { timeout: 1_000 })
		}).toPass({ timeout: 10_000 })
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
	const field = page.getByRole('banner').getByLabel('Search the site', { exact: true })
	await field.fill('carbon')
	await field.press('Enter')
	await expect(page).toHaveURL(/\/search\?q=carbon$/)
	await expect(page.getByRole('heading', { level: 2 })).toContainText('for “carbon”')
	await expect(page.getByRole('link', { name: 'Peatlands hold the carbon' })).toBeVisible()
	// The header stays one line.
	const header = await page.getByRole('banner').boundingBox()
	expect(header?.height).toBeLessThanOrEqual(72)
	await expectNoAxeViolations(page)
	// A phrase searched whole is named once in quotes, in the heading and the tab's title.
	await page.goto(`/search?${new URLSearchParams({ q: '"peat bog"' })}`)
	await expect(page.getByRole('heading', { level: 2 })).toHaveText('1 result for “peat bog”')
	await expect(page).toHaveTitle(/^“peat bog” · Search · /)
	await page.goto('/search?q=%21%21%21')
	await expect(page.getByRole('alert')).toContainText('Type a word to look for')
})

test('as a reader types, titles are offered under the field; arrows and Enter open one, nothing moves', async ({
	page,
}) => {
	await page.setViewportSize({ width: 1280, height: 800 })
	await page.goto('/articles')
	await waitForHydration(page)
	const asked: string[] = []
	page.on('request', (request) => {
		if (request.url().includes('/search/suggest')) asked.push(new URL(request.url()).search)
	})
	const heading = page.getByRole('heading', { level: 1 })
	const before = await heading.boundingBox()
	const field = page.getByRole('banner').getByLabel('Search the site', { exact: true })
	await field.pressSequentially('peatl', { delay: 30 })
	const combobox = page.getByRole('combobox', { name: 'Search the site' })
	await expect(combobox).toHaveAttribute('aria-expanded', 'true')
	const list = page.getByRole('listbox', { name: 'Suggestions' })
	const option = list.getByRole('option', { name: 'Peatlands hold the carbon' })
	await expect(option).toBeVisible()
	// Asked after a pause, not once per key. ("pea" may have been asked on a busy machine, whose
	// typing pauses too, and its answer offers the same title before "peatl" is asked.)
	await expect.poll(() => asked.at(-1)).toBe('?q=peatl')
	expect(asked.length).toBeLessThanOrEqual(2)
	// The list floats: the page under it has not moved.
	expect(await heading.boundingBox()).toEqual(before)
	await expectNoAxeViolations(page)

	await combobox.press('ArrowDown')
	await expect(option).toHaveAttribute('aria-selected', 'true')
	await expect(combobox).toHaveAttribute(
		'aria-activedescendant',
		(await option.getAttribute('id')) ?? '',
	)
	await combobox.press('Escape')
	await expect(combobox).toHaveAttribute('aria-expanded', 'false')
	await expect(list).toBeHidden()
	await combobox.press('ArrowDown')
	await expect(option).toHaveAttribute('aria-selected', 'true')
	await combobox.press('Enter')
	await expect(page).toHaveURL(/\/articles\/peatlands-hold-the-carbon$/)
	await expect(heading).toHaveText('Peatlands hold the carbon')
	await expect(list).toBeHidden()
})

test(
	'on a phone the search page offers titles too, inside the screen',
	interfaceOnly,
	async ({ page }) => {
		await page.setViewportSize({ width: 390, height: 844 })
		await page.goto('/home')
		await waitForHydration(page)
		// The header's search link leads to a page for typing in: the field has the focus.
		await page.getByRole('banner').getByRole('link', { name: 'Search' }).click()
		await expect(page).toHaveURL(/\/search$/)
		await expect(page.getByLabel('Words to look for')).toBeFocused()
		await page.keyboard.type('carb', { delay: 30 })
		const option = page
			.getByRole('listbox', { name: 'Suggestions' })
			.getByRole('option', { name: 'Peatlands hold the carbon' })
		await expect(option).toBeVisible()
		const box = await option.boundingBox()
		expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390)
		await option.click()
		await expect(page).toHaveURL(/\/articles\/peatlands-hold-the-carbon$/)

		// Enter with no title chosen searches, and the results are not left under the list.
		await page.goto('/search')
		await waitForHydration(page)
		const field = page.getByLabel('Words to look for')
		await field.pressSequentially('carb', { delay: 30 })
		await expect(option).toBeVisible()
		await field.press('Enter')
		await expect(page).toHaveURL(/\/search\?q=carb$/)
		await expect(page.getByRole('heading', { level: 2 })).toBeVisible()
		const list = page.getByRole('listbox', { name: 'Suggestions' })
		await expect(list).toBeHidden()
		await expect(field).toHaveAttribute('aria-expanded', 'false')
		// Nor does an answer still on its way open it again (one pause and a reply later).
		await page.waitForTimeout(600)
		await expect(list).toBeHidden()
	},
)
