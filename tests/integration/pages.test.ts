// Pages over HTTP, as an editor without JavaScript makes them and a reader finds them: About at
// /about, never among the articles, the feeds or the push notices; the site's own addresses
// refused; any other address still goes home.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { makeAccount, postForm, signIn, teamPassword } from '#tests/fixtures/forms.ts'

describe('pages', () => {
	let app: TestApp
	let cookie = ''
	const post = (path: string, fields: Record<string, string>) =>
		postForm(app, path, fields, { cookie })
	const get = (path: string, withCookie = false) =>
		fetch(`${app.url}${path}`, {
			redirect: 'manual',
			headers: withCookie ? { Cookie: cookie } : {},
		})

	async function newPage(fields: Record<string, string>) {
		const response = await post('/admin/pages/new', {
			summary: '',
			body: 'Text.',
			intent: 'publish',
			...fields,
		})
		return response
	}

	beforeAll(async () => {
		app = await startTestApp({ seed: true })
		await makeAccount(app, 'lena@example.org', 'editor', 'Lena Berg')
		;({ cookie } = await signIn(app, 'lena@example.org', teamPassword))
		// A reader subscribed to push notices: an article reaches them, a page never.
		await app.storage.push.saveSubscription(
			{
				endpoint: 'https://push.example.org/send/reader-1',
				p256dh:
					'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
				auth: 'tBHItJI5svbpez7KI4CCXg',
				expirationTime: null,
			},
			new Date(),
		)
	})
	afterAll(async () => {
		await app?.close()
	})

	it('publishes an About page at /about, out of the article list, the feeds and the stream', async () => {
		const since = await app.storage.changes.latestId()
		const response = await newPage({
			title: 'About us',
			slug: 'about',
			summary: 'Who we are and what we do.',
			body: 'We are volunteers who **count birds**.',
			tags: 'ignored, for, pages',
		})
		expect(response.status).toBe(302)
		const id = Number(
			/\/admin\/articles\/(\d+)\?saved=publish$/.exec(response.headers.get('location') ?? '')?.[1],
		)
		const stored = await app.storage.articles.findById(id)
		expect(stored).toMatchObject({
			kind: 'page',
			slug: 'about',
			status: 'published',
			tags: [],
			notify: false,
		})

		const page = await get('/about')
		expect(page.status).toBe(200)
		const html = await page.text()
		expect(html).toContain('<h1>About us</h1>')
		expect(html).toContain('We are volunteers who <strong>count birds</strong>.')
		expect(html).toContain(`<link rel="canonical" href="${app.url}/about"/>`)
		expect(html).toContain('"@type":"WebPage"')
		// Typed with a capital, as on a printed leaflet: the page's own address.
		const typed = await get('/About?from=leaflet')
		expect([typed.status, typed.headers.get('location')]).toEqual([301, '/about?from=leaflet'])

		expect(await (await get('/articles')).text()).not.toContain('About us')
		expect(await (await get('/home')).text()).not.toContain('About us')
		expect(await (await get('/feed.xml')).text()).not.toContain('About us')
		expect(await (await get('/sitemap.xml')).text()).toContain(`<loc>${app.url}/about</loc>`)
		// Not an article: /articles/about is not it.
		expect((await get('/articles/about')).status).toBe(404)
		// On the feed as a page's change, which the articles' stream does not carry.
		const changes = await app.storage.changes.after(since, 10)
		expect(changes.map((change) => [change.topic, change.entityId])).toEqual([
			['pages', String(id)],
		])
		const article = await post('/admin/articles/new', {
			title: 'Herons are back',
			summary: '',
			body: 'Text.',
			intent: 'publish',
		})
		const articleId = Number(
			/\/admin\/articles\/(\d+)/.exec(article.headers.get('location') ?? '')?.[1],
		)
		expect((await app.storage.push.resultsByArticle([articleId])).get(articleId)?.pending).toBe(1)
		expect((await app.storage.push.resultsByArticle([id])).get(id)).toEqual({
			pending: 0,
			sent: 0,
			gone: 0,
			failed: 0,
			cancelled: 0,
		})

		// Its editor says nothing of push notices; the article's does.
		const editor = await (await get(`/admin/articles/${id}`, true)).text()
		expect(editor).toContain('Edit “<bdi>About us</bdi>”')
		expect(editor).not.toContain('Push notices')
		// The sidebar marks Pages there, not Articles, though the address is /admin/articles/….
		const sidebarLink = (html: string, href: string) =>
			new RegExp(`<a [^>]*href="${href}"[^>]*>`).exec(html)?.[0] ?? ''
		expect(sidebarLink(editor, '/admin/pages')).toContain('aria-current="page"')
		expect(sidebarLink(editor, '/admin/articles')).not.toContain('aria-current')
		const articleEditor = await (await get(`/admin/articles/${articleId}`, true)).text()
		expect(articleEditor).toContain('Push notices')
		expect(sidebarLink(articleEditor, '/admin/articles')).toContain('aria-current="page"')
		expect(sidebarLink(articleEditor, '/admin/pages')).not.toContain('aria-current')

		const list = await (await get('/admin/pages', true)).text()
		expect(list).toContain('About us')
		expect(list).toContain('/about')
		expect(await (await get('/admin/articles', true)).text()).not.toContain('About us')
	})

	it('refuses the site’s own addresses and a slug an article holds, in words', async () => {
		for (const slug of ['contact', 'articles', 'admin', 'tags', 'search']) {
			const response = await newPage({ title: 'Contact us', slug })
			expect(response.status, slug).toBe(400)
			expect(await response.text()).toContain(`is one of the site’s own addresses (/${slug})`)
		}
		// Told with every other field to fix, in one answer: not one save after another.
		const together = await newPage({
			title: 'Contact us',
			slug: 'contact',
			body: '![](/media/a.png)',
		})
		expect(together.status).toBe(400)
		const told = await together.text()
		expect(told).toContain('is one of the site’s own addresses (/contact)')
		expect(told).toContain('An image in the text has no description')
		const withRules = await newPage({ title: '', slug: 'search', body: '![](/media/a.png)' })
		const allTold = await withRules.text()
		expect(allTold).toContain('Give the article a title.')
		expect(allTold).toContain('is one of the site’s own addresses (/search)')
		expect(allTold).toContain('An image in the text has no description')
		// A page titled as one of them, its address left to the title, is saved beside it.
		for (const title of ['Search', 'Contact']) {
			const draft = await newPage({ title, intent: 'draft' })
			expect(draft.status, title).toBe(302)
			const page = await app.storage.articles.findBySlug(`${title.toLowerCase()}-page`)
			expect(page?.kind, title).toBe('page')
		}
		const taken = await newPage({ title: 'Half a degree', slug: 'half-a-degree-matters' })
		expect(taken.status).toBe(400)
		expect(await taken.text()).toContain('Another article or page already uses this address.')
	})

	it('keeps a draft page from readers, and every unknown address still goes home', async () => {
		const response = await newPage({ title: 'Donate', slug: 'donate', intent: 'draft' })
		expect(response.status).toBe(302)
		const draft = await get('/donate')
		expect([draft.status, draft.headers.get('location')]).toEqual([302, '/home'])
		const unknown = await get('/no-such-page')
		expect([unknown.status, unknown.headers.get('location')]).toEqual([302, '/home'])
		expect((await get('/Not_A_Slug')).status).toBe(302)
		// A file nothing answers is a real 404, as before.
		expect((await get('/missing-icon.png')).status).toBe(404)
		// /About is the About page's address in capitals (above); a redirect from that very address
		// still wins over it.
		await app.storage.redirects.put({ from: '/About', to: '/about-us', status: 301 })
		const redirected = await get('/About')
		expect([redirected.status, redirected.headers.get('location')]).toEqual([301, '/about-us'])
		expect(await app.storage.redirects.delete('/About')).toBe(true)
		// One leading to a capitalised form of its own address is not followed back to itself.
		await app.storage.redirects.put({ from: '/old-news', to: '/Old-News', status: 301 })
		const back = await get('/Old-News')
		expect([back.status, back.headers.get('location')]).toEqual([302, '/home'])
		expect(await app.storage.redirects.delete('/old-news')).toBe(true)
	})
})
