// Redirects over HTTP: a renamed article's and page's old address answers 301 (query kept), an
// admin's own redirects work and are refused in words when wrong, and content always wins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { makeAccount, postForm, signIn, teamPassword } from '#tests/fixtures/forms.ts'

describe('redirects', () => {
	let app: TestApp
	let cookie = ''
	const post = (path: string, fields: Record<string, string>) =>
		postForm(app, path, fields, { cookie })
	const get = (path: string) => fetch(`${app.url}${path}`, { redirect: 'manual' })
	const where = async (path: string) => {
		const response = await get(path)
		return [response.status, response.headers.get('location')]
	}

	const addRedirect = (from: string, to: string, status = '301') =>
		post('/admin/redirects', { intent: 'add', from, to, status })
	/** A redirect from `from` is refused, in these words, and nothing is kept. */
	async function refusedFrom(from: string, words: string) {
		const response = await addRedirect(from, '/home')
		expect(response.status, from).toBe(400)
		expect(await response.text(), from).toContain(words)
		expect(await app.storage.redirects.find(from.replace(/\/$/, '')), from).toBeUndefined()
	}

	async function publish(path: string, fields: Record<string, string>) {
		const made = await post(path, { summary: '', body: 'Text.', intent: 'publish', ...fields })
		expect(made.status).toBe(302)
		return Number(/\/admin\/articles\/(\d+)/.exec(made.headers.get('location') ?? '')?.[1])
	}

	async function rename(id: number, fields: Record<string, string>) {
		const current = await app.storage.articles.findById(id)
		const saved = await post(`/admin/articles/${id}`, {
			title: current?.title ?? '',
			summary: '',
			body: 'Text.',
			intent: 'publish',
			version: String(current?.version),
			...fields,
		})
		expect(saved.status).toBeLessThan(400)
	}

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		await makeAccount(app, 'ines@example.org', 'admin', 'Inês Duarte')
		;({ cookie } = await signIn(app, 'ines@example.org', teamPassword))
	})
	afterAll(async () => {
		await app?.close()
	})

	it('sends a renamed article’s and page’s old address to the new one with 301, keeping the query', async () => {
		const article = await publish('/admin/articles/new', {
			title: 'Heron count',
			slug: 'heron-count',
		})
		await rename(article, { slug: 'heron-count-2026' })
		expect(await where('/articles/heron-count')).toEqual([301, '/articles/heron-count-2026'])
		expect(await where('/articles/heron-count?utm_source=mail')).toEqual([
			301,
			'/articles/heron-count-2026?utm_source=mail',
		])
		expect((await get('/articles/heron-count-2026')).status).toBe(200)
		// Kept by the page cache (and browsers, for five minutes): the next reader's 301 is
		// answered before any rendering, with nothing read from the database.
		const again = await get('/articles/heron-count')
		expect(again.headers.get('cache-control')).toBe('public, max-age=300')
		expect(again.headers.get('vary')).toBe('Accept-Encoding')
		// Renamed again: the first address goes straight to the last.
		await rename(article, { slug: 'herons' })
		expect(await where('/articles/heron-count')).toEqual([301, '/articles/herons'])

		const page = await publish('/admin/pages/new', { title: 'About', slug: 'about' })
		await rename(page, { slug: 'about-us' })
		expect(await where('/about')).toEqual([301, '/about-us'])
		expect(await where('/about/')).toEqual([301, '/about-us'])
	})

	it('keeps a renamed article’s feed entry: the same id in RSS and Atom, the new link', async () => {
		const article = await publish('/admin/articles/new', {
			title: 'Otter survey',
			slug: 'otter-survey',
		})
		const entryIds = async () => {
			const rss = await (await get('/feed.xml')).text()
			const atom = await (await get('/atom.xml')).text()
			const item = rss.split('<item>').find((text) => text.includes('Otter survey')) ?? ''
			const entry = atom.split('<entry>').find((text) => text.includes('Otter survey')) ?? ''
			return {
				rss: /<guid isPermaLink="false">([^<]*)<\/guid>/.exec(item)?.[1],
				rssLink: /<link>([^<]*)<\/link>/.exec(item)?.[1],
				atom: /<id>([^<]*)<\/id>/.exec(entry)?.[1],
				atomLink: /<link href="([^"]*)"/.exec(entry)?.[1],
			}
		}
		const before = await entryIds()
		expect(before.rss).toMatch(/^tag:127\.0\.0\.1,\d{4}-\d{2}-\d{2}:article\/\d+$/)
		expect(before.atom).toBe(before.rss)
		expect(before.rssLink).toBe(`${app.url}/articles/otter-survey`)
		await rename(article, { slug: 'otters-2026' })
		const after = await entryIds()
		expect(after.rss).toBe(before.rss)
		expect(after.atom).toBe(before.atom)
		expect(after.rssLink).toBe(`${app.url}/articles/otters-2026`)
		expect(after.atomLink).toBe(`${app.url}/articles/otters-2026`)
	})

	it('follows an admin’s redirect where the site has nothing, and never over content', async () => {
		/** An admin's temporary redirect, added through the form: what the page then says. */
		const addRedirect = async (from: string, to: string) => {
			const added = await post('/admin/redirects', { intent: 'add', from, to, status: '302' })
			expect(added.status).toBe(200)
			return added.text()
		}
		const told = await addRedirect('/blog/2019/05/heron-count/', '/articles/herons')
		expect(told).toContain('/blog/2019/05/heron-count now goes to /articles/herons.')
		expect(told).not.toContain('Nothing is published')
		// To an address with nothing at it yet: kept, and said.
		expect(await addRedirect('/plans', '/articles/plans-for-2027?from=old#start')).toContain(
			'/plans now goes to /articles/plans-for-2027?from=old#start. Nothing is published at /articles/plans-for-2027?from=old#start yet',
		)
		expect(await where('/plans')).toEqual([302, '/articles/plans-for-2027?from=old#start'])
		await post('/admin/redirects', { intent: 'delete', from: '/plans' })
		expect(await where('/blog/2019/05/heron-count')).toEqual([302, '/articles/herons'])
		expect(await where('/blog/2019/05/heron-count/')).toEqual([302, '/articles/herons'])

		// The site's own address: refused in words, as it would never be followed.
		await refusedFrom(
			'/contact',
			'/contact is one of the site’s own addresses: a redirect from it would never be followed.',
		)
		expect((await get('/contact')).status).toBe(200)

		const list = await (
			await fetch(`${app.url}/admin/redirects`, { headers: { Cookie: cookie } })
		).text()
		expect(list).toContain('recorded when the address changed')
		expect(list).toContain('added by an admin')

		const deleted = await post('/admin/redirects', {
			intent: 'delete',
			from: '/blog/2019/05/heron-count',
		})
		expect(deleted.status).toBe(200)
		expect(await where('/blog/2019/05/heron-count')).toEqual([302, '/home'])
		// Deleted at once, with Undo: a form that puts back the same redirect, kind and all.
		const undo = /<form[^>]*>(?:(?!<\/form>).)*?>Undo<\/button><\/form>/s.exec(
			await deleted.text(),
		)?.[0]
		const fields = Object.fromEntries(
			[...(undo ?? '').matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [
				name,
				value?.replaceAll('&amp;', '&'),
			]),
		)
		expect(fields).toEqual({
			intent: 'add',
			from: '/blog/2019/05/heron-count',
			to: '/articles/herons',
			status: '302',
		})
		expect((await post('/admin/redirects', fields)).status).toBe(200)
		expect(await where('/blog/2019/05/heron-count')).toEqual([302, '/articles/herons'])
	})

	it('refuses a redirect from an address that shows content, and keeps the renames’ redirects to it', async () => {
		const article = await publish('/admin/articles/new', {
			title: 'Marsh field report',
			slug: 'restoring-the-marsh',
		})
		await rename(article, { slug: 'marsh-field-report' })
		await refusedFrom(
			'/articles/marsh-field-report/',
			'/articles/marsh-field-report shows the article “Marsh field report”, so readers get the article, not a redirect.',
		)
		// Nothing changed: the article is read at its address, and its old one still leads to it.
		expect((await get('/articles/marsh-field-report')).status).toBe(200)
		expect(await where('/articles/restoring-the-marsh')).toEqual([
			301,
			'/articles/marsh-field-report',
		])

		const page = await publish('/admin/pages/new', { title: 'Donate', slug: 'donate' })
		expect(page).toBeGreaterThan(0)
		await refusedFrom('/donate', '/donate shows the page “Donate”')
		await refusedFrom('/admin/articles', '/admin/articles is one of the site’s own addresses')
		// An unpublished draft's address shows nothing yet: a redirect from it is followed.
		const draft = await post('/admin/articles/new', {
			title: 'Draft',
			slug: 'draft-notes',
			summary: '',
			body: 'Text.',
			intent: 'draft',
		})
		expect(draft.status).toBe(302)
		expect((await addRedirect('/articles/draft-notes', '/home', '302')).status).toBe(200)
		expect(await where('/articles/draft-notes')).toEqual([302, '/home'])
	})

	it('refuses a wrong redirect in words: no leading slash, a script address, a loop', async () => {
		const refused = async (fields: Record<string, string>, words: string) => {
			const response = await post('/admin/redirects', { intent: 'add', status: '301', ...fields })
			expect(response.status).toBe(400)
			expect(await response.text()).toContain(words)
		}
		await refused({ from: 'old-post', to: '/articles/herons' }, 'Start with / and leave out spaces')
		await refused(
			{ from: '/x', to: 'javascript:alert(1)' },
			'Give an address of this site starting with /',
		)
		await refused({ from: '/x', to: 'http://example.org/' }, 'Only https:// addresses elsewhere.')
		await refused({ from: '/', to: '/articles/herons' }, 'The home address cannot be redirected.')
		await post('/admin/redirects', { intent: 'add', from: '/a', to: '/b', status: '301' })
		await refused({ from: '/b', to: '/a' }, '/a leads back to /b')
	})

	it('lets only admins manage redirects', async () => {
		await makeAccount(app, 'rui@example.org', 'editor', 'Rui Sousa')
		const editor = await signIn(app, 'rui@example.org', teamPassword)
		const page = await fetch(`${app.url}/admin/redirects`, { headers: { Cookie: editor.cookie } })
		expect(page.status).toBe(403)
	})

	it('imports a CSV of redirects (all or nothing, line by line in words) and exports them', async () => {
		const upload = (csv: string) => {
			const form = new FormData()
			form.set('intent', 'import')
			form.set('file', new File([csv], 'redirects.csv', { type: 'text/csv' }))
			return fetch(`${app.url}/admin/redirects`, {
				method: 'POST',
				redirect: 'manual',
				headers: { Origin: app.url, Cookie: cookie },
				body: form,
			})
		}
		const bad = await upload(
			'from,to,status\n/old/one,/articles/one,301\nnot a path,/x,301\n/old/two,/y,307\n',
		)
		expect(bad.status).toBe(400)
		const badPage = await bad.text()
		expect(badPage).toContain('Line 3: Start with / and leave out spaces')
		expect(badPage).toContain('Line 4: Choose permanent (301) or temporary (302).')
		expect(await app.storage.redirects.find('/old/one')).toBeUndefined()
		// Redirects with no line naming the columns, as some tools write them: said so.
		for (const csv of [
			'/old/one,/articles/one,301\n/old/two,/y,302\n',
			'/old/one,/articles/one\n',
		]) {
			const headless = await upload(csv)
			expect(headless.status).toBe(400)
			expect(await headless.text()).toContain(
				'The first line is a redirect, not the names of the columns: add a first line from,to,status above it.',
			)
		}
		// A line from an address that shows content: nothing imported, the address named.
		const shown = await upload(
			'from,to,status\n/old/one,/articles/one,301\n/articles/herons/,/home,301\n',
		)
		expect(shown.status).toBe(400)
		expect(await shown.text()).toContain(
			'Nothing was imported: the site shows something of its own at these addresses, so their redirects would never be followed: /articles/herons.',
		)
		expect(await app.storage.redirects.find('/old/one')).toBeUndefined()

		// A spreadsheet's export: a byte-order mark, quoted fields, a status left out.
		const good = await upload(
			'\uFEFFFrom,To,Status\n/old/one,/articles/one,301\n"/old/two","https://example.org/a,b",302\n/old/three,/articles,\n',
		)
		expect(good.status).toBe(200)
		expect(await good.text()).toContain('3 redirects imported.')
		expect(await where('/old/two')).toEqual([302, 'https://example.org/a,b'])
		expect(await where('/old/three')).toEqual([301, '/articles'])

		const csv = await fetch(`${app.url}/admin/redirects/export`, { headers: { Cookie: cookie } })
		expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		const lines = (await csv.text()).trim().split('\n')
		expect(lines[0]).toBe('from,to,status,kind')
		expect(lines).toContain('/old/two,"https://example.org/a,b",302,admin')
		// Its kind comes back with it: one Canopy recorded stays Canopy's, an admin's an admin's.
		const kinds = await upload(
			'from,to,status,kind\n/old/four,/articles,301,rename\n/old/two,/y,302,admin\n',
		)
		expect(kinds.status).toBe(200)
		expect((await app.storage.redirects.find('/old/four'))?.automatic).toBe(true)
		expect((await app.storage.redirects.find('/old/two'))?.automatic).toBe(false)
		const exportedAgain = await fetch(`${app.url}/admin/redirects/export`, {
			headers: { Cookie: cookie },
		})
		expect((await exportedAgain.text()).split('\n')).toContain('/old/four,/articles,301,rename')
		// Readers cannot download it.
		expect((await get('/admin/redirects/export')).status).toBe(302)
	})
})
