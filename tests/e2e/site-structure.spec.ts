// A whole publication in the browser: an admin adds pages to the menus and renames a tag from the
// staff area; readers find the links in the header (behind a Menu button on a 320 px phone,
// opened and closed from the keyboard) and the footer, and the tag's and author's pages. Every
// new staff and public page passes axe.
import type { Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()
signedInAs(server, { email: 'nadia@example.org', role: 'admin', name: 'Nadia Haddad' })
// A refused tag save is the form's 400 answer, which the browser reports.
test.use({
	expectedConsoleError: /status of 400 \(Bad Request\) \(at http:[^ ]+\/admin\/tags\/\d+\.data/,
})

test('an admin builds the menus; readers use them at 1280 and 320 px, by keyboard', async ({
	page,
}) => {
	await page.goto('/admin/navigation')
	await waitForHydration(page)
	await expectNoAxeViolations(page)
	const header = page.getByRole('region', { name: 'Header' })
	const add = header.locator('form.menu-add')
	const addLink = async (label: string, href: string) => {
		await add.getByLabel('Label').fill(label)
		await add.getByLabel('Address').fill(href)
		await add.getByRole('button', { name: 'Add to the header' }).click()
		await expect(header.getByRole('listitem').last().getByLabel('Label')).toHaveValue(label)
		await expect(page.getByRole('status')).toContainText('Link added.')
		// Empty for the next link, and focus on the news rather than lost.
		await expect(add.getByLabel('Label')).toHaveValue('')
		await expect(add.getByLabel('Address')).toHaveValue('')
		await expect(page.getByRole('status')).toBeFocused()
	}
	await addLink('About us', '/about')
	// A link half-typed stays as typed while another link in the same menu moves.
	await add.getByLabel('Label').fill('Take action')
	await header.getByRole('button', { name: 'Move “About us” up' }).click()
	await expect(page.getByRole('status')).toContainText('Link moved up.')
	await expect(header.getByRole('listitem').nth(1).getByLabel('Label')).toHaveValue('About us')
	await expect(add.getByLabel('Label')).toHaveValue('Take action')
	await addLink('Take action', '/take-action')
	const footer = page.getByRole('region', { name: 'Footer' })
	const addFooter = footer.locator('form.menu-add')
	await addFooter.getByLabel('Label').fill('Privacy')
	await addFooter.getByLabel('Address').fill('/privacy')
	await addFooter.getByRole('button', { name: 'Add to the footer' }).click()
	// The header's last add said "Link added." too: wait for the footer's own answer, or the
	// page below is asked for while this save is still on its way.
	await expect(page.getByRole('status')).toContainText('Link added. Readers see the footer')
	await expectNoAxeViolations(page, 'navigation, after changes')

	// At 1280 px the header is one line: title, logo and every link.
	await page.setViewportSize({ width: 1280, height: 800 })
	await page.goto('/home')
	await waitForHydration(page)
	const main = page.getByRole('navigation', { name: 'Main' })
	await expect(main.getByRole('link')).toHaveText([
		'Articles',
		'About us',
		'Contact',
		'Take action',
	])
	const toolbar = page.locator('.site-header .toolbar')
	expect((await toolbar.boundingBox())?.height).toBeLessThanOrEqual(64)
	await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden()
	await expect(page.getByRole('navigation', { name: 'Footer' }).getByRole('link')).toHaveText([
		'RSS feed',
		'Contact',
		'Privacy',
	])

	// At 320 px the links fold behind the Menu button, opened and closed from the keyboard.
	await page.setViewportSize({ width: 320, height: 640 })
	const menu = page.getByRole('button', { name: 'Menu' })
	await expect(menu).toBeVisible()
	await expect(main).toBeHidden()
	// Still one row: the title wraps beside the search and Menu buttons, none drops below it.
	expect((await toolbar.boundingBox())?.height).toBeLessThanOrEqual(64)
	const [title, button] = [
		await page.locator('a.site-title').boundingBox(),
		await menu.boundingBox(),
	]
	expect(Math.abs((button?.y ?? 0) - (title?.y ?? 100))).toBeLessThan(20)
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
	// The logo follows the title's last word on its line, also when the title wraps.
	const logo = await page.locator('a.site-title').evaluate((title) => {
		// The text's own lines: a range's boxes, not the element's (one block box, when it was one).
		const words = document.createRange()
		words.selectNodeContents(title)
		const lines = [...words.getClientRects()]
		const last = lines[lines.length - 1] ?? new DOMRect()
		const box = title.parentElement?.querySelector('img.site-logo')?.getBoundingClientRect()
		if (!box) return { gap: Number.NaN, offCentre: Number.NaN }
		const offCentre = (box.top + box.bottom) / 2 - (last.top + last.bottom) / 2
		return { gap: box.left - last.right, offCentre }
	})
	expect(logo.gap).toBeGreaterThanOrEqual(0)
	expect(logo.gap).toBeLessThanOrEqual(10)
	expect(Math.abs(logo.offCentre)).toBeLessThan(6)
	await menu.focus()
	await page.keyboard.press('Enter')
	await expect(menu).toHaveAttribute('aria-expanded', 'true')
	await expect(main.getByRole('link', { name: 'Take action' })).toBeVisible()
	await expectNoAxeViolations(page, 'home, menu open at 320 px')
	await page.keyboard.press('Tab')
	await expect(main.getByRole('link', { name: 'Articles' })).toBeFocused()
	await page.keyboard.press('Escape')
	await expect(menu).toHaveAttribute('aria-expanded', 'false')
	await expect(menu).toBeFocused()
	await expect(main).toBeHidden()
	// A link followed closes the menu.
	await page.keyboard.press('Enter')
	await main.getByRole('link', { name: 'Articles' }).click()
	await expect(page).toHaveURL(/\/articles$/)
	await expect(menu).toHaveAttribute('aria-expanded', 'false')
	// A tap on the page outside it closes it, and so does focus leaving it.
	await menu.click()
	await expect(menu).toHaveAttribute('aria-expanded', 'true')
	const panel = await main.boundingBox()
	await page.mouse.click(300, (panel?.y ?? 0) + (panel?.height ?? 0) + 40)
	await expect(menu).toHaveAttribute('aria-expanded', 'false')
	await expect(main).toBeHidden()
	await menu.click()
	await expect(menu).toBeFocused()
	const links = await main.getByRole('link').count()
	for (let i = 0; i < links; i++) await page.keyboard.press('Tab')
	await expect(menu).toHaveAttribute('aria-expanded', 'true')
	await page.keyboard.press('Tab')
	await expect(menu).toHaveAttribute('aria-expanded', 'false')
	// Escape closes it wherever focus is.
	await menu.click()
	await page.keyboard.press('Escape')
	await expect(menu).toHaveAttribute('aria-expanded', 'false')

	// An Arabic page gives its text more room between lines: the folded header still keeps to
	// one 64 px row, mirrored.
	await setArabicOffered(page, true)
	const arabic = await page
		.context()
		.browser()
		?.newPage({
			locale: 'ar',
			viewport: { width: 320, height: 640 },
		})
	if (!arabic) throw new Error('No browser to open an Arabic reader’s page in.')
	await arabic.goto(`${server().url}/home`)
	await expect(arabic.locator('html')).toHaveAttribute('dir', 'rtl')
	await expect(arabic.getByRole('button', { name: 'القائمة' })).toBeVisible()
	expect((await arabic.locator('.site-header .toolbar').boundingBox())?.height).toBeLessThanOrEqual(
		64,
	)
	await arabic.close()
	await setArabicOffered(page, false)
})

/** Offers Arabic to readers beside English, or stops, from the site settings. */
async function setArabicOffered(page: Page, offered: boolean) {
	await page.setViewportSize({ width: 1280, height: 800 })
	await page.goto('/admin/settings')
	await waitForHydration(page)
	await page.getByLabel('العربية').setChecked(offered)
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()
}

test('a tag renamed in the staff area: its page, its cards and the old address follow', async ({
	page,
}) => {
	await page.goto('/admin/tags')
	await waitForHydration(page)
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'Oceans' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oceans')
	await waitForHydration(page)
	await expectNoAxeViolations(page)
	// A cover with no description is refused: the summary at the form's top takes focus and
	// leads to the field.
	await page.getByLabel('Cover image', { exact: true }).fill('https://example.org/sea.jpg')
	await page.getByRole('button', { name: 'Save the tag' }).click()
	const summary = page.getByRole('alert').filter({ hasText: 'The tag was not saved' })
	await expect(summary).toBeFocused()
	await summary.getByRole('link', { name: /^Cover image description: / }).click()
	await expect(page.getByLabel('Cover image description')).toBeFocused()
	await page.getByLabel('Cover image', { exact: true }).fill('')
	await page.getByLabel('Name').fill('Oceans and coasts')
	await page.getByLabel('Address (slug)').fill('oceans-and-coasts')
	await page.getByLabel('Description', { exact: true }).fill('Seas, shores and the life in them.')
	await page.getByRole('button', { name: 'Save the tag' }).click()
	await expect(page.getByRole('status')).toContainText('/tags/oceans-and-coasts')

	await page.goto('/tags/oceans')
	await expect(page).toHaveURL(/\/tags\/oceans-and-coasts$/)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oceans and coasts')
	await expect(page.getByText('Seas, shores and the life in them.')).toBeVisible()
	await waitForHydration(page)
	await expectNoAxeViolations(page)
	const card = page.locator('article.article-card').first()
	await expect(card.getByRole('link', { name: 'Oceans and coasts' })).toBeVisible()
	// From a card to its author's page, with the profile's JSON-LD.
	const author = card.locator('.author-link').first()
	const name = (await author.textContent()) ?? ''
	// A card's links are plain anchors followed in the page, as a <Link> is: no page load.
	await page.evaluate(() => {
		;(window as { stayedInPage?: boolean }).stayedInPage = true
	})
	await author.click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
	expect(await page.evaluate(() => (window as { stayedInPage?: boolean }).stayedInPage)).toBe(true)
	await waitForHydration(page)
	await expectNoAxeViolations(page)
	// And back to the tag from one of this author's cards, still without a page load.
	await page
		.locator('article.article-card')
		.getByRole('link', { name: 'Oceans and coasts' })
		.first()
		.click()
	await expect(page).toHaveURL(/\/tags\/oceans-and-coasts$/)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oceans and coasts')
	expect(await page.evaluate(() => (window as { stayedInPage?: boolean }).stayedInPage)).toBe(true)
	// A click with a modifier is the browser's (a new tab): the page stays where it is.
	const [opened] = await Promise.all([
		page.context().waitForEvent('page'),
		page
			.locator('article.article-card .author-link')
			.first()
			.click({ modifiers: ['Control'] }),
	])
	await opened.close()
	await expect(page).toHaveURL(/\/tags\/oceans-and-coasts$/)

	await page.goto('/admin/authors')
	await waitForHydration(page)
	await expectNoAxeViolations(page)
})

test('a new admin builds a publication; a reader in open tabs sees all of it, live', async ({
	page,
	browser,
}) => {
	// The menus as a new site has them (an earlier test here changed them).
	await page.goto('/admin/navigation')
	await waitForHydration(page)
	// It asks first: the summary opens the warning and the one button that resets.
	await page.getByText('Back to the default menus…').click()
	await page
		.getByRole('button', { name: 'Remove the links and go back to the default menus' })
		.click()
	await expect(page.getByRole('status')).toContainText('back to the default')
	// About, Donate and Privacy pages, in the editor.
	const pages: [string, string][] = [
		['About us', 'about'],
		['Donate', 'donate'],
		['Privacy', 'privacy'],
	]
	for (const [title, slug] of pages) {
		await page.goto('/admin/pages/new')
		await waitForHydration(page)
		await page.getByLabel('Title', { exact: true }).fill(title)
		await page.getByLabel('Address (slug)').fill(slug)
		await page.getByLabel('Text (Markdown)').fill(`${title}: what we do and how.`)
		await page.getByRole('button', { name: 'Publish now' }).click()
		await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	}
	// In the menus: About and Donate in the header, Privacy in the footer.
	await page.goto('/admin/navigation')
	await waitForHydration(page)
	const menus: [string, string, string][] = [
		['Header', 'About us', '/about'],
		['Header', 'Donate', '/donate'],
		['Footer', 'Privacy', '/privacy'],
	]
	for (const [where, label, href] of menus) {
		const add = page.getByRole('region', { name: where }).locator('form.menu-add')
		await add.getByLabel('Label').fill(label)
		await add.getByLabel('Address').fill(href)
		await add.getByRole('button', { name: `Add to the ${where.toLowerCase()}` }).click()
		const region = page.getByRole('region', { name: where })
		await expect(region.getByRole('listitem').last().getByLabel('Label')).toHaveValue(label)
		await expect(page.getByRole('status')).toContainText('Link added.')
		await expect(add.getByLabel('Label')).toHaveValue('')
	}

	// A reader with the home page and a tag's page open in two tabs.
	const reader = await browser.newContext({ baseURL: server().url })
	const home = await reader.newPage()
	const tag = await reader.newPage()
	for (const [tab, path] of [
		[home, '/home'],
		[tag, '/tags/climate'],
	] as const) {
		const stream = tab.waitForResponse((response) =>
			response.url().includes('/api/articles/stream'),
		)
		await tab.goto(path)
		await waitForHydration(tab)
		await stream
	}
	await expect(home.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
		'Articles',
		'Contact',
		'About us',
		'Donate',
	])
	await expect(home.getByRole('navigation', { name: 'Footer' })).toContainText('Privacy')

	// An article with two tags and two authors.
	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	const title = 'Saltmarsh Carbon, Counted'
	await page.getByLabel('Title', { exact: true }).fill(title)
	await page.getByLabel('Text (Markdown)').fill('Saltmarshes bury carbon ten times faster.')
	await page.getByLabel('Tags').fill('Climate, Saltmarshes')
	await page.getByLabel('Authors').fill('Nadia Haddad, Omar Saleh')
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	for (const tab of [home, tag])
		await expect(tab.locator('.article-card-title').first()).toHaveText(title)
	const card = tag.locator('article.article-card').first()
	await expect(card.getByRole('link', { name: 'Saltmarshes' })).toHaveAttribute(
		'href',
		'/tags/saltmarshes',
	)
	await expect(card.getByRole('link', { name: 'Omar Saleh' })).toHaveAttribute(
		'href',
		'/authors/omar-saleh',
	)

	// Renamed: the old address sends readers on; the tabs show the new address, still live.
	await waitForHydration(page)
	await page.getByLabel('Address (slug)').fill('saltmarsh-carbon')
	await page.getByRole('button', { name: 'Update the published article' }).click()
	await expect(tag.getByRole('link', { name: title })).toHaveAttribute(
		'href',
		'/articles/saltmarsh-carbon',
	)
	const old = await reader.newPage()
	await old.goto('/articles/saltmarsh-carbon-counted')
	await expect(old).toHaveURL(/\/articles\/saltmarsh-carbon$/)
	await expect(old.getByRole('heading', { level: 1 })).toHaveText(title)
	await old.getByRole('link', { name: 'Omar Saleh' }).first().click()
	await expect(old).toHaveURL(/\/authors\/omar-saleh$/)
	await expect(old.getByRole('heading', { level: 2, name: title })).toBeVisible()
	await old.getByRole('link', { name: 'About us' }).click()
	await expect(old.getByRole('heading', { level: 1 })).toHaveText('About us')
	await reader.close()
})
