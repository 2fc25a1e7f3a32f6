// The HTTP surface as a browser or a crawler meets it: real sockets, the production build.

import { SaxesParser } from 'saxes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saveArticle } from '#app/features/articles/articles.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'

let app: TestApp

beforeAll(async () => {
	app = await startTestApp()
})

afterAll(async () => {
	await app?.close()
})

/** Every element of an XML document, in order, parsed by a conforming parser (it throws on any error). */
function elements(xml: string) {
	const found: { name: string; attributes: Record<string, string>; text: string }[] = []
	const open: (typeof found)[number][] = []
	const parser = new SaxesParser()
	parser.on('error', (error) => {
		throw error
	})
	parser.on('opentag', (tag) => {
		const element = {
			name: tag.name,
			attributes: tag.attributes as Record<string, string>,
			text: '',
		}
		found.push(element)
		open.push(element)
	})
	parser.on('text', (text) => {
		const current = open.at(-1)
		if (current) current.text += text
	})
	parser.on('cdata', (text) => {
		const current = open.at(-1)
		if (current) current.text += text
	})
	parser.on('closetag', () => {
		open.pop()
	})
	parser.write(xml).close()
	return found
}

const get = (path: string, init?: RequestInit) =>
	fetch(`${app.url}${path}`, { redirect: 'manual', ...init })

function expectSecurityHeaders(response: Response) {
	expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
	expect(response.headers.get('x-content-type-options')).toBe('nosniff')
	expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
}

describe('routes', () => {
	it.each([
		['/', 200, 'Latest articles'],
		['/home', 200, 'Latest articles'],
		['/articles', 200, 'What We Throw Away'],
		['/articles/the-living-ground', 200, 'The Living Ground'],
		['/contact', 200, 'hello@example.org'],
	])('%s answers %i with the page', async (path, status, text) => {
		const response = await get(path)
		expect(response.status).toBe(status)
		expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
		expect(await response.text()).toContain(text)
	})

	it.each([
		'/articles/no-such-article',
		'/articles/NOT%20a%20slug',
		'/articles/a/b',
		'/tags/soil/page/2',
		'/authors/someone/posts',
		'/tags/',
	])('%s is a real 404 page', async (path) => {
		const response = await get(path)
		expect(response.status).toBe(404)
		const html = await response.text()
		expect(html).toContain('Page not found')
		expect(html).toContain('<meta name="robots" content="noindex"/>')
	})

	it('hides drafts behind the same 404', async () => {
		await saveArticle(app.storage, { title: 'Unfinished draft', body: 'Not yet.' }, 'draft')
		expect((await get('/articles/unfinished-draft')).status).toBe(404)
	})

	it.each(['/nowhere', '/about/team', '/home/extra'])('%s redirects (302) home', async (path) => {
		const response = await get(path)
		expect(response.status).toBe(302)
		expect(response.headers.get('location')).toBe('/home')
		expectSecurityHeaders(response)
	})

	it.each([
		['/robots.txt', 200, 'text/plain'],
		['/manifest.webmanifest', 200, 'application/manifest+json'],
		['/favicon.ico', 200, 'image/'],
		['/logo.svg', 200, 'image/svg+xml'],
		['/sitemap.xml', 200, 'application/xml'],
		['/feed.xml', 200, 'application/rss+xml'],
		['/atom.xml', 200, 'application/atom+xml'],
		['/assets/missing-chunk.js', 404, 'text/plain'],
		['/api/unknown', 404, 'application/json'],
		['/healthz', 200, 'application/json'],
		['/readyz', 200, 'application/json'],
	])('%s answers for itself (%i)', async (path, status, type) => {
		const response = await get(path)
		expect(response.status).toBe(status)
		expect(response.headers.get('content-type')).toContain(type)
		expectSecurityHeaders(response)
	})

	it('serves hashed assets with immutable caching', async () => {
		const html = await (await get('/home')).text()
		const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1]
		expect(asset).toBeDefined()
		const response = await get(asset ?? '')
		expect(response.status).toBe(200)
		expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
	})
})

describe('reader features', () => {
	it('ends an article with the ones published just before and after it', async () => {
		const html = (await (await get('/articles/the-living-ground')).text()).replaceAll(
			'<!-- -->',
			'',
		)
		const onward =
			/<nav class="read-on" aria-label="More articles">.*?<\/nav>/s.exec(html)?.[0] ?? ''
		expect(onward).toMatch(
			/href="\/articles\/oceans-heat-acid-and-overfishing"[^>]*><span class="read-on-label">Older<\/span> Oceans Under Pressure/,
		)
		expect(onward).toMatch(
			/href="\/articles\/solar-wind-and-efficiency"[^>]*><span class="read-on-label">Newer<\/span> Solar and Wind/,
		)
		// The newest has only an older one.
		const newest = await (await get('/articles/what-we-throw-away')).text()
		expect(newest).toContain('<span class="read-on-label">Older</span>')
		expect(newest).not.toContain('<span class="read-on-label">Newer</span>')
	})

	it('gives each page its own title, description, canonical URL and social cards', async () => {
		const html = await (await get('/articles/the-living-ground')).text()
		expect(html).toMatch(/<title>The Living Ground: [^<]+ · Preserve the Planet<\/title>/)
		expect(html).toContain(`<link rel="canonical" href="${app.url}/articles/the-living-ground"/>`)
		expect(html).toContain('<meta property="og:type" content="article"/>')
		expect(html).toContain('<meta name="twitter:card" content="summary"/>')
		expect(html).toMatch(/<meta name="description" content="FAO/)
		const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1]
		expect(JSON.parse(jsonLd ?? '{}')).toMatchObject({
			'@type': 'Article',
			headline: expect.stringContaining('The Living Ground'),
			author: [
				{ '@type': 'Person', name: 'Elena Kowalski', url: `${app.url}/authors/elena-kowalski` },
			],
			datePublished: '2026-10-15T08:00:00.000Z',
		})
		const contact = await (await get('/contact')).text()
		expect(contact).toContain('<title>Contact · Preserve the Planet</title>')
		expect(contact).toContain(`<link rel="canonical" href="${app.url}/contact"/>`)
	})

	it('lists every published article in the sitemap and the feeds', async () => {
		const sitemap = await (await get('/sitemap.xml')).text()
		// Home, articles, contact; six articles; their 15 tags and 6 authors.
		expect(sitemap.match(/<url>/g)).toHaveLength(3 + 6 + 15 + 6)
		expect(sitemap).toContain(`<loc>${app.url}/tags/climate</loc>`)
		expect(sitemap).toContain(`<loc>${app.url}/authors/elena-kowalski</loc>`)
		expect(sitemap).toContain(`<loc>${app.url}/articles/half-a-degree-matters</loc>`)
		const rss = await (await get('/feed.xml')).text()
		expect(rss).toContain('<rss version="2.0"')
		expect(rss.match(/<item>/g)).toHaveLength(6)
		const atom = await (await get('/atom.xml')).text()
		expect(atom).toContain('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">')
		expect(atom.match(/<entry>/g)).toHaveLength(6)
		expect(atom.match(/<id>tag:127\.0\.0\.1,\d{4}-\d{2}-\d{2}:article\/\d+<\/id>/g)).toHaveLength(6)
		const robots = await (await get('/robots.txt')).text()
		expect(robots).toContain(`Sitemap: ${app.url}/sitemap.xml`)
	})

	it('writes feeds a validator accepts: authors as names, categories with terms, a PNG logo only', async () => {
		const rss = elements(await (await get('/feed.xml')).text())
		const atom = elements(await (await get('/atom.xml')).text())
		// RSS's <author> must be an email address: the names are Dublin Core creators.
		expect(rss.filter((element) => element.name === 'author')).toEqual([])
		const creators = rss.filter((element) => element.name === 'dc:creator')
		expect(creators.length).toBeGreaterThanOrEqual(6)
		expect(creators.map((element) => element.text)).toContain('Elena Kowalski')
		expect(rss.find((element) => element.name === 'rss')?.attributes['xmlns:dc']).toBe(
			'http://purl.org/dc/elements/1.1/',
		)
		for (const element of rss.filter((element) => element.name === 'guid'))
			expect(element.attributes.isPermaLink).toBe('false')
		// The seed's logo is an SVG, which RSS 2.0 does not allow as the channel's image.
		expect(rss.filter((element) => element.name === 'image')).toEqual([])
		// Atom: every category has the term RFC 4287 requires; authors are named.
		const categories = atom.filter((element) => element.name === 'category')
		expect(categories.length).toBeGreaterThanOrEqual(15)
		for (const category of categories) expect(category.attributes.term).toMatch(/\S/)
		expect(
			atom.filter((element) => element.name === 'name').map((element) => element.text),
		).toContain('Elena Kowalski')
		expect(atom.find((element) => element.name === 'logo')?.text).toBe(`${app.url}/logo.svg`)
	})

	it('names the site in its web app manifest, linked from every public page', async () => {
		const home = await (await get('/home')).text()
		expect(home).toMatch(/<link [^>]*rel="manifest" href="\/manifest.webmanifest"\/>/)
		const manifest = await (await get('/manifest.webmanifest')).json()
		expect(manifest).toEqual({
			name: 'Preserve the Planet',
			description: expect.stringContaining('climate'),
			id: '/home',
			start_url: '/home',
			scope: '/',
			// What Safari asks of a site before it offers Web Push on iOS.
			display: 'standalone',
			background_color: '#ffffff',
			theme_color: '#000000',
			icons: [
				{ src: '/apple-touch-icon.png', sizes: '180x180', type: 'image/png' },
				{ src: '/logo.svg', sizes: 'any', type: 'image/svg+xml' },
			],
		})
		for (const { src, type } of manifest.icons) {
			const icon = await get(src)
			expect(icon.status, src).toBe(200)
			expect(icon.headers.get('content-type')).toContain(type)
		}
	})

	it('pages the article list with a cursor link', async () => {
		for (let i = 1; i <= 6; i++) {
			await saveArticle(
				app.storage,
				{ title: `Paging test ${i}`, body: 'x', publishedAt: `2025-01-0${i}T00:00:00Z` },
				'published',
			)
		}
		const first = await (await get('/articles')).text()
		const next = /href="(\/articles\?cursor=[^"]+)"[^>]*>Older articles/.exec(first)?.[1]
		expect(next).toBeDefined()
		const second = await (await get((next ?? '').replaceAll('&amp;', '&'))).text()
		expect(second).toContain('Paging test 1')
		expect(second).not.toContain('What We Throw Away')
		expect(second).toContain('Newest articles')
	})

	it('shows a newly published article on the next load despite the page cache', async () => {
		expect(await (await get('/articles')).text()).not.toContain('Mangroves are back')
		await saveArticle(app.storage, { title: 'Mangroves are back', body: 'Good news.' }, 'published')
		await expect
			.poll(async () => (await get('/articles')).text(), { timeout: 2_000 })
			.toContain('Mangroves are back')
		await expect
			.poll(async () => (await get('/home')).text(), { timeout: 2_000 })
			.toContain('Mangroves are back')
	})
})

describe('security baseline', () => {
	it('sends a fresh CSP nonce with every page, cached or not, matching every script', async () => {
		const nonces = new Set<string>()
		for (let i = 0; i < 3; i++) {
			const response = await get('/articles')
			const csp = response.headers.get('content-security-policy') ?? ''
			const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? ''
			expect(csp).toContain("'strict-dynamic'")
			const html = await response.text()
			const scriptNonces = [...html.matchAll(/<script nonce="([^"]+)"/g)].map((match) => match[1])
			expect(scriptNonces.length).toBeGreaterThan(0)
			expect(new Set(scriptNonces)).toEqual(new Set([nonce]))
			expect(html).not.toMatch(/<script(?![^>]*nonce=)(?![^>]*application\/ld\+json)[^>]*>/)
			nonces.add(nonce)
		}
		expect(nonces.size).toBe(3)
	})

	it('serves a cached page gzipped with a fresh nonce, the same page as when rendered', async () => {
		const withoutNonce = (html: string) => html.replaceAll(/nonce="[^"]+"/g, 'nonce=""')
		const pages: string[] = []
		for (const encoding of ['identity', 'gzip', 'gzip']) {
			const response = await get('/articles/half-a-degree-matters', {
				headers: { 'Accept-Encoding': encoding },
			})
			expect(response.headers.get('content-encoding')).toBe(encoding === 'gzip' ? 'gzip' : null)
			expectSecurityHeaders(response)
			const nonce = /'nonce-([^']+)'/.exec(
				response.headers.get('content-security-policy') ?? '',
			)?.[1]
			const html = await response.text()
			expect(html).toContain(`<script nonce="${nonce}"`)
			pages.push(withoutNonce(html))
		}
		expect(new Set(pages).size).toBe(1)
	})

	it('sends assets precompressed, brotli first', async () => {
		const html = await (await get('/home')).text()
		// React and React Router: the largest file every page loads.
		const script = /href="(\/assets\/framework-[^"]+\.js)"/.exec(html)?.[1] ?? ''
		const plain = await get(script, { headers: { 'Accept-Encoding': 'identity' } })
		const brotli = await get(script, { headers: { 'Accept-Encoding': 'gzip, br' } })
		expect(brotli.headers.get('content-encoding')).toBe('br')
		expect(Number(brotli.headers.get('content-length'))).toBeLessThan(
			Number(plain.headers.get('content-length')) / 3,
		)
		expect(await brotli.text()).toBe(await plain.text())
	})

	it('refuses a mutation from another site', async () => {
		const response = await get('/articles', {
			method: 'POST',
			headers: { Origin: 'https://evil.example' },
			body: 'x=1',
		})
		expect(response.status).toBe(403)
		expect(await response.json()).toEqual({
			error: 'This request came from another site and was refused.',
			reason: 'cross-site',
		})
		expectSecurityHeaders(response)
	})

	it('refuses a body over the cap with 413', async () => {
		const response = await get('/articles', {
			method: 'POST',
			headers: { Origin: app.url },
			body: 'x'.repeat(100_000),
		})
		expect(response.status).toBe(413)
		expect((await response.json()).error).toContain('larger than 64 KB')
	})

	it('answers a POST to a page without a form with 405, not a crash', async () => {
		const response = await get('/articles', {
			method: 'POST',
			headers: { Origin: app.url },
			body: 'x=1',
		})
		expect(response.status).toBe(405)
		expect(app.errors()).toEqual([])
	})

	it('logs each request as a JSON line with method, path, status and duration', async () => {
		await get('/contact')
		const entry = app.logs.findLast((line) => line.msg === 'request' && line.path === '/contact')
		expect(entry).toMatchObject({ level: 'info', method: 'GET', path: '/contact', status: 200 })
		expect(typeof entry?.durationMs).toBe('number')
	})
})

describe('when the database is gone', () => {
	it('reports not ready and shows an error page without internals', async () => {
		const broken = await startTestApp({ pageCache: false })
		try {
			await broken.storage.close()
			const ready = await fetch(`${broken.url}/readyz`)
			expect(ready.status).toBe(503)
			expect(ready.headers.get('retry-after')).toBe('5')
			expect((await fetch(`${broken.url}/healthz`)).status).toBe(200)
			const page = await fetch(`${broken.url}/articles`)
			expect(page.status).toBe(500)
			const html = await page.text()
			expect(html).toContain('Something went wrong')
			expect(html).not.toMatch(/destroyed|node_modules|\.ts:\d+|at [A-Za-z.]+ \(/)
			expectSecurityHeaders(page)
			expect(broken.errors().map((entry) => entry.msg)).toContain('request failed')
		} finally {
			await broken.close().catch(() => {})
		}
	})
})
