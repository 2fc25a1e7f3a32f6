// The editors' side of push notices over real HTTP, on SQLite and PostgreSQL: the switch in the
// editor form (posted without JavaScript) and in the admin API decides whether publishing writes
// deliveries, and /admin shows the subscriber count and what became of each article's notices.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { callApi, makeKey, makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { postForm } from '#tests/fixtures/forms.ts'
import { databases } from '#tests/fixtures/storage.ts'

let counter = 0

describe.each(databases)('push notices in the editor area on $name', ({ create }) => {
	let app: TestApp
	let cookie = ''
	let key = ''
	const endpoints: string[] = []

	beforeAll(async () => {
		app = await startTestApp({ database: create, seed: false })
		const adminId = await makeUser(app, 'ada@example.org', 'admin', 'Ada Admin')
		cookie = await signIn(app, 'ada@example.org')
		key = await makeKey(app, adminId)
	})
	afterAll(() => app?.close())
	afterEach(async () => {
		for (const endpoint of endpoints.splice(0))
			await app.storage.push.deleteSubscription(endpoint, new Date())
	})

	async function subscribe(count: number) {
		for (let i = 0; i < count; i++) {
			counter++
			const endpoint = `https://push.example.net/send/${counter}-${Math.random().toString(36).slice(2)}`
			endpoints.push(endpoint)
			const subscription = { endpoint, p256dh: `B${'A'.repeat(85)}`, auth: `auth-${counter}` }
			await app.storage.push.saveSubscription({ ...subscription, expirationTime: null }, new Date())
		}
	}

	/** Posts the editor form as a browser without JavaScript does. */
	const post = (path: string, fields: Record<string, string>) =>
		postForm(app, path, fields, { cookie })
	const page = async (path: string) => {
		const response = await fetch(`${app.url}${path}`, { headers: { Cookie: cookie } })
		expect(response.status).toBe(200)
		return response.text()
	}
	/** The form's fields; the switch's marker is always posted, `notify` only when ticked. */
	const form = (title: string, notify: boolean, intent: string, version?: number) => ({
		title,
		summary: `About ${title}.`,
		body: `${title} in a paragraph.`,
		tags: '',
		intent,
		notifySwitch: '1',
		...(notify ? { notify: 'on' } : {}),
		...(version ? { version: String(version) } : {}),
	})
	const createByForm = async (title: string, notify: boolean, intent = 'draft') => {
		const response = await post('/admin/articles/new', form(title, notify, intent))
		expect(response.status).toBe(302)
		return Number(/\/admin\/articles\/(\d+)/.exec(response.headers.get('location') ?? '')?.[1])
	}
	const api = (path: string, method: string, body?: unknown) =>
		callApi(app, `/api/admin/articles${path}`, { key }, { method, body })

	it('offers the switch ticked on a new article', async () => {
		const html = await page('/admin/articles/new')
		expect(html).toMatch(/<input type="checkbox" id="notify"[^>]* name="notify" checked=""/)
		expect(html).toContain('<input type="hidden" name="notifySwitch" value="1"/>')
		expect(html).toContain('Notify subscribers when this is published')
	})

	it('publishes without notifying when the box was unticked, and writes no delivery', async () => {
		await subscribe(2)
		const id = await createByForm('Quiet correction', false)
		expect((await app.storage.articles.findById(id))?.notify).toBe(false)
		const published = await post(
			`/admin/articles/${id}`,
			form('Quiet correction', false, 'publish', 1),
		)
		expect(published.status).toBe(200)
		const article = await app.storage.articles.findById(id)
		expect(article).toMatchObject({ status: 'published', notify: false, notifiedAt: null })
		expect(await app.storage.push.deliveriesOf(id)).toEqual([])

		expect(await page(`/admin/articles/${id}`)).toContain('Published without notifying')
		const list = await page('/admin/articles')
		expect(list).toContain('2 readers subscribed to notices of new articles')
		expect(list).toMatch(
			/Quiet correction<\/a>.*?<td data-label="Push notices">Published without notifying<\/td>/s,
		)
	})

	it('notifies every subscriber when published with the box ticked (the default)', async () => {
		await subscribe(3)
		const id = await createByForm('Storm petrels return', true, 'publish')
		const deliveries = await app.storage.push.deliveriesOf(id)
		expect(deliveries).toHaveLength(3)
		expect(new Set(deliveries.map((delivery) => delivery.subscriptionId)).size).toBe(3)
		expect((await app.storage.articles.findById(id))?.notifiedAt).not.toBeNull()
	})

	it('notifies when the switch is turned on again before publishing', async () => {
		await subscribe(2)
		const id = await createByForm('Changed my mind', false)
		expect((await app.storage.articles.findById(id))?.notify).toBe(false)
		const saved = await post(`/admin/articles/${id}`, form('Changed my mind', true, 'draft', 1))
		expect(saved.status).toBe(200)
		expect((await app.storage.articles.findById(id))?.notify).toBe(true)
		expect(await app.storage.push.deliveriesOf(id)).toEqual([])
		await post(`/admin/articles/${id}`, form('Changed my mind', true, 'publish', 2))
		expect(await app.storage.push.deliveriesOf(id)).toHaveLength(2)
	})

	it('keeps the switch as stored when the form does not carry it, and says when it was announced', async () => {
		await subscribe(1)
		const id = await createByForm('Announced once', true, 'publish')
		const html = await page(`/admin/articles/${id}`)
		expect(html).toContain('Subscribers were told of this article on')
		expect(html).toContain('It will not be announced again')
		expect(html).not.toContain('name="notify"')
		// The announced article's form has no switch: a save leaves notify alone.
		const {
			notifySwitch: _,
			notify: __,
			...withoutSwitch
		} = form('Announced once', false, 'publish', 1)
		expect((await post(`/admin/articles/${id}`, withoutSwitch)).status).toBe(200)
		expect((await app.storage.articles.findById(id))?.notify).toBe(true)
		// Unpublished and published again: still announced only once.
		await post(`/admin/articles/${id}`, { intent: 'unpublish', version: '2' })
		await post(`/admin/articles/${id}`, { ...withoutSwitch, version: '3' })
		expect(await app.storage.push.deliveriesOf(id)).toHaveLength(1)
	})

	it('takes notify in the admin API and answers it with notifiedAt', async () => {
		await subscribe(2)
		const quiet = await api('', 'POST', { title: 'API quiet', body: 'Text.', notify: false })
		expect(quiet.status).toBe(201)
		const { article } = await quiet.json()
		expect(article).toMatchObject({ notify: false, notifiedAt: null })
		const published = await api(`/${article.id}/publish`, 'POST', { version: article.version })
		expect(await published.json()).toMatchObject({
			article: { status: 'published', notify: false, notifiedAt: null },
		})
		expect(await app.storage.push.deliveriesOf(article.id)).toEqual([])

		const loud = await api('', 'POST', { title: 'API loud', body: 'Text.', status: 'published' })
		const announced = (await loud.json()).article
		expect(announced.notify).toBe(true)
		expect(Date.parse(announced.notifiedAt)).not.toBeNaN()
		expect(await app.storage.push.deliveriesOf(announced.id)).toHaveLength(2)

		const turnedOn = await api(`/${article.id}`, 'PUT', {
			title: 'API quiet',
			body: 'Text.',
			notify: true,
			version: article.version + 1,
		})
		expect(turnedOn.status).toBe(200)
		expect((await turnedOn.json()).article).toMatchObject({ notify: true, notifiedAt: null })
		const listed = await (await api('?q=api%20quiet', 'GET')).json()
		expect(listed.items[0]).toMatchObject({ notify: true, notifiedAt: null })
	})

	it('answers a notify that is not a boolean with 400 and a message for the field', async () => {
		const created = await api('', 'POST', { title: 'Bad switch', body: 'Text.', notify: 'no' })
		expect(created.status).toBe(400)
		const body = await created.json()
		expect(body.error).toBe('Some fields need fixing; see errors.')
		expect(body.errors.notify).toEqual([
			'Use true or false for notify: whether publishing tells push subscribers.',
		])
		const good = (await (await api('', 'POST', { title: 'Good', body: 'Text.' })).json()).article
		const updated = await api(`/${good.id}`, 'PUT', {
			title: 'Good',
			body: 'Text.',
			notify: 1,
			version: good.version,
		})
		expect(updated.status).toBe(400)
		expect((await updated.json()).errors.notify).toHaveLength(1)
		expect((await app.storage.articles.findById(good.id))?.version).toBe(good.version)
	})

	it('shows each article its notices by state, in the list and on its page', async () => {
		await subscribe(5)
		const id = await createByForm('Counted notices', true, 'publish')
		const claimed = await app.storage.push.claimDue(new Date(Date.now() + 1_000), 60_000, 10)
		const ours = claimed.filter((delivery) => delivery.article.id === id)
		expect(ours).toHaveLength(5)
		const [a, b, c, d] = ours.map((delivery) => delivery.id) as [number, number, number, number]
		const now = new Date()
		await app.storage.push.markSent(a, 201, now)
		await app.storage.push.markSent(b, 201, now)
		await app.storage.push.markGone(c, 410, now)
		await app.storage.push.markFailed(d, 403, 'Forbidden', now)
		// The fifth stays pending: waiting to be sent.

		const list = await page('/admin/articles')
		expect(list).toContain('4 readers subscribed to notices of new articles')
		expect(list).toContain('Sent to 2 of 5 · 1 waiting · 1 gone · 1 failed')

		const html = await page(`/admin/articles/${id}`)
		expect(html).toContain('Sent to 2 of 5 · 1 waiting · 1 gone · 1 failed')
		for (const [label, count] of [
			['Sent', 2],
			['Waiting', 1],
			['Gone', 1],
			['Failed', 1],
			['Cancelled', 0],
		] as const)
			expect(html).toContain(`<dt>${label}</dt><dd class="push-count">${count}</dd>`)
		expect(html).toContain('The subscription had expired or been withdrawn')

		expect(await page('/admin')).toContain('4 readers subscribed to notices of new articles')
	})
})
