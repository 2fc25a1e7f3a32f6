// The site shell a visitor meets on every page (header, keyboard, narrow screens), the home
// page's layout, and the route chunks that load only when their page is visited.
import type { Locator, Page } from '@playwright/test'
import {
	expect,
	isSameDocument,
	markDocument,
	seededSlugsNewestFirst,
	serveCanopy,
	siteTitle,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { publishArticles } from './server.ts'

const server = serveCanopy()

const articlePath = `/articles/${seededSlugsNewestFirst[0]}`
const publicPages = ['/home', '/articles', articlePath, '/contact']

function relativeLuminance(color: string): number {
	const channels =
		color
			.match(/[\d.]+/g)
			?.slice(0, 3)
			.map(Number) ?? []
	expect(channels, `a parsable rgb() colour, got ${color}`).toHaveLength(3)
	const [r = 0, g = 0, b = 0] = channels.map((value) => {
		const c = value / 255
		return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
	})
	return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

function style(locator: Locator, property: string): Promise<string> {
	return locator.evaluate(
		(element, name) => getComputedStyle(element).getPropertyValue(name),
		property,
	)
}

function header(page: Page) {
	const root = page.locator('header.site-header')
	const nav = root.locator('nav[aria-label=Main]')
	return {
		root,
		title: root.locator('a.site-title'),
		logo: root.locator('img.site-logo'),
		nav,
		articles: nav.getByRole('link', { name: 'Articles', exact: true }),
		contact: nav.getByRole('link', { name: 'Contact', exact: true }),
	}
}

for (const colorScheme of ['light', 'dark'] as const) {
	test(`header is a black toolbar with a light uppercase title (${colorScheme} scheme)`, async ({
		page,
	}) => {
		await page.emulateMedia({ colorScheme })
		await page.goto('/articles')
		const { root, title } = header(page)
		await expect(root).toHaveCSS('background-color', 'rgb(0, 0, 0)')
		const titleColor = await style(title, 'color')
		// Light text: far nearer white than black, and at least AA contrast on the black toolbar.
		const luminance = relativeLuminance(titleColor)
		expect(luminance, `title colour ${titleColor}`).toBeGreaterThan(0.7)
		expect((luminance + 0.05) / 0.05, 'contrast of the title on black').toBeGreaterThanOrEqual(4.5)
		await expect(title).toHaveCSS('text-transform', 'uppercase')
		// biome-ignore lint/performance/useDomNodeTextContent: the rendered (uppercased) text is the point
		expect(await title.innerText()).toBe(siteTitle.toUpperCase())
		// Screen readers and search engines still get the title as written.
		await expect(title).toHaveText(siteTitle)
		await expect(title).toHaveAttribute('href', '/home')
	})
}

test('header logo is 25 × 25 px, 6 px to the right of the title', async ({ page }) => {
	await page.goto('/home')
	const { logo, title } = header(page)
	await expect(logo).toBeVisible()
	expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(
		true,
	)
	const box = await logo.boundingBox()
	expect(box?.width).toBeCloseTo(25, 1)
	expect(box?.height).toBeCloseTo(25, 1)
	await expect(logo).toHaveCSS('margin-left', '6px')
	const titleBox = await title.boundingBox()
	expect((box?.x ?? 0) - ((titleBox?.x ?? 0) + (titleBox?.width ?? 0))).toBeCloseTo(6, 0)
})

test('header has exactly the two main links', async ({ page }) => {
	await page.goto('/home')
	const { nav, articles, contact } = header(page)
	await expect(nav.getByRole('link')).toHaveCount(2)
	await expect(articles).toHaveAttribute('href', '/articles')
	await expect(contact).toHaveAttribute('href', '/contact')
})

test('the current section is marked with aria-current="page"', async ({ page }) => {
	const { articles, contact } = header(page)
	const expected: [path: string, current: 'articles' | 'contact' | null][] = [
		['/home', null],
		['/articles', 'articles'],
		[articlePath, 'articles'],
		['/contact', 'contact'],
	]
	for (const [path, current] of expected) {
		await page.goto(path)
		for (const [name, link] of [
			['articles', articles],
			['contact', contact],
		] as const) {
			if (name === current)
				await expect(link, `${name} link on ${path}`).toHaveAttribute('aria-current', 'page')
			else await expect(link, `${name} link on ${path}`).not.toHaveAttribute('aria-current', /.*/)
		}
	}
	// It follows client-side navigation too.
	await page.goto('/home')
	await waitForHydration(page)
	await articles.click()
	await expect(articles).toHaveAttribute('aria-current', 'page')
	await contact.click()
	await expect(contact).toHaveAttribute('aria-current', 'page')
	await expect(articles).not.toHaveAttribute('aria-current', /.*/)
})

test.describe('at 320 px wide', () => {
	test.use({ viewport: { width: 320, height: 640 } })

	test('no page scrolls sideways', async ({ page }) => {
		for (const path of publicPages) {
			await page.goto(path)
			const width = await page.evaluate(() => document.documentElement.scrollWidth)
			expect(width, `document width of ${path}`).toBeLessThanOrEqual(320)
		}
	})

	test('every header link is visible, inside the screen and works', async ({ page }) => {
		await page.goto('/contact')
		await waitForHydration(page)
		const { title, articles, contact } = header(page)
		for (const link of [title, articles, contact]) {
			await expect(link).toBeVisible()
			const box = await link.boundingBox()
			expect(box?.x ?? -1).toBeGreaterThanOrEqual(0)
			expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(320)
			// Actionability: visible, stable, enabled and not covered by anything else.
			await link.click({ trial: true })
		}
		await title.click()
		await expect(page).toHaveURL(/\/home$/)
		await articles.click()
		await expect(page).toHaveURL(/\/articles$/)
		await expect(page.locator('main h1')).toHaveText('Articles')
		await contact.click()
		await expect(page).toHaveURL(/\/contact$/)
		await expect(page.locator('main h1')).toHaveText('Contact')
	})
})

test('keyboard: Tab reaches the skip link, the title, the search field, Articles and Contact, each with a visible outline', async ({
	page,
}) => {
	await page.goto('/home')
	const { title, articles, contact } = header(page)
	const skip = page.locator('a.skip-link')
	const search = page.getByRole('searchbox', { name: 'Search the site' })
	for (const target of [skip, title, search, articles, contact]) {
		await page.keyboard.press('Tab')
		await expect(target).toBeFocused()
		const outline = await target.evaluate((element) => {
			const css = getComputedStyle(element)
			return { style: css.outlineStyle, width: Number.parseFloat(css.outlineWidth) }
		})
		expect(outline.style, `outline of ${await target.textContent()}`).not.toBe('none')
		expect(outline.width).toBeGreaterThan(0)
		await expect(target).toBeInViewport()
	}
	// The skip link does what it says: the next Tab lands in the content, past the header.
	for (let back = 0; back < 4; back++) await page.keyboard.press('Shift+Tab')
	await expect(skip).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(page.locator('main#main')).toBeFocused()
	await page.keyboard.press('Tab')
	const focusedInMain = await page.evaluate(() => document.activeElement?.closest('main') !== null)
	expect(focusedInMain).toBe(true)
})

test('home: logo centred, exactly 30 px below the header, then tagline and three latest articles', async ({
	page,
}) => {
	for (const width of [1280, 320]) {
		await page.setViewportSize({ width, height: 800 })
		await page.goto('/home')
		const logo = page.locator('main img.home-logo')
		await expect(logo).toBeVisible()
		const logoBox = await logo.boundingBox()
		const headerBox = await page.locator('header.site-header').boundingBox()
		const viewportWidth = await page.evaluate(() => document.documentElement.clientWidth)
		const centre = (logoBox?.x ?? 0) + (logoBox?.width ?? 0) / 2
		expect(Math.abs(centre - viewportWidth / 2), `logo centre at ${width} px`).toBeLessThanOrEqual(
			1,
		)
		const gap = (logoBox?.y ?? 0) - ((headerBox?.y ?? 0) + (headerBox?.height ?? 0))
		expect(gap, `gap between header and logo at ${width} px`).toBeCloseTo(30, 0)
		await expect(page.locator('main p.tagline')).toBeVisible()
		await expect(page.locator('main p.tagline')).not.toBeEmpty()
		const cards = page.locator('main .latest article.article-card')
		await expect(cards).toHaveCount(3)
		const hrefs = await cards
			.locator('.article-card-title a')
			.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))
		expect(hrefs).toEqual(seededSlugsNewestFirst.slice(0, 3).map((slug) => `/articles/${slug}`))
	}
})

test.describe('route chunks', () => {
	const chunk = (name: 'articles' | 'contact') => new RegExp(`/assets/${name}-[\\w-]+\\.js$`)

	test('home loads neither the articles nor the contact chunk; each loads when its link is clicked', async ({
		page,
	}) => {
		const requested: string[] = []
		page.on('request', (request) => {
			// Any kind of request: a modulepreload or prefetch link counts as loading the chunk too.
			requested.push(new URL(request.url()).pathname)
		})
		await page.goto('/home')
		await waitForHydration(page)
		await page.waitForLoadState('networkidle')
		// The listener sees route chunks: home's own is there.
		expect(requested.some((path) => /^\/assets\/home-[\w-]+\.js$/.test(path))).toBe(true)
		expect(
			requested.filter((path) => chunk('articles').test(path) || chunk('contact').test(path)),
		).toEqual([])
		await markDocument(page)

		const { articles, contact } = header(page)
		const articlesChunk = page.waitForRequest((request) => chunk('articles').test(request.url()))
		await articles.click()
		await articlesChunk
		await expect(page.locator('main h1')).toHaveText('Articles')
		await expect(page.locator('[data-testid=article-list] article.article-card')).toHaveCount(
			seededSlugsNewestFirst.length,
		)
		expect(requested.filter((path) => chunk('contact').test(path))).toEqual([])

		const contactChunk = page.waitForRequest((request) => chunk('contact').test(request.url()))
		await contact.click()
		await contactChunk
		await expect(page.locator('main h1')).toHaveText('Contact')
		await expect(page.locator('main a[href^="mailto:"]')).toBeVisible()
		// Both pages came by client-side navigation, not full page loads.
		expect(await isSameDocument(page)).toBe(true)
	})
})

test('pointing at or focusing an article’s title fetches its page ahead, as a <Link prefetch="intent"> does', async ({
	page,
}) => {
	const slug = seededSlugsNewestFirst[1] as string
	const fetched: string[] = []
	page.on('request', (request) => {
		const url = new URL(request.url())
		if (url.pathname.startsWith(`/articles/${slug}`)) fetched.push(url.pathname + url.search)
	})
	await page.goto('/articles')
	await waitForHydration(page)
	await markDocument(page)
	const title = page.locator('article.article-card h2 a', { hasText: /./ }).nth(1)
	await expect(title).toHaveAttribute('href', `/articles/${slug}`)
	expect(fetched).toEqual([])

	// A pointer passing over it on its way elsewhere fetches nothing (in and out within one
	// task, so however slow the machine, it leaves before the 100 ms a rest takes).
	await title.evaluate((anchor) => {
		anchor.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }))
		anchor.dispatchEvent(
			new MouseEvent('mouseout', { bubbles: true, relatedTarget: document.body }),
		)
	})
	await page.waitForTimeout(300)
	expect(fetched).toEqual([])

	// Resting on it does, as a <Link prefetch="intent">: the page's data.
	const prefetched = page.waitForRequest((request) =>
		new URL(request.url()).pathname.startsWith(`/articles/${slug}.data`),
	)
	await title.hover()
	await prefetched
	await expect(page.locator(`link[rel=prefetch][href^="/articles/${slug}.data"]`)).toHaveCount(1)

	await title.click()
	await expect(page.locator('main h1')).toHaveText(/./)
	await expect(page).toHaveURL(new RegExp(`/articles/${slug}$`))
	expect(await isSameDocument(page)).toBe(true)
	// Followed, there is nothing left to fetch ahead.
	await expect(page.locator('link[rel=prefetch]')).toHaveCount(0)

	// Keyboard focus counts as pointing: back on the list, focusing another title fetches it.
	await page.goBack()
	const other = seededSlugsNewestFirst[2] as string
	const focused = page.waitForRequest((request) =>
		new URL(request.url()).pathname.startsWith(`/articles/${other}.data`),
	)
	await page.locator(`article.article-card h2 a[href="/articles/${other}"]`).focus()
	await focused
})

test('public pages load without console errors or CSP violations, and hydrate', async ({
	page,
}) => {
	// The page fixture fails the test on any console error, uncaught exception or CSP violation.
	for (const path of ['/', ...publicPages]) {
		await page.goto(path)
		await waitForHydration(page)
		await page.waitForLoadState('load')
	}
	const response = await page.request.get('/home')
	expect(response.headers()['content-security-policy']).toMatch(
		/script-src 'nonce-[^']+' 'strict-dynamic'/,
	)
})

test.describe('the Content-Security-Policy', () => {
	test.use({ expectedConsoleError: /CSP violation|Content Security Policy/ })

	test('blocks script injected as markup (the usual XSS), and the violation is reported', async ({
		page,
	}) => {
		const reports: string[] = []
		page.on('console', (message) => {
			if (message.text().startsWith('CSP violation:')) reports.push(message.text())
		})
		await page.goto('/home')
		await waitForHydration(page)
		await page.evaluate(() => {
			document.body.insertAdjacentHTML(
				'beforeend',
				'<img alt="" src="data:," onerror="window.canopyInjected = true">',
			)
		})
		await expect.poll(() => reports).toEqual([expect.stringContaining('script-src')])
		expect(
			await page.evaluate(() => Reflect.get(window, 'canopyInjected')),
			'the injected handler ran',
		).toBeUndefined()
	})
})

test('after a link followed in the page, focus is on the new page’s heading, as after a full load a screen reader starts there', async ({
	page,
}) => {
	await page.goto('/home')
	await waitForHydration(page)
	await markDocument(page)
	const focusedHeading = () =>
		page.evaluate(() =>
			document.activeElement?.tagName === 'H1' ? document.activeElement.textContent : null,
		)
	// By keyboard: the Articles link, Enter.
	await header(page).articles.focus()
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/\/articles$/)
	await expect.poll(focusedHeading).toBe('Articles')
	// An article from the list, then Back: each time the page's own heading.
	const title = page.getByRole('main').getByRole('heading', { level: 2 }).first()
	const name = (await title.textContent()) ?? ''
	await title.getByRole('link').click()
	await expect(page).toHaveURL(new RegExp(`${articlePath}$`))
	await expect.poll(focusedHeading).toBe(name)
	await page.goBack()
	await expect.poll(focusedHeading).toBe('Articles')
	expect(await isSameDocument(page)).toBe(true)
})

// Last in this file: it adds an article the tests above do not expect.
test.describe('words longer than a phone is wide', () => {
	test.use({ viewport: { width: 320, height: 640 } })

	test('an address in a title, a summary and a tag wraps instead of widening the page', async ({
		page,
	}) => {
		const address = `https://example.org/reports/2026/${'wetland-restoration-'.repeat(7)}final`
		await publishArticles(server(), [
			{
				title: `Read ${address}`,
				slug: 'a-very-long-address',
				summary: address,
				tags: [`Peatland${'restoration'.repeat(2)}`],
			},
		])
		await page.goto('/articles/a-very-long-address')
		const tag = page
			.getByRole('main')
			.getByRole('link', { name: /^Peatlandrestoration/ })
			.first()
		const tagPath = new URL((await tag.getAttribute('href')) ?? '', 'http://x').pathname
		for (const path of ['/home', '/articles', '/articles/a-very-long-address', tagPath]) {
			await page.goto(path)
			await expect(page.getByText(address).first()).toBeVisible()
			const width = await page.evaluate(() => document.documentElement.scrollWidth)
			expect(width, `document width of ${path}`).toBeLessThanOrEqual(320)
		}
		await page.goto('/search?q=wetland')
		await expect(page.getByRole('main').getByRole('link', { name: /^Read https/ })).toBeVisible()
		const width = await page.evaluate(() => document.documentElement.scrollWidth)
		expect(width, 'document width of /search').toBeLessThanOrEqual(320)
	})
})
