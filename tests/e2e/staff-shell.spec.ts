// The staff area's own chrome: a sidebar at 1280 px with "New article" first, the sections in
// groups and the account last; at 320 px a Menu button, by keyboard, closing on Escape and on a
// link followed; no public header or footer anywhere in it; axe in both.
import type { Locator, Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, serveCanopy, siteTitle, test, waitForHydration } from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()
signedInAs(server, { email: 'mira@example.org', role: 'admin', name: 'Mira Okoye' })

/** The staff area's sections, each a page of the sidebar. */
const staffSections = [
	'/admin',
	'/admin/articles',
	'/admin/pages',
	'/admin/media',
	'/admin/tags',
	'/admin/authors',
	'/admin/messages',
	'/admin/analytics',
	'/admin/account',
	'/admin/settings',
	'/admin/navigation',
	'/admin/team',
	'/admin/api-keys',
	'/admin/redirects',
	'/admin/config',
]

const staffNav = (page: Page) => page.getByRole('navigation', { name: 'Editor area' })

test('at 1280 px the staff area has a sidebar of its own, grouped, with New article first', async ({
	page,
}) => {
	await page.setViewportSize({ width: 1280, height: 800 })
	await page.goto('/admin/articles')
	await waitForHydration(page)
	await expect(page.locator('header.site-header')).toBeHidden()
	await expect(page.locator('footer.site-footer')).toBeHidden()
	const nav = staffNav(page)
	await expect(nav).toBeVisible()
	const box = await nav.boundingBox()
	expect(box?.x ?? 99, 'the sidebar is at the left edge').toBeLessThan(20)
	// The first thing in it is the main action, then the sections, in their groups.
	await expect(nav.getByRole('link').first()).toHaveText('New article')
	for (const [group, links] of [
		['Content', ['Articles', 'Pages', 'Tags', 'Authors', 'Media']],
		['Audience', ['Inbox', 'Analytics', 'Newsletter']],
		[
			'Site',
			[
				'Site settings',
				'Navigation',
				'Team',
				'Subscribers',
				'API keys',
				'Webhooks',
				'Redirects',
				'Move in',
				'Site switches',
			],
		],
	] as const) {
		await expect(nav.getByRole('list', { name: group }).getByRole('link')).toHaveText([...links])
	}
	await expect(nav.getByRole('link', { name: 'Articles' })).toHaveAttribute('aria-current', 'page')
	// The account last: sign-out is there, a quiet button, not the page's main action.
	await expect(nav.getByText('Signed in as')).toContainText('Mira Okoye')
	const signOut = nav.getByRole('button', { name: 'Sign out' })
	await expect(signOut).toBeVisible()
	const newArticle = nav.getByRole('link', { name: 'New article' })
	expect(await signOut.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
		await newArticle.evaluate((el) => getComputedStyle(el).backgroundColor),
	)
	// The site's name leads back to the public site.
	await expect(page.getByRole('link', { name: new RegExp(siteTitle, 'i') })).toHaveAttribute(
		'href',
		'/home',
	)
	await newArticle.click()
	await expect(page).toHaveURL(/\/admin\/articles\/new$/)
	await expect(page.getByLabel('Title', { exact: true })).toBeVisible()
	await expectNoAxeViolations(page, 'staff sidebar at 1280 px')
})

test('at 320 px the sections open from a Menu button, by keyboard, and close on Escape', async ({
	page,
}) => {
	await page.setViewportSize({ width: 320, height: 720 })
	for (const path of staffSections) {
		await page.goto(path)
		await waitForHydration(page)
		const width = await page.evaluate(() => document.documentElement.scrollWidth)
		expect(width, `document width of ${path}`).toBeLessThanOrEqual(320)
	}
	await page.goto('/admin')
	await waitForHydration(page)
	// A short page starts right under the bar: the bar takes none of the height left over.
	const bar = await page.locator('header.staff-side').boundingBox()
	const heading = await page.getByRole('heading', { level: 1 }).boundingBox()
	expect((heading?.y ?? 0) - ((bar?.y ?? 0) + (bar?.height ?? 0))).toBeLessThan(60)
	expect(bar?.height).toBeLessThan(130)
	const menu = page.getByRole('button', { name: 'Menu' })
	await expect(menu).toHaveAttribute('aria-expanded', 'false')
	await expect(staffNav(page)).toBeHidden()
	await menu.focus()
	await page.keyboard.press('Enter')
	await expect(menu).toHaveAttribute('aria-expanded', 'true')
	await expect(staffNav(page).getByRole('link', { name: 'Pages' })).toBeVisible()
	await expectNoAxeViolations(page, 'staff menu open at 320 px')
	await page.keyboard.press('Tab')
	await expect(staffNav(page).getByRole('link', { name: 'New article' })).toBeFocused()
	await page.keyboard.press('Escape')
	await expect(menu).toHaveAttribute('aria-expanded', 'false')
	await expect(menu).toBeFocused()
	// A link followed closes it.
	await menu.click()
	await staffNav(page).getByRole('link', { name: 'Pages' }).click()
	await expect(page).toHaveURL(/\/admin\/pages$/)
	await expect(menu).toHaveAttribute('aria-expanded', 'false')
	await expect(staffNav(page)).toBeHidden()
})

test('every staff page has no axe violations in the light colour scheme or the dark', async ({
	page,
}) => {
	// Twenty-one pages, each loaded and hydrated once, audited in each scheme.
	test.setTimeout(120_000)
	// An article with a history and edits waiting for Update, so those pages show all they have.
	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	await page.getByLabel('Title', { exact: true }).fill('Axe walk')
	await page.getByLabel('Text (Markdown)').fill('Words to check.')
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	const article = page.url().replace(/\?.*$/, '')
	await page.getByLabel('Text (Markdown)').fill('Words to check, changed.')
	await expect(page.getByRole('status').filter({ hasText: 'Changes saved at' })).toBeVisible({
		timeout: 10_000,
	})
	for (const path of [
		...staffSections,
		'/admin/articles/new',
		new URL(article).pathname,
		`${new URL(article).pathname}/history`,
		'/admin/config/advanced',
		'/admin/config/banner_message',
		'/admin/config/versions',
	]) {
		// No colour fading between the two audits (a card's background-color transition).
		await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' })
		await page.goto(path)
		await waitForHydration(page)
		await expectNoAxeViolations(page, `${path} (light)`)
		// The same page in the other scheme: the stylesheet's media queries apply at once.
		await page.emulateMedia({ colorScheme: 'dark' })
		await expect
			.poll(() => page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches))
			.toBe(true)
		await expectNoAxeViolations(page, `${path} (dark)`)
	}
})

test('at 320 px the Menu button works before the page’s scripts have loaded, and after', async ({
	page,
}) => {
	await page.setViewportSize({ width: 320, height: 640 })
	// The page's scripts held back, as a slow phone's network does.
	let release = () => {}
	const held = new Promise<void>((resolve) => {
		release = resolve
	})
	await page.route(/\/assets\/.*\.js$/, async (route) => {
		await held
		await route.continue()
	})
	await page.goto('/admin/articles', { waitUntil: 'commit' })
	const menu = page.getByRole('button', { name: 'Menu' })
	const nav = staffNav(page)
	await expect(menu).toBeVisible()
	await expect(nav).toBeHidden()
	await menu.click()
	await expect(menu).toHaveAttribute('aria-expanded', 'true')
	await expect(nav.getByRole('link', { name: 'Articles', exact: true })).toBeVisible()
	await page.keyboard.press('Escape')
	await expect(menu).toHaveAttribute('aria-expanded', 'false')
	await expect(nav).toBeHidden()
	// Opened again, then the scripts arrive: it stays open, and they close it.
	await menu.click()
	await expect(nav).toBeVisible()
	release()
	await waitForHydration(page)
	await expect(menu).toHaveAttribute('aria-expanded', 'true')
	await expect(nav).toBeVisible()
	await menu.click()
	await expect(menu).toHaveAttribute('aria-expanded', 'false')
	await expect(nav).toBeHidden()
	await menu.click()
	await expect(menu).toHaveAttribute('aria-expanded', 'true')
	await expect(nav).toBeVisible()
})

test('every staff form sets each label above its own full-width box', async ({ page }) => {
	// A tag and an author to open: the sample content has both.
	await page.setViewportSize({ width: 1280, height: 900 })
	const firstOf = async (list: string) => {
		await page.goto(list)
		return (await page.locator('main a[href^="/admin/"]').first().getAttribute('href')) ?? ''
	}
	const tag = await firstOf('/admin/tags')
	const author = await firstOf('/admin/authors')
	expect(tag).toMatch(/^\/admin\/tags\/\d+$/)
	expect(author).toMatch(/^\/admin\/authors\/\d+$/)
	for (const path of [
		tag,
		author,
		'/admin/settings',
		'/admin/account',
		'/admin/newsletter',
		'/admin/webhooks',
		'/admin/team',
		'/admin/redirects',
		'/admin/api-keys',
		'/admin/config/banner_message',
	]) {
		await page.goto(path)
		await waitForHydration(page)
		const { fields, misplaced } = await page.evaluate(() => {
			const fields = [...document.querySelectorAll<HTMLLabelElement>('main .form label[for]')]
				.map((label) => ({ label, control: label.control }))
				.filter(
					({ control }) =>
						control?.matches('input:not([type=checkbox],[type=radio]), textarea, select') &&
						control.getBoundingClientRect().width > 0,
				)
			const misplaced = fields.flatMap(({ label, control }) => {
				const box = (control as HTMLElement).getBoundingClientRect()
				const above = label.getBoundingClientRect().bottom <= box.top + 1
				// As wide as the form's column: 18rem at the least (the column is 24rem).
				const wide = box.width >= 18 * 16
				return above && wide ? [] : [`${label.textContent?.trim()}: ${Math.round(box.width)} px`]
			})
			return { fields: fields.length, misplaced }
		})
		expect.soft(fields, `${path}: fields checked`).toBeGreaterThan(0)
		expect.soft(misplaced, path).toEqual([])
	}
})

test('the filter a list is showing reads as chosen, and an empty one says what it lacks', async ({
	page,
}) => {
	for (const [path, chosen] of [
		['/admin/pages?status=scheduled', 'Scheduled'],
		['/admin/articles', 'All'],
		['/admin/messages?box=archived', 'Archived'],
		['/admin/subscribers', /^All/],
	] as const) {
		await page.goto(path)
		const filters = page.locator('nav.filters a')
		const current = page.locator('nav.filters a[aria-current="page"]')
		await expect(current).toHaveText(chosen)
		// Unlike the others by more than colour: its weight and its underline bar.
		const looks = await filters.evaluateAll((links) =>
			links.map((link) => {
				const style = getComputedStyle(link)
				return {
					chosen: link.getAttribute('aria-current') === 'page',
					weight: style.fontWeight,
					bar: style.borderBottomColor,
					height: link.getBoundingClientRect().height,
				}
			}),
		)
		const [one] = looks.filter((link) => link.chosen)
		const others = looks.filter((link) => !link.chosen)
		expect(others.length, path).toBeGreaterThan(0)
		for (const other of others) {
			expect(other.weight, path).not.toBe(one?.weight)
			expect(other.bar, path).not.toBe(one?.bar)
		}
		for (const link of looks) expect(link.height, path).toBeGreaterThanOrEqual(40)
	}
	await page.goto('/admin/pages?status=scheduled')
	await expect(page.getByText('No page is scheduled.')).toBeVisible()
	await expect(page.getByText(/Try other words/)).toHaveCount(0)
})

test.describe('leaving a staff form', () => {
	// Chromium logs the refused save's 400 as a console error.
	test.use({ expectedConsoleError: /status of 400/ })
	test('every staff form with something typed in it asks before it is left, and keeps what was typed', async ({
		page,
	}) => {
		const forms: [path: string, field: (page: Page) => Locator, typed: string][] = [
			['/admin/navigation', (p) => p.locator('.menu-add').first().getByLabel('Label'), 'Donate'],
			['/admin/redirects', (p) => p.getByLabel('From', { exact: true }), '/blog/heron-count'],
			['/admin/team', (p) => p.getByLabel('Email address'), 'lea@example.org'],
			['/admin/api-keys', (p) => p.getByLabel('Name', { exact: true }), 'Newsletter import'],
			['/admin/webhooks', (p) => p.getByLabel('Address', { exact: true }), 'https://hooks.example'],
			['/admin/config', (p) => p.getByLabel('Announcement text'), 'Beach clean-up on Sunday'],
		]
		for (const [path, field, typed] of forms) {
			await page.goto(path)
			await waitForHydration(page)
			await field(page).fill(typed)
			await staffNav(page).getByRole('link', { name: 'Articles', exact: true }).click()
			const dialog = page.getByRole('alertdialog')
			await expect(dialog, `${path} asks`).toContainText('You have unsaved changes.')
			await dialog.getByRole('button', { name: 'Stay and keep editing' }).click()
			await expect(page).toHaveURL(new RegExp(`${path}$`))
			await expect(field(page)).toHaveValue(typed)
		}

		// Each form keeps its own state: a link's label typed stays unsaved while another link moves.
		await page.goto('/admin/navigation')
		await waitForHydration(page)
		const header = page.getByRole('region', { name: 'Header' })
		const contactLabel = header.locator('.menu-link').nth(1).getByLabel('Label')
		await contactLabel.fill('Write to us')
		await header.locator('.menu-link').first().getByRole('button', { name: 'Down' }).click()
		await expect(page.getByRole('status')).toBeVisible()
		await expect(header.locator('.menu-link').first().getByLabel('Label')).toHaveValue(
			'Write to us',
		)
		await staffNav(page).getByRole('link', { name: 'Articles', exact: true }).click()
		await expect(page.getByRole('alertdialog')).toContainText('You have unsaved changes.')
		await page.getByRole('button', { name: 'Stay and keep editing' }).click()

		// A tag's form: a refused save leaves the changes unsaved, so leaving still asks; leaving
		// without saving goes.
		await page.goto('/admin/tags')
		await page.getByRole('link', { name: 'Climate', exact: true }).click()
		await waitForHydration(page)
		const address = page.getByLabel('Address (slug)')
		await address.fill('Not An Address!')
		await page.getByRole('button', { name: 'Save the tag' }).click()
		await expect(page.locator('.field-error').first()).toBeVisible()
		await staffNav(page).getByRole('link', { name: 'Tags', exact: true }).click()
		const dialog = page.getByRole('alertdialog')
		await expect(dialog).toContainText('You have unsaved changes.')
		await dialog.getByRole('button', { name: 'Leave without saving' }).click()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tags')
	})
})

test('saved from the foot of a long form on a phone, the news at its top comes into view with focus', async ({
	page,
}) => {
	await page.setViewportSize({ width: 390, height: 640 })
	await page.goto('/admin/tags')
	await page.getByRole('link', { name: 'Climate', exact: true }).click()
	await waitForHydration(page)
	await page
		.getByLabel('Description', { exact: true })
		.fill('Heat, floods and what we do about them.')
	const save = page.getByRole('button', { name: 'Save the tag' })
	await save.scrollIntoViewIfNeeded()
	await save.click()
	const notice = page.getByRole('status').filter({ hasText: 'Saved.' })
	await expect(notice).toBeFocused()
	await expect(notice).toBeInViewport()
	// From there, the keyboard goes on through the page in order.
	await page.keyboard.press('Tab')
	await expect(page.getByLabel('Name', { exact: true })).toBeFocused()
})
