// The article editor over HTTP, as a browser without JavaScript posts it: every refusal answers
// with words and the right status, and nothing is saved over a newer version.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { articleWriteOf } from '#app/features/articles/article-write.server.ts'
import { createUser } from '#app/features/auth/users.server.ts'
import { parseQuery } from '#app/features/search/search-query.ts'
import { startScheduledPublishing } from '#server/jobs/scheduled-publishing.ts'
import { createLogger } from '#server/logger.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { postForm } from '#tests/fixtures/forms.ts'

const password = 'estuary salt marsh 12'

describe('the article editor', () => {
	let app: TestApp
	let cookie = ''

	const post = (path: string, fields: Record<string, string>) =>
		postForm(app, path, fields, { cookie })
	const get = (path: string) => fetch(`${app.url}${path}`, { headers: { Cookie: cookie } })
	const fields = (overrides: Record<string, string> = {}) => ({
		title: 'Tidal flats',
		summary: 'Mud that feeds the birds.',
		body: 'Tidal flats are **rich**.',
		tags: 'coasts, birds',
		intent: 'draft',
		...overrides,
	})
	const create = async (overrides: Record<string, string> = {}) => {
		const response = await post('/admin/articles/new', fields(overrides))
		expect(response.status).toBe(302)
		const id = Number(/\/admin\/articles\/(\d+)/.exec(response.headers.get('location') ?? '')?.[1])
		expect(id).toBeGreaterThan(0)
		return id
	}

	beforeAll(async () => {
		app = await startTestApp({ seed: true, searchStems: {} })
		await createUser(app.auth, app.storage, {
			email: 'ana@example.org',
			name: 'Ana Costa',
			role: 'editor',
			password,
		})
		const signedIn = await post('/admin/sign-in', { email: 'ana@example.org', password })
		cookie = signedIn.headers
			.getSetCookie()
			.map((value) => value.split(';')[0])
			.join('; ')
		expect(cookie).toContain('session_token')
	})
	afterAll(async () => {
		await app?.close()
	})

	it('makes a new article a draft at its first autosave, its address following the title until it is published', async () => {
		const before = await app.storage.articles.count()
		const first = await post('/admin/articles/new', {
			...fields({ title: 'Reed beds', intent: 'autosave' }),
			slugFollowsTitle: '1',
		})
		// The page answers in place (no redirect): the editor goes on with the draft's id.
		expect(first.status).toBe(200)
		expect(await app.storage.articles.count()).toBe(before + 1)
		const drafts = await app.storage.articles.listForEditor({
			status: 'draft',
			query: parseQuery('Reed beds') ?? undefined,
			limit: 10,
			offset: 0,
		})
		const draft = drafts.items.find((item) => item.title === 'Reed beds')
		expect(draft?.slug).toBe('reed-beds')
		const id = draft?.id ?? 0
		const version = String((await app.storage.articles.findById(id))?.version)

		// Typed on: the same draft, its address made from the title as it now reads.
		const next = await post(`/admin/articles/${id}`, {
			...fields({ title: 'Reed beds filter water', intent: 'autosave', version }),
			slugFollowsTitle: '1',
		})
		expect(next.status).toBe(200)
		expect(await app.storage.articles.count()).toBe(before + 1)
		const renamed = await app.storage.articles.findById(id)
		expect(renamed?.slug).toBe('reed-beds-filter-water')

		// Published, the address stays whatever the title becomes; and without the editor's
		// marker (an API client, an edit page) it never follows.
		const published = await post(`/admin/articles/${id}`, {
			...fields({
				title: 'Reed beds filter water',
				intent: 'publish',
				version: String(renamed?.version),
			}),
			slugFollowsTitle: '1',
			fromNewPage: '1',
		})
		// Pressed on the new-article page, a save moves on to the draft's own page.
		expect(published.status).toBe(302)
		expect(published.headers.get('location')).toBe(`/admin/articles/${id}?saved=publish`)
		const live = await app.storage.articles.findById(id)
		expect(live?.status).toBe('published')
		await post(`/admin/articles/${id}`, {
			...fields({ title: 'Reeds clean rivers', intent: 'publish', version: String(live?.version) }),
			slugFollowsTitle: '1',
		})
		expect((await app.storage.articles.findById(id))?.slug).toBe('reed-beds-filter-water')
	})

	it('moves a draft’s address with its title on its own page too, but never one typed by hand or once published', async () => {
		const slugOf = async (id: number) => (await app.storage.articles.findById(id))?.slug
		const versionOf = async (id: number) =>
			String((await app.storage.articles.findById(id))?.version)
		// Saved from the new-article page, then edited on its own, which sends the address as shown.
		const id = await create({ title: 'First working title', slugFollowsTitle: '1' })
		expect(await slugOf(id)).toBe('first-working-title')
		const saved = await post(`/admin/articles/${id}`, {
			...fields({ title: 'Better final title', version: await versionOf(id) }),
			slug: 'first-working-title',
			slugFollowsTitle: '1',
		})
		// The edit page stays where it is (no redirect), and learns the address the title made.
		expect(saved.status).toBe(200)
		expect(await slugOf(id)).toBe('better-final-title')
		await post(`/admin/articles/${id}`, {
			...fields({ title: 'Better final title', intent: 'publish', version: await versionOf(id) }),
			slug: 'better-final-title',
			slugFollowsTitle: '1',
		})
		expect((await fetch(`${app.url}/articles/better-final-title`)).status).toBe(200)
		// Unpublished again it was published once: its address is public, and stays.
		await post(`/admin/articles/${id}`, { version: await versionOf(id), intent: 'unpublish' })
		expect((await app.storage.articles.findById(id))?.status).toBe('draft')
		await post(`/admin/articles/${id}`, {
			...fields({ title: 'Yet another title', version: await versionOf(id) }),
			slug: 'better-final-title',
			slugFollowsTitle: '1',
		})
		expect(await slugOf(id)).toBe('better-final-title')

		// An address typed by hand (one the title would not make) stays, whatever the title becomes.
		const typed = await create({ title: 'Hedgerows', slug: 'field-edges' })
		await post(`/admin/articles/${typed}`, {
			...fields({ title: 'Hedgerows and verges', version: await versionOf(typed) }),
			slug: 'field-edges',
			slugFollowsTitle: '1',
		})
		expect(await slugOf(typed)).toBe('field-edges')
		// Typed over the one the title made, in the same save: the typed one wins.
		const retyped = await create({ title: 'Verges' })
		await post(`/admin/articles/${retyped}`, {
			...fields({ title: 'Road verges', version: await versionOf(retyped) }),
			slug: 'wildflower-verges',
			slugFollowsTitle: '1',
		})
		expect(await slugOf(retyped)).toBe('wildflower-verges')
		// The title's own, numbered where the title's was taken, is still the title's.
		const first = await create({ title: 'Ponds' })
		expect(await slugOf(first)).toBe('ponds')
		const second = await create({ title: 'Ponds' })
		expect(await slugOf(second)).toBe('ponds-2')
		await post(`/admin/articles/${second}`, {
			...fields({ title: 'Pond life', version: await versionOf(second) }),
			slug: 'ponds-2',
			slugFollowsTitle: '1',
		})
		expect(await slugOf(second)).toBe('pond-life')
		// Out of the way of the tests of the editor's list, which read its first page.
		for (const made of [id, typed, retyped, first, second])
			await app.storage.articles.deleteById(made)
	})

	it('keeps words typed before any title, as an untitled draft, and never loses them to an emptied title', async () => {
		const first = await post('/admin/articles/new', {
			...fields({ title: '', body: 'Words before a title.', intent: 'autosave' }),
			slugFollowsTitle: '1',
		})
		expect(first.status).toBe(200)
		const drafts = await app.storage.articles.listForEditor({
			query: parseQuery('Untitled draft') ?? undefined,
			limit: 10,
			offset: 0,
		})
		const draft = drafts.items[0]
		expect(draft).toMatchObject({ title: 'Untitled draft', status: 'draft' })
		const id = draft?.id ?? 0
		expect((await app.storage.articles.findById(id))?.bodyMarkdown).toBe('Words before a title.')
		const next = await post(`/admin/articles/${id}`, {
			...fields({ title: '', body: 'Words before a title, and more.', intent: 'autosave' }),
			version: String(draft?.version),
			slugFollowsTitle: '1',
		})
		expect(next.status).toBe(200)
		expect(await app.storage.articles.findById(id)).toMatchObject({
			title: 'Untitled draft',
			bodyMarkdown: 'Words before a title, and more.',
		})
		// Saving by hand still asks for a title.
		const saved = await post(`/admin/articles/${id}`, {
			...fields({ title: '', intent: 'draft' }),
			version: String((await app.storage.articles.findById(id))?.version),
		})
		expect(saved.status).toBe(400)
		expect(await saved.text()).toContain('Give the article a title.')
	})

	it('creates a draft with the editor as author, a slug from the title, and no public trace', async () => {
		const id = await create()
		const article = await app.storage.articles.findById(id)
		expect(article).toMatchObject({
			slug: 'tidal-flats',
			status: 'draft',
			authors: [{ name: 'Ana Costa', slug: 'ana-costa' }],
			tags: [
				{ name: 'coasts', slug: 'coasts' },
				{ name: 'birds', slug: 'birds' },
			],
			bodyHtml: '<p>Tidal flats are <strong>rich</strong>.</p>',
		})
		expect((await fetch(`${app.url}/articles/tidal-flats`)).status).toBe(404)
		// The same title again gets the next free address.
		const second = await app.storage.articles.findById(await create())
		expect(second?.slug).toBe('tidal-flats-2')
	})

	it('names the other languages an article is published in, each a link to its editor', async () => {
		const { article: original } = await app.storage.articles.saveBySlug(
			articleWrite({ slug: 'marsh-birds', title: 'Marsh birds', language: 'en' }),
		)
		const editorOf = async (id: number) => (await get(`/admin/articles/${id}`)).text()
		// An article in one language only has nothing to name.
		expect(await editorOf(original.id)).not.toContain('Also published in:')
		const { article: arabic } = await app.storage.articles.saveBySlug(
			articleWrite({
				slug: 'طيور-المستنقعات',
				title: 'طيور المستنقعات',
				language: 'ar',
				translationOf: original.id,
			}),
		)
		const namesOther = (id: number, language: string) =>
			new RegExp(
				`Also published in:.*?<a [^>]*href="/admin/articles/${id}"[^>]*>${language}</a>`,
				's',
			)
		expect(await editorOf(original.id)).toMatch(namesOther(arabic.id, 'Arabic'))
		expect(await editorOf(arabic.id)).toMatch(namesOther(original.id, 'English'))
		await app.storage.articles.deleteBySlug(arabic.slug)
		await app.storage.articles.deleteBySlug(original.slug)
	})

	it('answers bad fields with 400 and a message for each, keeping what was typed', async () => {
		const response = await post(
			'/admin/articles/new',
			fields({ title: '', body: '', slug: 'Not A Slug', cover: 'https://example.org/a.png' }),
		)
		expect(response.status).toBe(400)
		const html = await response.text()
		expect(html).toContain('Give the article a title.')
		expect(html).toContain('The article has no text.')
		expect(html).toContain('Use lowercase letters, digits and single hyphens in the slug.')
		expect(html).toContain('Describe the cover image: what it shows, for people who cannot see it.')
		expect(html).toContain('value="https://example.org/a.png"')
	})

	it('tells every field to fix in one answer, an image without a description with the rest', async () => {
		const body = 'Herons at dawn.\n\n![](/media/heron.png)'
		const refused = await post(
			'/admin/articles/new',
			fields({ title: '', body, intent: 'publish' }),
		)
		expect(refused.status).toBe(400)
		const html = await refused.text()
		expect(html).toContain('Give the article a title.')
		expect(html).toContain('An image in the text has no description: ![](/media/heron.png)')
		// A draft may wait for its descriptions, also beside another refusal.
		const draft = await post('/admin/articles/new', fields({ title: '', body }))
		const draftHtml = await draft.text()
		expect(draftHtml).toContain('Give the article a title.')
		expect(draftHtml).not.toContain('has no description')
	})

	it('autosaves the text whatever else a field refuses, keeping that field as it was stored', async () => {
		// A new article's first autosave, with a tag too long: made, with its text, without the tag.
		const first = await post(
			'/admin/articles/new',
			fields({
				title: 'Bog pools',
				body: 'Pools on the bog hold water all summer.',
				tags: `bogs, ${'x'.repeat(41)}`,
				intent: 'autosave',
			}),
		)
		expect(first.status).toBe(200)
		const made = await app.storage.articles.findBySlug('bog-pools')
		expect(made).toMatchObject({
			bodyMarkdown: 'Pools on the bog hold water all summer.',
			tags: [],
		})
		// Then a cover without its description: the text goes on being saved, the cover waits.
		const next = await post(
			`/admin/articles/${made?.id}`,
			fields({
				title: 'Bog pools',
				body: 'Pools on the bog hold water all summer, and dragonflies.',
				tags: 'bogs',
				cover: '/media/pool.png',
				intent: 'autosave',
				version: String(made?.version),
			}),
		)
		expect(next.status).toBe(200)
		expect(await app.storage.articles.findById(made?.id ?? 0)).toMatchObject({
			bodyMarkdown: 'Pools on the bog hold water all summer, and dragonflies.',
			coverImageUrl: null,
		})
		// Publishing still refuses until the cover is described.
		const publish = await post(
			`/admin/articles/${made?.id}`,
			fields({
				title: 'Bog pools',
				body: 'Pools.',
				cover: '/media/pool.png',
				intent: 'publish',
				version: String((await app.storage.articles.findById(made?.id ?? 0))?.version),
			}),
		)
		expect(publish.status).toBe(400)
	})

	it('saves a draft with an undescribed image, and refuses to publish it until it is described', async () => {
		const body = 'Herons at dawn.\n\n![](/media/heron.png)\n\n![ ](/media/avocet.png)'
		const draft = await create({ title: 'Birds at dawn', body })
		const refused = await post(
			'/admin/articles/new',
			fields({ title: 'Birds at noon', body, intent: 'publish' }),
		)
		expect(refused.status).toBe(400)
		const html = await refused.text()
		expect(html).toContain('2 images in the text have no description')
		expect(html).toContain('![](/media/heron.png), ![](/media/avocet.png)')
		expect(await app.storage.articles.findBySlug('birds-at-noon')).toBeUndefined()
		const described = body
			.replace(
				'![](/media/heron.png)',
				'![A grey heron standing in the shallows](/media/heron.png)',
			)
			.replace('![ ](/media/avocet.png)', '![Two avocets sweeping the mud](/media/avocet.png)')
		const published = await post(
			'/admin/articles/new',
			fields({ title: 'Birds at noon', body: described, intent: 'publish' }),
		)
		expect(published.status).toBe(302)
		expect((await app.storage.articles.findById(draft))?.status).toBe('draft')
		expect((await app.storage.articles.findBySlug('birds-at-noon'))?.status).toBe('published')
	})

	it('refuses a slug another article holds', async () => {
		const response = await post('/admin/articles/new', fields({ slug: 'half-a-degree-matters' }))
		expect(response.status).toBe(400)
		expect(await response.text()).toContain('Another article or page already uses this address.')
		const check = await (await get('/admin/articles/slug-check?slug=half-a-degree-matters')).json()
		expect(check.problem).toContain('Another article or page already uses this address.')
		expect(await (await get('/admin/articles/slug-check?slug=free-one')).json()).toEqual({
			problem: null,
		})
	})

	it('refuses a save over a newer version with 409 and leaves the newer one in place', async () => {
		const id = await create({ title: 'Estuaries' })
		const first = await post(`/admin/articles/${id}`, fields({ title: 'Theirs', version: '1' }))
		expect(first.status).toBe(200)
		const stale = await post(`/admin/articles/${id}`, fields({ title: 'Mine', version: '1' }))
		expect(stale.status).toBe(409)
		expect(await stale.text()).toContain('Someone else saved this article')
		expect((await app.storage.articles.findById(id))?.title).toBe('Theirs')
		const staleDelete = await post(`/admin/articles/${id}`, { intent: 'delete', version: '1' })
		expect(staleDelete.status).toBe(409)
		expect(await app.storage.articles.findById(id)).toBeDefined()
	})

	it('keeps a published article’s autosaved edits pending: readers see them only after Update', async () => {
		const id = await create({ title: 'Dunes', intent: 'publish' })
		const slug = (await app.storage.articles.findById(id))?.slug ?? ''
		const autosave = await post(
			`/admin/articles/${id}`,
			fields({
				title: 'Dunes, moving',
				body: 'Sand that walks.',
				intent: 'autosave',
				version: '1',
			}),
		)
		expect(autosave.status).toBe(200)
		// Readers still get the published text…
		expect(await app.storage.articles.findById(id)).toMatchObject({
			title: 'Dunes',
			status: 'published',
			version: 1,
		})
		const page = await (await fetch(`${app.url}/articles/${slug}`)).text()
		expect(page).not.toContain('Sand that walks')
		// …while the editor, opened again, holds the edits, and says they are not live.
		const editor = await (await get(`/admin/articles/${id}`)).text()
		expect(editor).toContain('Sand that walks.')
		expect(editor).toContain('readers do not see yet')
		// Update makes them live, and they are no longer pending.
		const update = await post(
			`/admin/articles/${id}`,
			fields({ title: 'Dunes, moving', body: 'Sand that walks.', intent: 'publish', version: '1' }),
		)
		expect(update.status).toBe(200)
		expect(await app.storage.articles.findById(id)).toMatchObject({
			title: 'Dunes, moving',
			bodyMarkdown: 'Sand that walks.',
			version: 2,
		})
		expect(await app.storage.revisions.pending(id)).toBeUndefined()
		// Pending edits built on an older version are refused, not kept over the newer one.
		const stale = await post(
			`/admin/articles/${id}`,
			fields({ title: 'Old tab', intent: 'autosave', version: '1' }),
		)
		expect(stale.status).toBe(409)
		expect(await app.storage.revisions.pending(id)).toBeUndefined()
		// Discarded edits leave the editor, and stay in the history.
		await post(
			`/admin/articles/${id}`,
			fields({ title: 'Second thoughts', intent: 'autosave', version: '2' }),
		)
		const discard = await post(`/admin/articles/${id}`, { intent: 'discard', version: '2' })
		expect(discard.status).toBe(302)
		expect(await (await get(`/admin/articles/${id}`)).text()).not.toContain('Second thoughts')
		expect((await app.storage.revisions.list(id)).map((revision) => revision.title)).toContain(
			'Second thoughts',
		)
	})

	it('never lets one editor’s pending edits replace another’s kept since: autosave, Update and undo are refused as conflicts', async () => {
		const id = await create({ title: 'Salt marsh', body: 'Grazed.', intent: 'publish' })
		const save = (editor: Record<string, string>) =>
			post(`/admin/articles/${id}`, fields({ title: 'Salt marsh', version: '1', ...editor }))
		// Ada and Ed open the published article: nothing pending yet.
		const ada = await save({ body: 'Grazed by ponies.', intent: 'autosave', pendingBasis: '' })
		expect(ada.status).toBe(200)
		const adas = await app.storage.revisions.pending(id)
		expect(adas?.bodyMarkdown).toBe('Grazed by ponies.')
		// Ed's form began before Ada's edits were kept: his autosave, his Update and his undo
		// (the live text sent again) are refused, and say whose edits they would have replaced.
		const edits: Record<string, string>[] = [
			{ summary: 'Ed was here.', intent: 'autosave' },
			{ summary: 'Ed was here.', intent: 'publish' },
			{ body: 'Grazed.', intent: 'autosave' },
		]
		for (const ed of edits) {
			const refused = await save({ body: 'Grazed.', ...ed, pendingBasis: '' })
			expect(refused.status, ed.intent).toBe(409)
			expect(await refused.text()).toContain('saved changes to this article')
		}
		expect((await app.storage.revisions.pending(id))?.bodyMarkdown).toBe('Grazed by ponies.')
		expect(await app.storage.articles.findById(id)).toMatchObject({ bodyMarkdown: 'Grazed.' })
		// Opened again, Ed's form holds Ada's edits and builds on them.
		const edBasis = adas?.savedAt ?? ''
		const ed = await save({
			body: 'Grazed by ponies and cattle.',
			intent: 'autosave',
			pendingBasis: edBasis,
		})
		expect(ed.status).toBe(200)
		// Now Ada's form is the one behind.
		const adaAgain = await save({
			body: 'Grazed by ponies, mown.',
			intent: 'autosave',
			pendingBasis: edBasis,
		})
		expect(adaAgain.status).toBe(409)
		const eds = await app.storage.revisions.pending(id)
		expect(eds?.bodyMarkdown).toBe('Grazed by ponies and cattle.')
		const update = await save({
			body: 'Grazed by ponies and cattle.',
			intent: 'publish',
			pendingBasis: eds?.savedAt ?? '',
		})
		expect(update.status).toBe(200)
		expect(await app.storage.articles.findById(id)).toMatchObject({
			bodyMarkdown: 'Grazed by ponies and cattle.',
			version: 2,
		})
	})

	it('keeps nothing pending when an autosave holds the article as it stands (an edit undone, or just published)', async () => {
		const id = await create({ title: 'Machair', body: 'Flowering grassland.', intent: 'publish' })
		const autosave = (body: string) =>
			post(
				`/admin/articles/${id}`,
				fields({ title: 'Machair', body, intent: 'autosave', version: '1' }),
			)
		// The text as published, sent again (an autosave just behind Update): nothing pending.
		expect((await autosave('Flowering grassland.')).status).toBe(200)
		expect(await app.storage.revisions.pending(id)).toBeUndefined()
		// An edit is kept pending…
		expect((await autosave('Flowering grassland by the sea.')).status).toBe(200)
		expect((await app.storage.revisions.pending(id))?.bodyMarkdown).toBe(
			'Flowering grassland by the sea.',
		)
		// …and undone, it is pending no more: the editor says nothing waits for Update.
		expect((await autosave('Flowering grassland.')).status).toBe(200)
		expect(await app.storage.revisions.pending(id)).toBeUndefined()
		expect(await (await get(`/admin/articles/${id}`)).text()).not.toContain(
			'readers do not see yet',
		)
		// The undone edit stays in the history.
		expect((await app.storage.revisions.list(id)).length).toBeGreaterThanOrEqual(2)
	})

	it('shows every save in the history, what it changed, and restores one exactly', async () => {
		const id = await create({ title: 'Salt marsh', body: 'First text.\n\nWith *two* lines.' })
		const saved = await post(
			`/admin/articles/${id}`,
			fields({ title: 'Salt marsh', body: 'Second text.', intent: 'draft', version: '1' }),
		)
		expect(saved.status).toBe(200)
		// React marks where text and values meet with empty comments: read the page as shown.
		const history = (await (await get(`/admin/articles/${id}/history`)).text()).replaceAll(
			'<!-- -->',
			'',
		)
		expect(history).toContain('History of “Salt marsh”')
		expect(history).toContain('by Ana Costa')
		// The newest save, shown first: its text taken out and put in.
		expect(history).toMatch(/<del>.*First.*<\/del>/s)
		expect(history).toMatch(/<ins>.*Second.*<\/ins>/s)
		const first = (await app.storage.revisions.list(id)).at(-1)
		expect(first?.kind).toBe('saved')
		const restore = await post(`/admin/articles/${id}/history`, {
			revision: String(first?.id),
			version: '2',
		})
		expect(restore.status).toBe(302)
		expect(restore.headers.get('location')).toBe(`/admin/articles/${id}?saved=restore`)
		expect((await app.storage.articles.findById(id))?.bodyMarkdown).toBe(
			'First text.\n\nWith *two* lines.',
		)
		const [newest] = await app.storage.revisions.list(id)
		expect(newest).toMatchObject({ kind: 'restored', restoredFrom: first?.id, byName: 'Ana Costa' })
		// A stale restore is refused with words, and so is a revision that is not this article's.
		const stale = await post(`/admin/articles/${id}/history`, {
			revision: String(first?.id),
			version: '1',
		})
		expect(stale.status).toBe(409)
		expect(await stale.text()).toContain('Nothing was restored')
		const foreign = await post(`/admin/articles/${id}/history`, {
			revision: '999999',
			version: '3',
		})
		expect(foreign.status).toBe(400)
		expect(await foreign.text()).toContain('no longer kept')
		const nonsense = await post(`/admin/articles/${id}/history`, { revision: 'x', version: '' })
		expect(nonsense.status).toBe(400)
	})

	it('unpublishes and deletes at the right version', async () => {
		const id = await create({ title: 'Reefs', intent: 'publish' })
		const slug = (await app.storage.articles.findById(id))?.slug
		expect((await fetch(`${app.url}/articles/${slug}`)).status).toBe(200)
		expect(
			(await post(`/admin/articles/${id}`, { intent: 'unpublish', version: '1' })).status,
		).toBe(200)
		expect((await fetch(`${app.url}/articles/${slug}`)).status).toBe(404)
		const deleted = await post(`/admin/articles/${id}`, { intent: 'delete', version: '2' })
		expect(deleted.status).toBe(302)
		expect(deleted.headers.get('location')).toBe('/admin/articles?deleted=1')
		expect(await app.storage.articles.findById(id)).toBeUndefined()
	})

	it('refuses to schedule in the past, and the job publishes a due article once', async () => {
		const past = await post(
			'/admin/articles/new',
			fields({ intent: 'schedule', publishAt: '2020-01-01T09:00' }),
		)
		expect(past.status).toBe(400)
		expect(await past.text()).toContain('Choose a time in the future, or publish now.')

		const id = await create({
			title: 'Lagoons',
			intent: 'schedule',
			publishAt: '2099-01-01T09:00',
			timezoneOffset: '-60',
		})
		expect((await app.storage.articles.findById(id))?.publishAt).toBe('2099-01-01T08:00:00.000Z')
		const list = await (await get('/admin/articles?status=scheduled')).text()
		expect(list).toContain('Lagoons')
		expect(list).toContain('Scheduled for')

		// Bring it due, then let the job run: once published, a second run finds nothing.
		const article = await app.storage.articles.findById(id)
		if (!article) throw new Error('missing')
		await app.storage.articles.update(id, article.version, {
			...articleWriteOf(article),
			publishAt: '2026-01-01T00:00:00.000Z',
		})
		const job = startScheduledPublishing(
			app.storage,
			createLogger('error', () => {}),
			60_000,
		)
		try {
			await job.runOnce()
			expect(await job.runOnce()).toBe(0)
		} finally {
			await job.stop()
		}
		expect(await app.storage.articles.findById(id)).toMatchObject({
			status: 'published',
			publishAt: null,
		})
		expect((await fetch(`${app.url}/articles/${article.slug}`)).status).toBe(200)
	})

	it('previews Markdown through the public pipeline, scripts removed', async () => {
		const response = await post('/admin/articles/preview', {
			body: '# Hi\n\n<script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1))',
		})
		expect(response.status).toBe(200)
		const { html } = await response.json()
		expect(html).toContain('<h1>Hi</h1>')
		expect(html).not.toMatch(/<script|onerror|javascript:/i)
		expect((await get('/admin/articles/preview')).status).toBe(405)
	})

	it('lists, searches and filters every article for the editor', async () => {
		const all = await (await get('/admin/articles')).text()
		expect(all).toContain('Half a Degree Matters')
		const found = await (await get('/admin/articles?q=TIDAL')).text()
		expect(found).toContain('Tidal flats')
		expect(found).not.toContain('Half a Degree Matters')
		const drafts = await (await get('/admin/articles?status=draft')).text()
		expect(drafts).not.toContain('Half a Degree Matters')
		// A word by its stems too, once the worker has made them: "declines" finds "decline".
		await vi.waitFor(async () => expect(await app.storage.search.unstemmed(10)).toEqual([]), {
			timeout: 5_000,
		})
		const stemmed = await (await get('/admin/articles?q=declines')).text()
		expect(stemmed).toContain('Decline, and Can 30x30 Turn It Around?')
		expect(stemmed).not.toContain('Tidal flats')
	})
})
