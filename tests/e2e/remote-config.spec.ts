// The remote configuration changing the running site, no deploy: an admin turns on a banner for
// 10 % of French-speaking visitors and exactly those see it; each of the five switches changes
// what readers get; an open page learns of a new version through the live stream and shows it
// at its next route change, without a reload.
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import { rolloutBucket } from '#app/features/remote-config/evaluate.server.ts'
import {
	expect,
	isSameDocument,
	markDocument,
	serveCanopy,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { wholeBrowser } from './chrome.ts'
import { signedInAs } from './signed-in.ts'

// One switch turns the notify button on and off, and only a browser with the Push API shows it.
test.use(wholeBrowser)

const server = serveCanopy()
signedInAs(server, { email: 'ines@example.org', name: 'Inês Admin', role: 'admin' })

const desktopChrome =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** A visitor id whose bucket for `key` is below `percent` (inside the rollout), or not. */
function visitorId(key: string, percent: number, inside: boolean): string {
	for (;;) {
		const id = randomBytes(16).toString('base64url')
		if (rolloutBucket(id, key) < percent === inside) return id
	}
}

/** A reader's own browser: a language, and the config id cookie their browser made earlier. */
async function reader(browser: Browser, locale: string, configId?: string) {
	// A context of its own: not the admin's cookies (which this file's `use` would give it), or a
	// first visit would carry the admin's config id, inside the rollout one time in ten.
	const context = await browser.newContext({
		locale,
		userAgent: desktopChrome,
		storageState: undefined,
	})
	if (configId)
		await context.addCookies([{ name: 'canopy_config_id', value: configId, url: server().url }])
	expect((await context.cookies()).map((cookie) => cookie.name)).toEqual(
		configId ? ['canopy_config_id'] : [],
	)
	const page = await context.newPage()
	const problems: string[] = []
	page.on('pageerror', (error) => problems.push(error.message))
	page.on('console', (message) => {
		if (message.type() === 'error') problems.push(message.text())
	})
	return { context, page, problems }
}

/** Publishes a server default for one parameter through /admin/config, as an admin does. */
async function publishDefault(page: Page, key: string, value: string) {
	await page.goto(`/admin/config/${key}`)
	await waitForHydration(page)
	await page.getByRole('radio', { name: 'Set a server default' }).check()
	const field = page.getByLabel('Server default value')
	if ((await field.evaluate((element) => element.tagName)) === 'SELECT')
		await field.selectOption(value)
	else await field.fill(value)
	await page.getByRole('button', { name: 'Publish' }).click()
	await expect(page.getByRole('status')).toHaveText(/Version \d+ published/)
}

const banner = (page: Page) => page.getByRole('region', { name: 'Announcement' })

test('a banner for 10 % of French-speaking visitors reaches those visitors and only those', async ({
	page,
	browser,
}) => {
	// Fifteen page loads and a publish: about 25 s on a busy 2-core machine.
	test.setTimeout(60_000)
	const message = 'Bonjour ! Notre lettre d’information paraît chaque vendredi.'
	await page.goto('/admin/config/banner_message')
	await waitForHydration(page)
	await page.getByRole('button', { name: 'Add a condition' }).click()
	const condition = page.getByRole('group', { name: 'Condition 1' })
	await condition.getByLabel('Percent of visitors').fill('10')
	await condition.getByLabel('Languages').fill('fr')
	await condition.getByLabel('Value').fill(message)
	await page.getByRole('button', { name: 'Publish' }).click()
	await expect(page.getByRole('status')).toHaveText(/Version \d+ published/)

	const inside = visitorId('banner_message', 10, true)
	const outside = visitorId('banner_message', 10, false)
	const readers = [
		{ locale: 'fr-FR', id: inside, sees: true },
		{ locale: 'fr-CA', id: visitorId('banner_message', 10, true), sees: true },
		{ locale: 'fr-FR', id: outside, sees: false },
		{ locale: 'en-GB', id: inside, sees: false },
		// A first visit: no id yet, so no rollout can include its first page.
		{ locale: 'fr-FR', id: undefined, sees: false },
	]
	for (const { locale, id, sees } of readers) {
		const { context, page: readerPage, problems } = await reader(browser, locale, id)
		let expected = sees
		for (const path of ['/home', '/articles', '/contact']) {
			await readerPage.goto(path)
			if (expected) await expect(banner(readerPage)).toContainText(message)
			else await expect(banner(readerPage)).toHaveCount(0)
			if (id) continue
			// The first page made the visitor's id; from the next page on, its bucket decides,
			// like any returning visitor's (one first visitor in ten lands inside).
			const madeId = async () =>
				(await context.cookies()).find((cookie) => cookie.name === 'canopy_config_id')?.value ?? ''
			await expect
				.poll(madeId, { message: 'the browser keeps a config id after its first page' })
				.toMatch(/^[\w-]{22}$/)
			expected = rolloutBucket(await madeId(), 'banner_message') < 10
		}
		expect(problems, `${locale} ${id ? 'returning' : 'first'} visitor`).toEqual([])
		await context.close()
	}

	// The visitor it is for can dismiss it; it stays dismissed on the next pages.
	const { context, page: french } = await reader(browser, 'fr-FR', inside)
	await french.goto('/home')
	await waitForHydration(french)
	await banner(french).getByRole('button', { name: 'Dismiss announcement' }).click()
	await expect(banner(french)).toBeHidden()
	await french.goto('/articles')
	await expect(banner(french)).toBeHidden()
	await context.close()

	// Nothing shows in the editor area.
	await page.goto('/admin')
	await expect(banner(page)).toHaveCount(0)
})

test('each switch changes the site for readers', async ({ page, browser }) => {
	const { context, page: readerPage, problems } = await reader(browser, 'en-GB')
	const cards = () => readerPage.locator('[data-article-id]')

	await publishDefault(page, 'home_latest_count', '1')
	await readerPage.goto('/home')
	await expect(cards()).toHaveCount(1)

	await publishDefault(page, 'articles_page_size', '2')
	await readerPage.goto('/articles')
	await expect(cards()).toHaveCount(2)
	await expect(readerPage.getByRole('link', { name: 'Older articles' })).toBeVisible()
	await expect(readerPage.getByRole('button', { name: 'Notify me of new articles' })).toBeVisible()

	await publishDefault(page, 'push_prompt_enabled', 'false')
	await readerPage.goto('/articles')
	await waitForHydration(readerPage)
	await expect(cards()).toHaveCount(2)
	await expect(readerPage.getByText('Notify me of new articles')).toHaveCount(0)

	await publishDefault(page, 'contact_form_enabled', 'false')
	await readerPage.goto('/contact')
	await expect(readerPage.getByText('The contact form is closed just now.')).toBeVisible()
	// No field of the contact form is left (the footer's newsletter form is not its).
	await expect(readerPage.locator('main').getByRole('textbox')).toHaveCount(0)
	await expect(readerPage.getByRole('link', { name: /@/ }).first()).toBeVisible()

	await publishDefault(page, 'banner_message', 'The office is closed on Friday.')
	await readerPage.goto('/home')
	await expect(banner(readerPage)).toContainText('The office is closed on Friday.')
	expect(problems).toEqual([])
	await context.close()
})

test('an open page hears of a new version and shows it at its next route change, without a reload', async ({
	page,
	browser,
}) => {
	await publishDefault(page, 'banner_message', '')
	const { context, page: readerPage, problems } = await reader(browser, 'en-GB')
	await readerPage.goto('/articles')
	await waitForHydration(readerPage)
	await markDocument(readerPage)
	await expect(banner(readerPage)).toHaveCount(0)

	const fetched = readerPage.waitForResponse(
		(response) => response.url().endsWith('/api/config') && response.status() === 200,
	)
	await publishDefault(page, 'banner_message', 'Live from the newsroom.')
	await fetched
	// Nothing changes mid-page...
	await expect(banner(readerPage)).toHaveCount(0)
	// ...until the reader moves on.
	await readerPage
		.getByRole('navigation', { name: 'Main' })
		.getByRole('link', { name: 'Contact' })
		.click()
	await expect(banner(readerPage)).toContainText('Live from the newsroom.')
	expect(await isSameDocument(readerPage)).toBe(true)
	expect(problems).toEqual([])
	await context.close()
})
