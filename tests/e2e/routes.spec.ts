// The address table in DESIGN.md, row by row: status codes as a client sees them, and what a
// visitor sees on each page.
import { expect, seededSlugsNewestFirst, serveCanopy, siteTitle, test } from './canopy-test.ts'

serveCanopy()

const pages = ['/', '/home', '/articles', `/articles/${seededSlugsNewestFirst[0]}`, '/contact']

test('public pages answer 200 with HTML', async ({ request }) => {
	for (const path of pages) {
		const response = await request.get(path, { maxRedirects: 0 })
		expect(response.status(), `GET ${path}`).toBe(200)
		expect(response.headers()['content-type'], `GET ${path}`).toMatch(/^text\/html/)
	}
})

test('every page names one canonical URL; both home addresses name /home', async ({
	page,
	baseURL,
}) => {
	const canonical: [path: string, url: string][] = [
		['/', '/home'],
		['/home', '/home'],
		['/articles', '/articles'],
		[`/articles/${seededSlugsNewestFirst[1]}`, `/articles/${seededSlugsNewestFirst[1]}`],
		['/contact', '/contact'],
	]
	for (const [path, url] of canonical) {
		await page.goto(path)
		await expect(page.locator('link[rel=canonical]'), `canonical of ${path}`).toHaveAttribute(
			'href',
			`${baseURL}${url}`,
		)
	}
})

for (const path of ['/', '/home']) {
	test(`${path} shows the home page`, async ({ page }) => {
		await page.goto(path)
		await expect(page).toHaveURL(new RegExp(`${path === '/' ? '/' : '/home'}$`))
		await expect(page.locator('main h1')).toHaveText(siteTitle)
		await expect(page.locator('img.home-logo')).toBeVisible()
		await expect(page.locator('p.tagline')).not.toBeEmpty()
		await expect(page.getByRole('heading', { name: 'Latest articles' })).toBeVisible()
		await expect(page.locator('main article.article-card')).toHaveCount(3)
	})
}

test('/articles lists every published article, newest first', async ({ page }) => {
	await page.goto('/articles')
	await expect(page.locator('main h1')).toHaveText('Articles')
	const cards = page.locator('[data-testid=article-list] article.article-card[data-article-id]')
	await expect(cards).toHaveCount(seededSlugsNewestFirst.length)
	const links = cards.locator('.article-card-title a')
	const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))
	expect(hrefs).toEqual(seededSlugsNewestFirst.map((slug) => `/articles/${slug}`))
	const dates = await cards
		.locator('time')
		.evaluateAll((times) => times.map((t) => t.getAttribute('datetime') ?? ''))
	expect(dates).toEqual([...dates].sort().reverse())
	// The live region is there from the start (screen readers ignore regions added later), and hidden.
	const status = page.locator('[role=status][aria-live=polite]')
	await expect(status).toHaveCount(1)
	await expect(status).toHaveClass(/visually-hidden/)
	const box = await status.boundingBox()
	expect(box?.width ?? 0).toBeLessThanOrEqual(1)
})

test('each article has its own page, titled like its card', async ({ page, request }) => {
	await page.goto('/articles')
	const titles = await page
		.locator('[data-testid=article-list] .article-card-title a')
		.evaluateAll((anchors) => anchors.map((a) => a.textContent ?? ''))
	expect(titles).toHaveLength(seededSlugsNewestFirst.length)
	for (const [index, slug] of seededSlugsNewestFirst.entries()) {
		const response = await request.get(`/articles/${slug}`, { maxRedirects: 0 })
		expect(response.status(), `GET /articles/${slug}`).toBe(200)
		await page.goto(`/articles/${slug}`)
		await expect(page.locator('main h1')).toHaveText(titles[index] ?? '')
		await expect(page.locator('main .prose p').first()).toBeVisible()
		await expect(page).toHaveTitle(`${titles[index]} · ${siteTitle}`)
	}
})

test.describe('an unknown article slug', () => {
	// The browser logs every 404 document on the console; that one is the point of this test.
	test.use({
		expectedConsoleError:
			/status of 404 \(Not Found\) \(at http:[^ ]+\/articles\/no-such-article\)$/,
	})

	test('is a real 404 page', async ({ page, request }) => {
		const response = await request.get('/articles/no-such-article', { maxRedirects: 0 })
		expect(response.status()).toBe(404)
		const visit = await page.goto('/articles/no-such-article')
		expect(visit?.status()).toBe(404)
		await expect(page.locator('main h1')).toHaveText('Page not found')
		await expect(page).toHaveTitle(`Page not found · ${siteTitle}`)
		await expect(page).toHaveURL(/\/articles\/no-such-article$/)
		await expect(page.locator('header.site-header')).toBeVisible()
		await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute(
			'href',
			'/home',
		)
	})
})

test('/contact shows an email link and a postal address', async ({ page }) => {
	await page.goto('/contact')
	await expect(page.locator('main h1')).toHaveText('Contact')
	const mail = page.locator('main a[href^="mailto:"]')
	await expect(mail).toBeVisible()
	const href = (await mail.getAttribute('href')) ?? ''
	expect(href).toMatch(/^mailto:[^@\s]+@[^@\s]+\.[a-z]+$/i)
	await expect(mail).toHaveText(href.slice('mailto:'.length))
	await expect(page.locator('main address')).toBeVisible()
	await expect(page.locator('main address')).toContainText(siteTitle)
})

for (const path of ['/about', '/some/deep/path', '/ARTICLES-old?ref=mail']) {
	test(`${path} redirects to /home with a 302`, async ({ page, request, baseURL }) => {
		const response = await request.get(path, { maxRedirects: 0 })
		expect(response.status()).toBe(302)
		const location = response.headers().location ?? ''
		expect(new URL(location, baseURL).pathname).toBe('/home')
		await page.goto(path)
		await expect(page).toHaveURL(/\/home$/)
		await expect(page.locator('main h1')).toHaveText(siteTitle)
	})
}

test.describe('deep addresses', () => {
	// The page's own 404, which Chromium logs.
	test.use({ expectedConsoleError: /status of 404/ })

	test('below the articles, tags and authors, an address nothing answers is the 404 page, however deep', async ({
		page,
	}) => {
		for (const path of ['/articles/two/levels', '/tags/soil/page/2']) {
			const response = await page.goto(path)
			expect(response?.status(), path).toBe(404)
			await expect(page).toHaveURL(new RegExp(`${path}$`))
			await expect(page.locator('main h1, h1').first()).toHaveText('Page not found')
		}
	})
})

test('files answer for themselves, never with the redirect', async ({ request }) => {
	const files: [path: string, status: number, type: RegExp, body?: RegExp][] = [
		['/robots.txt', 200, /^text\/plain/, /Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml/],
		['/favicon.ico', 200, /^image\//],
		[
			'/sitemap.xml',
			200,
			/xml/,
			/<loc>http:\/\/127\.0\.0\.1:\d+\/articles\/what-we-throw-away<\/loc>/,
		],
		['/feed.xml', 200, /xml/, /<rss[\s\S]*What We Throw Away/],
		['/atom.xml', 200, /xml/, /<feed[\s\S]*What We Throw Away/],
		['/logo.svg', 200, /^image\/svg\+xml/],
		['/assets/no-such-file.js', 404, /./],
		['/assets/', 404, /./],
		['/api/no-such-endpoint', 404, /^application\/json/],
		['/no-such-file.png', 404, /./],
		['/healthz', 200, /^application\/json/, /"ok"/],
	]
	for (const [path, status, type, body] of files) {
		const response = await request.get(path, { maxRedirects: 0 })
		expect(response.status(), `GET ${path}`).toBe(status)
		expect(response.headers()['content-type'] ?? '', `Content-Type of ${path}`).toMatch(type)
		if (body) expect(await response.text(), `body of ${path}`).toMatch(body)
	}
})

test('built assets are served with long-lived caching', async ({ page, request }) => {
	await page.goto('/home')
	const stylesheet = await page.locator('link[rel=stylesheet]').first().getAttribute('href')
	expect(stylesheet).toMatch(/^\/assets\/.+\.css$/)
	const response = await request.get(stylesheet ?? '', { maxRedirects: 0 })
	expect(response.status()).toBe(200)
	expect(response.headers()['content-type']).toMatch(/^text\/css/)
	expect(response.headers()['cache-control']).toContain('immutable')
})
