// Tags and authors over HTTP: an article with two tags and two authors, each a link to a page
// that lists it, with its own feed and structured data; renaming and merging a tag in the staff
// area keeps old addresses (and feeds) working with 301; an editor writes under their profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { makeAccount, postForm, signIn, teamPassword } from '#tests/fixtures/forms.ts'

describe('tags and authors', () => {
	let app: TestApp
	let admin = ''
	let editor = ''
	const get = (path: string, cookie = '') =>
		fetch(`${app.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} })
	const where = async (path: string) => {
		const response = await get(path)
		return [response.status, response.headers.get('location')]
	}
	const jsonLd = (html: string) =>
		[...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((match) =>
			JSON.parse(match[1] ?? '{}'),
		)

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		await makeAccount(app, 'ines@example.org', 'admin', 'Inês Duarte')
		await makeAccount(app, 'tomas@example.org', 'editor', 'Tomás Rey')
		;({ cookie: admin } = await signIn(app, 'ines@example.org', teamPassword))
		;({ cookie: editor } = await signIn(app, 'tomas@example.org', teamPassword))
	})
	afterAll(async () => {
		await app?.close()
	})

	it('publishes with two tags and two authors, each with a page, a feed and structured data', async () => {
		const made = await postForm(
			app,
			'/admin/articles/new',
			{
				title: 'Peat bogs hold the carbon',
				summary: 'Why wet peat matters.',
				body: 'Peat covers 3% of the land.',
				tags: 'Peatlands, Climate',
				authors: 'Inês Duarte, Guest Writer',
				intent: 'publish',
			},
			{ cookie: admin },
		)
		expect(made.status).toBe(302)
		await postForm(
			app,
			'/admin/articles/new',
			{ title: 'River day', summary: '', body: 'Clean-up.', tags: 'Rivers', intent: 'publish' },
			{ cookie: editor },
		)

		const article = await (await get('/articles/peat-bogs-hold-the-carbon')).text()
		expect(article).toContain('href="/tags/peatlands"')
		expect(article).toContain('href="/authors/ines-duarte"')
		expect(article).toContain('href="/authors/guest-writer"')
		const [articleLd] = jsonLd(article)
		expect(articleLd.author.map((person: { name: string }) => person.name)).toEqual([
			'Inês Duarte',
			'Guest Writer',
		])

		const tag = await get('/tags/peatlands')
		expect(tag.status).toBe(200)
		const tagHtml = await tag.text()
		expect(tagHtml).toContain('<h1>Peatlands</h1>')
		expect(tagHtml).toContain('Peat bogs hold the carbon')
		expect(tagHtml).not.toContain('River day')
		expect(tagHtml).toMatch(
			/<link rel="alternate" type="application\/rss\+xml"[^>]*href="[^"]*\/tags\/peatlands\/feed.xml"/,
		)
		expect(jsonLd(tagHtml)[0]).toMatchObject({ '@type': 'CollectionPage', name: 'Peatlands' })

		const feed = await get('/tags/peatlands/feed.xml')
		expect(feed.headers.get('content-type')).toContain('application/rss+xml')
		const rss = await feed.text()
		expect(rss).toContain('<title><![CDATA[Peat bogs hold the carbon]]></title>')
		expect(rss).not.toContain('River day')
		expect((await get('/tags/peatlands/atom.xml')).headers.get('content-type')).toContain('atom')

		const author = await (await get('/authors/guest-writer')).text()
		expect(author).toContain('<h1>Guest Writer</h1>')
		expect(jsonLd(author)[0]).toMatchObject({
			'@type': 'ProfilePage',
			mainEntity: { '@type': 'Person', name: 'Guest Writer' },
		})
		// The editor's article is under their own profile, made when they first wrote.
		const tomas = await (await get('/authors/tomas-rey')).text()
		expect(tomas).toContain('River day')
		expect(tomas).not.toContain('Peat bogs')
		// Each author has feeds of their own, named in the page's head and linked on it.
		expect(tomas).toMatch(
			/<link rel="alternate" type="application\/rss\+xml"[^>]*href="[^"]*\/authors\/tomas-rey\/feed.xml"/,
		)
		expect(tomas).toContain('href="/authors/tomas-rey/feed.xml"')
		const tomasFeed = await get('/authors/tomas-rey/feed.xml')
		expect(tomasFeed.headers.get('content-type')).toContain('application/rss+xml')
		const tomasRss = await tomasFeed.text()
		expect(tomasRss).toMatch(/<channel>\s*<title>(<!\[CDATA\[)?Tomás Rey · /)
		expect(tomasRss).toContain('<title><![CDATA[River day]]></title>')
		expect(tomasRss).not.toContain('Peat bogs')
		const tomasAtom = await get('/authors/tomas-rey/atom.xml')
		expect(tomasAtom.headers.get('content-type')).toContain('atom')
		expect(await tomasAtom.text()).toContain('River day')
		const noFeed = await get('/authors/nobody/feed.xml')
		expect(noFeed.status).toBe(404)
		expect(noFeed.headers.get('content-type')).toContain('text/plain')
		expect(await noFeed.text()).toBe('There is no author at this address, so no feed either.')

		expect((await get('/tags/nothing-here')).status).toBe(404)
		expect((await get('/authors/nobody')).status).toBe(404)
		// Typed with capitals: the address in lower case, the only case Canopy makes addresses in.
		expect(await where('/tags/Climate?cursor=x')).toEqual([301, '/tags/climate?cursor=x'])
		expect(await where('/Authors/Tomas-Rey/feed.xml')).toEqual([301, '/authors/tomas-rey/feed.xml'])
		expect(await where('/articles/River-Day')).toEqual([301, '/articles/river-day'])
		expect((await get('/tags/Nothing-Here')).status).toBe(404)
	})

	it('renames and merges a tag in the staff area; old addresses and feeds answer 301', async () => {
		/** The tag form saved as an editor, its other fields empty. */
		const saveTag = (id: number, edit: Record<string, string>) =>
			postForm(
				app,
				`/admin/tags/${id}`,
				{ intent: 'save', description: '', coverImageUrl: '', coverImageAlt: '', ...edit },
				{ cookie: editor },
			)
		const climate = await app.storage.tags.findBySlug('climate')
		if (!climate) throw new Error('no tag')
		const refused = await saveTag(climate.id, { name: 'Climate', slug: 'Not A Slug!' })
		expect(refused.status).toBe(400)
		expect(await refused.text()).toContain('Use lowercase letters, digits and single hyphens')

		const renamed = await saveTag(climate.id, {
			name: 'Climate crisis',
			slug: 'climate-crisis',
			description: 'Heat, floods and what we do about them.',
		})
		expect(renamed.status).toBe(200)
		expect(await where('/tags/climate')).toEqual([301, '/tags/climate-crisis'])
		expect(await where('/tags/climate/feed.xml')).toEqual([301, '/tags/climate-crisis/feed.xml'])
		expect(await where('/tags/CLIMATE')).toEqual([301, '/tags/climate-crisis'])
		const page = await (await get('/tags/climate-crisis')).text()
		expect(page).toContain('Heat, floods and what we do about them.')
		expect(await (await get('/articles/peat-bogs-hold-the-carbon')).text()).toContain(
			'>Climate crisis</a>',
		)

		const peatlands = await app.storage.tags.findBySlug('peatlands')
		if (!peatlands) throw new Error('no tag')
		// Another tag's name, in any case, is refused: an article's Tags field finds tags by name.
		const namesake = await saveTag(peatlands.id, { name: ' climate CRISIS ', slug: peatlands.slug })
		expect(namesake.status).toBe(400)
		expect(await namesake.text()).toContain('Another tag has this name. Merge into it instead')
		expect((await app.storage.tags.findById(peatlands.id))?.name).toBe(peatlands.name)
		const merged = await postForm(
			app,
			`/admin/tags/${peatlands.id}`,
			{ intent: 'merge', into: String(climate.id) },
			{ cookie: editor },
		)
		expect(merged.status).toBe(302)
		// The merged tag's page says what happened, once (the name rides in the address).
		const to = merged.headers.get('location') ?? ''
		expect(to).toBe(`/admin/tags/${climate.id}?merged=${encodeURIComponent(peatlands.name)}`)
		expect(await (await get(to, editor)).text()).toContain(
			`“${peatlands.name}” is merged into this tag`,
		)
		expect(await where('/tags/peatlands')).toEqual([301, '/tags/climate-crisis'])
		expect((await app.storage.tags.findById(climate.id))?.articles).toBe(1)

		const gone = await postForm(
			app,
			`/admin/tags/${climate.id}`,
			{ intent: 'delete' },
			{ cookie: editor },
		)
		expect(gone.status).toBe(302)
		const list = gone.headers.get('location') ?? ''
		expect(list).toMatch(/^\/admin\/tags\?deleted=/)
		expect(await (await get(list, editor)).text()).toMatch(
			/The tag “[^”]+” is deleted: its articles no longer show it\./,
		)
	})

	it('lets an editor change their own profile only; an admin any', async () => {
		const tomas = await app.storage.authors.findBySlug('tomas-rey')
		const guest = await app.storage.authors.findBySlug('guest-writer')
		if (!tomas || !guest) throw new Error('no profiles')
		const profile = { intent: 'save', bio: 'Rivers and their people.', avatarUrl: '', website: '' }
		const own = await postForm(
			app,
			`/admin/authors/${tomas.id}`,
			{ ...profile, name: 'Tomás Rey', slug: 'tomas' },
			{ cookie: editor },
		)
		expect(own.status).toBe(200)
		expect(await where('/authors/tomas-rey')).toEqual([301, '/authors/tomas'])
		expect(await (await get('/authors/tomas')).text()).toContain('Rivers and their people.')
		const other = await postForm(
			app,
			`/admin/authors/${guest.id}`,
			{ ...profile, name: 'Someone else', slug: 'guest-writer' },
			{ cookie: editor },
		)
		expect(other.status).toBe(403)
		const byAdmin = await postForm(
			app,
			`/admin/authors/${guest.id}`,
			{ ...profile, name: 'Guest Writer', slug: 'guest-writer', website: 'https://example.org' },
			{ cookie: admin },
		)
		expect(byAdmin.status).toBe(200)
		expect(await (await get('/authors/guest-writer')).text()).toContain(
			'href="https://example.org"',
		)
	})
})
