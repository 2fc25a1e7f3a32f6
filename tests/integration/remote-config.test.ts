// The remote configuration as visitors meet it over HTTP: GET /api/config (values per visitor,
// ETag and 304), the switches the server renders with (home count, page size, contact form), the
// whole-page cache keeping visitors in and out of a rollout apart, and a new version reaching
// the pages and the live stream at once.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rolloutBucket } from '#app/features/remote-config/evaluate.server.ts'
import { inAppDefaults } from '#app/features/remote-config/parameters.ts'
import type { ConfigDocument } from '#storage/port/config.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { parseSse } from '#tests/fixtures/sse.ts'
import { databases } from '#tests/fixtures/storage.ts'

const newId = () => randomBytes(16).toString('base64url')

/** A visitor id whose bucket for `key` is below `percent` (inside), or not (outside). */
function visitorId(key: string, percent: number, inside: boolean): string {
	for (;;) {
		const id = newId()
		if (rolloutBucket(id, key) < percent === inside) return id
	}
}

const cardCount = (html: string) => html.match(/data-article-id="/g)?.length ?? 0

describe.each(databases)('remote configuration on $name', ({ create }) => {
	let app: TestApp
	let version = 0

	beforeAll(async () => {
		app = await startTestApp({ database: create })
	})
	afterAll(async () => {
		await app?.close()
	})

	async function publish(document: ConfigDocument) {
		const published = await app.storage.config.publish(
			{
				document,
				baseVersion: version,
				createdBy: null,
				createdByName: 'Test',
				summary: 'test',
			},
			new Date(),
		)
		if (!published.ok) throw new Error(`stale: current is ${published.current}`)
		version = published.version.id
		// Every instance learns of it from the change feed; wait until this one has.
		await expect
			.poll(async () => (await get('/api/config')).json().then((body) => body.version))
			.toBe(version)
	}

	function get(path: string, headers: Record<string, string> = {}) {
		return fetch(`${app.url}${path}`, { headers })
	}

	it('gives the in-app defaults before anything is published, with an ETag and 304', async () => {
		const response = await get('/api/config')
		expect(response.status).toBe(200)
		expect(await response.json()).toEqual({ version: 0, values: inAppDefaults })
		const etag = response.headers.get('etag') ?? ''
		expect(etag).toMatch(/^"[\w-]{16}"$/)
		expect(response.headers.get('cache-control')).toBe('private, no-cache')
		expect(response.headers.get('vary')).toContain('Cookie')

		const again = await get('/api/config', { 'If-None-Match': etag })
		expect(again.status).toBe(304)
		expect(again.headers.get('etag')).toBe(etag)
		expect(await again.text()).toBe('')
		expect((await get('/api/config', { 'If-None-Match': '"other"' })).status).toBe(200)

		const post = await fetch(`${app.url}/api/config`, { method: 'POST' })
		expect(post.status).toBe(405)
		expect(post.headers.get('allow')).toBe('GET, HEAD')
	})

	it('gives each visitor the values of the first condition they match', async () => {
		const before = (await get('/api/config')).headers.get('etag')
		await publish({
			parameters: {
				banner_message: {
					serverDefault: '',
					conditions: [{ rules: { percent: 10, languages: ['fr'] }, value: 'Bonjour !' }],
				},
			},
		})
		const inside = visitorId('banner_message', 10, true)
		const outside = visitorId('banner_message', 10, false)
		const banner = async (id: string, language: string) => {
			const response = await get('/api/config', {
				Cookie: `canopy_config_id=${id}`,
				'Accept-Language': language,
			})
			return ((await response.json()) as { values: { banner_message: string } }).values
				.banner_message
		}
		expect(await banner(inside, 'fr-FR,fr;q=0.9')).toBe('Bonjour !')
		expect(await banner(outside, 'fr-FR')).toBe('')
		expect(await banner(inside, 'en-GB')).toBe('')
		// A new version is a new entity, even where the values are the same.
		expect((await get('/api/config')).headers.get('etag')).not.toBe(before)
	})

	it('renders pages with the visitor’s values, and the page cache keeps rollouts apart', async () => {
		await publish({
			parameters: {
				home_latest_count: {
					serverDefault: 2,
					conditions: [{ rules: { percent: 50 }, value: 1 }],
				},
				articles_page_size: { serverDefault: 4, conditions: [] },
			},
		})
		const inside = { Cookie: `canopy_config_id=${visitorId('home_latest_count', 50, true)}` }
		const outside = { Cookie: `canopy_config_id=${visitorId('home_latest_count', 50, false)}` }
		// Interleaved and repeated, so the second of each is a cache hit if the page is cacheable.
		for (let round = 0; round < 3; round++) {
			expect(cardCount(await (await get('/home', inside)).text())).toBe(1)
			expect(cardCount(await (await get('/home', outside)).text())).toBe(2)
			expect(cardCount(await (await get('/home')).text())).toBe(2)
		}
		const list = await (await get('/articles')).text()
		expect(cardCount(list)).toBe(4)
		expect(list).toContain('Older articles')
	})

	it('shows a new version on the next page at once, the page cache emptied', async () => {
		expect(cardCount(await (await get('/home')).text())).toBe(2)
		await publish({ parameters: { home_latest_count: { serverDefault: 0, conditions: [] } } })
		const home = await (await get('/home')).text()
		expect(cardCount(home)).toBe(0)
		expect(home).toContain('All articles')
	})

	it('closes the contact form: the page gives the addresses, the form and the API refuse', async () => {
		await publish({
			parameters: { contact_form_enabled: { serverDefault: false, conditions: [] } },
		})
		const page = await (await get('/contact')).text()
		expect(page).toContain('The contact form is closed just now.')
		expect(page).not.toContain('name="message"')

		const form = new URLSearchParams({
			name: 'Ada',
			email: 'ada@example.org',
			subject: 'Kelp',
			message: 'A story you should follow, about kelp.',
		})
		const posted = await fetch(`${app.url}/contact`, {
			method: 'POST',
			headers: { Origin: app.url, 'Content-Type': 'application/x-www-form-urlencoded' },
			body: form,
		})
		expect(posted.status).toBe(503)
		const answer = await posted.text()
		expect(answer).toContain('your message was not sent')
		// What was typed comes back, to be copied into an email.
		expect(answer).toContain('A story you should follow, about kelp.')

		const api = await fetch(`${app.url}/api/contact`, {
			method: 'POST',
			headers: { Origin: app.url, 'Content-Type': 'application/json' },
			body: JSON.stringify({ name: 'Ada', email: 'ada@example.org', message: 'Hello there.' }),
		})
		expect(api.status).toBe(503)
		expect((await api.json()).error).toContain('closed')
		expect((await get('/api/contact')).status).toBe(503)
		const stored = await app.storage.messages.list({ box: 'inbox', limit: 10, offset: 0 })
		expect(stored.total).toBe(0)

		await publish({ parameters: {} })
		expect(await (await get('/contact')).text()).toContain('name="message"')
	})

	it('tells open live streams of a new version', async () => {
		const controller = new AbortController()
		const response = await fetch(`${app.url}/api/articles/stream?since=${app.broker.lastId}`, {
			signal: controller.signal,
		})
		const reader = (response.body as ReadableStream<Uint8Array>).getReader()
		await publish({ parameters: { banner_message: { serverDefault: 'Live', conditions: [] } } })
		let text = ''
		while (!text.includes('event: config'))
			text += new TextDecoder().decode((await reader.read()).value)
		controller.abort()
		const event = parseSse(text).events.find((item) => item.event === 'config')
		expect(JSON.parse(event?.data ?? '{}')).toEqual({ version })
	})
})
