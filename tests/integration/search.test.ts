// /search over HTTP, as a browser without JavaScript uses it, on both databases: published
// articles and pages found and their words marked, drafts never; every kind of odd input answered
// in words with no 500; a limit per address with Retry-After; the OpenSearch description; the
// titles suggested as a reader types.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases } from '#tests/fixtures/storage.ts'

describe.each(databases)('search: $name', ({ name, create }) => {
	/**
	 * An address of its own for a test that runs into a limit: the limits are counted in this
	 * process's memory, which both databases' suites share (a random one collided, 1 run in 200).
	 */
	const ownAddress = (test: number) => `198.51.100.${(name === 'sqlite' ? 0 : 100) + test}`
	let app: TestApp
	let address = 0
	/** Each call from its own address, so the limit per address is a test of its own. */
	const search = (query: string, ip = `203.0.113.${++address % 250}`) =>
		fetch(`${app.url}/search?${query}`, { headers: { 'X-Forwarded-For': ip } })
	const page = async (query: string) => {
		const response = await search(query)
		return { status: response.status, html: (await response.text()).replaceAll('<!-- -->', '') }
	}

	beforeAll(async () => {
		app = await startTestApp({
			seed: false,
			database: create,
			trustProxy: '127.0.0.1',
			searchStems: {},
		})
		const write = (fields: Parameters<typeof articleWrite>[0]) =>
			app.storage.articles.create(articleWrite({ summary: '', tags: [], ...fields }))
		await write({
			slug: 'peatlands',
			title: 'Peatlands hold the carbon',
			publishedAt: '2026-10-15T09:30:00.000Z',
			bodyMarkdown: 'A **peat** bog grows a millimetre a year. <script>alert(1)</script>',
		})
		await write({
			slug: 'secret-peat',
			title: 'Peat plans, not yet public',
			bodyMarkdown: 'Draft.',
			status: 'draft',
			publishedAt: null,
		})
		await write({
			slug: 'about',
			title: 'About us',
			bodyMarkdown: 'We restore peat.',
			kind: 'page',
		})
		await write({
			slug: 'moss',
			title: 'Moss on the north side',
			bodyMarkdown: 'A long study of the mosses that grow on old trees.',
		})
		await write({
			slug: 'el-bosque',
			title: 'El bosque nublado',
			bodyMarkdown: 'Un bosque que vive de la niebla.',
			language: 'es',
		})
	})
	afterAll(async () => {
		await app?.close()
	})

	it('finds published articles and pages by a word or its start, the words marked, drafts never', async () => {
		const { status, html } = await page('q=peat')
		expect(status).toBe(200)
		expect(html).toContain('2 results for “peat”')
		expect(html).toContain('href="/articles/peatlands"')
		expect(html).toContain('href="/about"')
		expect(html).toContain('<mark>peat</mark>')
		expect(html).not.toContain('not yet public')
		expect(html).not.toContain('secret-peat')
		// The text is shown as text: nothing in an article becomes markup on this page.
		expect(html).not.toContain('<script>alert(1)')
		expect(html).toContain('<meta name="robots" content="noindex"/>')
		// Dated as the article's card and page date it.
		expect(html).toContain('<time dateTime="2026-10-15T09:30:00.000Z">October 15, 2026</time>')
		expect((await page('q=peatl')).html).toContain('1 result for “peatl”')
	})

	it('finds a word by its stem in the article’s language, once the worker has made the stems', async () => {
		// The saves woke the worker; its stems are stored shortly after.
		await vi.waitFor(async () => expect(await app.storage.search.unstemmed(10)).toEqual([]), {
			timeout: 5_000,
		})
		const studies = await page('q=studies+grow')
		expect(studies.html).toContain('1 result for “studies grow”')
		expect(studies.html).toContain('href="/articles/moss"')
		expect(studies.html).toContain('<mark>study</mark>')
		expect(studies.html).toContain('<mark>grow</mark>')
		// Spanish, in the Spanish article's own stemmer.
		const bosques = await page('q=bosques')
		expect(bosques.html).toContain('href="/articles/el-bosque"')
		expect(bosques.html).toContain('<mark>bosque</mark>')
		// Its title and words say their language, on a page in English.
		expect(bosques.html).toMatch(/<h3 lang="es" dir="ltr"><a href="\/articles\/el-bosque"/)
		expect(bosques.html).toMatch(/<p class="search-snippet" lang="es" dir="ltr">/)
		// A phrase is matched as written.
		expect((await page('q=%22long+studies%22')).html).toContain('Nothing matches')
	})

	it('answers the empty search with the form, and no-match with advice', async () => {
		const empty = await page('q=')
		expect(empty.status).toBe(200)
		expect(empty.html).toContain('name="q"')
		const none = await page('q=zebra')
		expect(none.status).toBe(200)
		expect(none.html).toContain('Nothing matches “zebra”.')
		expect(none.html).toContain('Try fewer words')
	})

	it('answers odd input in words, never with a 500', async () => {
		const cases: [string, number, string][] = [
			['x'.repeat(1_000), 400, 'Keep your search under 200 characters'],
			['!!! ??? ***', 400, 'Type a word to look for'],
			['🌿🌿', 400, 'Type a word to look for'],
			['-peat', 400, 'Type a word to look for'],
			['"unclosed peat', 200, 'result'],
			["peat'; DROP TABLE articles; --", 200, 'Nothing matches'],
			['NEAR(peat bog) AND body:"x" ^title* OR', 200, 'Nothing matches'],
			['مياه نظيفة', 200, 'Nothing matches'],
			['peat OR zebra', 200, '2 results'],
			['peat -bog', 200, '1 result'],
		]
		for (const [q, status, text] of cases) {
			const answer = await page(new URLSearchParams({ q }).toString())
			expect(answer.status, q).toBe(status)
			expect(answer.html, q).toContain(text)
		}
		expect(await app.storage.articles.count()).toBe(5)
		// A page number out of range is the last page or the first, not an error, nor a page
		// of no results with no way back.
		for (const number of ['0', '-3', 'nine', '99999999999', '5']) {
			const answer = await page(`q=peat&page=${number}`)
			expect(answer.status, number).toBe(200)
			expect(answer.html, number).toContain('<ol class="search-results"')
		}
		const past = await fetch(`${app.url}/search?q=peat&page=5`, { redirect: 'manual' })
		expect([past.status, past.headers.get('location')]).toEqual([302, '/search?q=peat'])
	})

	it('limits one address to 30 searches a minute, with Retry-After, and leaves other readers alone', async () => {
		const ip = ownAddress(1)
		for (let n = 0; n < 30; n++) expect((await search('q=peat', ip)).status).toBe(200)
		const limited = await search('q=peat', ip)
		expect(limited.status).toBe(429)
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(await limited.text()).toContain('many searches in a minute')
		expect((await search('q=peat')).status).toBe(200)
	})

	it('never keeps a search page in the page cache, and tells browsers how to search the site', async () => {
		const response = await search('q=peat')
		expect(response.headers.get('cache-control')).toBe('no-store')
		const description = await fetch(`${app.url}/opensearch.xml`)
		expect(description.headers.get('content-type')).toContain(
			'application/opensearchdescription+xml',
		)
		expect(await description.text()).toContain('/search?q={searchTerms}')
		const home = await (await fetch(`${app.url}/home`)).text()
		expect(home).toContain('rel="search"')
		expect(home).toMatch(/<form[^>]*action="\/search"/)
	})

	it('suggests published titles as a reader types, best first, and never a draft', async () => {
		const suggest = async (q: string, ip = `192.0.2.${++address % 250}`) => {
			const response = await fetch(`${app.url}/search/suggest?${new URLSearchParams({ q })}`, {
				headers: { 'X-Forwarded-For': ip },
			})
			return {
				status: response.status,
				headers: response.headers,
				body: (await response.json()) as { suggestions: { title: string; href: string }[] },
			}
		}
		const peat = await suggest('pea')
		expect(peat.status).toBe(200)
		expect(peat.headers.get('content-type')).toContain('application/json')
		expect(peat.headers.get('cache-control')).toBe('private, max-age=30')
		expect(peat.body.suggestions).toEqual([
			{ title: 'Peatlands hold the carbon', href: '/articles/peatlands', kind: 'article' },
			{ title: 'About us', href: '/about', kind: 'page' },
		])
		// Too short, signs only, a thousand characters, syntax: nothing suggested, never a 500.
		for (const q of ['p', '', '!!!', 'x'.repeat(1_000), 'NEAR(peat', "'; DROP TABLE articles"])
			expect((await suggest(q)).body.suggestions, q).toEqual([])
		// Typing is many requests: 120 a minute per address, then 429 with Retry-After.
		const ip = ownAddress(2)
		for (let n = 0; n < 120; n++) expect((await suggest('peat', ip)).status).toBe(200)
		const limited = await suggest('peat', ip)
		expect(limited.status).toBe(429)
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
		expect((await suggest('peat')).status).toBe(200)
	})
})
