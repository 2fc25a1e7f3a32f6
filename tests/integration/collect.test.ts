// POST /api/collect over real HTTP: what is stored, what is never stored, and how the endpoint
// holds under junk, floods and shutdown.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { databases, type TestDatabase } from '#tests/fixtures/storage.ts'

const chrome =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'

// Each test reads from its own address (the app trusts the local proxy's X-Forwarded-For), so
// one test's views never count against another's rate limit.
let nextAddress = 10
const newAddress = () => `198.51.100.${nextAddress++}`

const view = {
	screen: 'article',
	path: '/articles/the-living-ground?utm_source=newsletter&utm_campaign=spring',
	title: 'The living ground · Preserve the Planet',
	referrer: 'https://Search.Example/results?q=soil',
	device: 'mobile',
	language: 'fr-CA',
}

interface Post {
	ip?: string
	userAgent?: string | null
	headers?: Record<string, string>
	body?: unknown
}

/** What sendBeacon sends: a text/plain string, from the site's own page. */
function post(app: TestApp, { ip, userAgent = chrome, headers = {}, body = view }: Post = {}) {
	return fetch(`${app.url}/api/collect`, {
		method: 'POST',
		headers: {
			Origin: app.url,
			'Content-Type': 'text/plain;charset=UTF-8',
			...(userAgent === null ? {} : { 'User-Agent': userAgent }),
			'X-Forwarded-For': ip ?? newAddress(),
			...headers,
		},
		body: typeof body === 'string' ? body : JSON.stringify(body),
	})
}

/** A raw request, for what fetch will not send: no User-Agent at all. */
function postRaw(app: TestApp, headers: Record<string, string>, body: string) {
	return new Promise<{ status: number; body: string }>((resolve, reject) => {
		const req = request(
			`${app.url}/api/collect`,
			{ method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } },
			(res) => {
				let text = ''
				res.setEncoding('utf8')
				res.on('data', (chunk: string) => {
					text += chunk
				})
				res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
			},
		)
		req.on('error', reject)
		req.end(body)
	})
}

/** Every stored view, oldest first, as the database holds it. */
async function storedViews(app: TestApp) {
	await app.screenViews.flush()
	return app.storage.authDatabase.db
		.selectFrom('analytics_events')
		.selectAll()
		.orderBy('id')
		.execute()
}

async function count(app: TestApp) {
	await app.screenViews.flush()
	return app.storage.analytics.countViews()
}

describe.each(databases)('POST /api/collect on $name', ({ create }) => {
	describe('with the default settings', () => {
		let app: TestApp
		let now = new Date('2026-03-01T10:00:00Z')
		beforeAll(async () => {
			app = await startTestApp({
				trustProxy: '127.0.0.1',
				database: create,
				analytics: { buffer: { flushMs: 60_000 }, collect: { now: () => now } },
			})
		})
		afterAll(() => app.close())

		it('accepts a view with 202 and stores it normalised, once written', async () => {
			const before = await count(app)
			const response = await post(app)
			expect(response.status).toBe(202)
			expect(await response.text()).toBe('')
			expect(app.screenViews.queued()).toBe(1)
			const stored = (await storedViews(app)).slice(before)
			expect(stored).toHaveLength(1)
			expect(stored[0]).toMatchObject({
				at_ms: now.getTime(),
				day: '2026-03-01',
				screen: 'article',
				path: '/articles/the-living-ground',
				title: 'The living ground · Preserve the Planet',
				previous_path: '',
				referrer_host: 'search.example',
				utm_source: 'newsletter',
				utm_medium: '',
				utm_campaign: 'spring',
				device: 'mobile',
				language: 'fr',
			})
			expect(stored[0]?.visitor).toMatch(/^[0-9a-f]{64}$/)
		})

		it('takes the previous page from a path or a URL of this site, and JSON of any type', async () => {
			const before = await count(app)
			const ip = newAddress()
			const one = await post(app, { ip, body: { ...view, referrer: '/home?x=1' } })
			const two = await post(app, {
				ip,
				headers: { 'Content-Type': 'application/json' },
				body: { ...view, path: '/contact', screen: 'contact', referrer: `${app.url}/articles` },
			})
			expect([one.status, two.status]).toEqual([202, 202])
			const stored = (await storedViews(app)).slice(before)
			expect(stored.map((row) => [row.path, row.previous_path, row.referrer_host])).toEqual([
				['/articles/the-living-ground', '/home', ''],
				['/contact', '/articles', ''],
			])
			expect(stored[0]?.visitor).toBe(stored[1]?.visitor)
		})

		it('stores neither the address nor the user agent, in any column', async () => {
			const ip = '203.0.113.197'
			const userAgent = `${firefox} CanopyTestMarker/7.3`
			expect((await post(app, { ip, userAgent })).status).toBe(202)
			const stored = await storedViews(app)
			expect(stored.length).toBeGreaterThan(0)
			for (const row of stored) {
				for (const [column, value] of Object.entries(row)) {
					const text = String(value)
					for (const secret of [ip, userAgent, 'CanopyTestMarker', 'Firefox/133'])
						expect(text, `${column} holds ${secret}`).not.toContain(secret)
				}
			}
		})

		it('stores nothing, with 204, under Do Not Track, GPC, for robots and for the editor area', async () => {
			const before = await count(app)
			const refused: [string, Promise<Response>][] = [
				['DNT: 1', post(app, { headers: { DNT: '1' } })],
				['Sec-GPC: 1', post(app, { headers: { 'Sec-GPC': '1' } })],
				[
					'Googlebot',
					post(app, {
						userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
					}),
				],
				['headless Chrome', post(app, { userAgent: chrome.replace('Chrome/', 'HeadlessChrome/') })],
				['curl', post(app, { userAgent: 'curl/8.5.0' })],
				['/admin', post(app, { body: { ...view, path: '/admin/articles' } })],
				['/api', post(app, { body: { ...view, path: '/api/collect' } })],
			]
			for (const [name, response] of refused) expect((await response).status, name).toBe(204)
			const noUserAgent = await postRaw(
				app,
				{ Origin: app.url, 'X-Forwarded-For': newAddress() },
				JSON.stringify(view),
			)
			expect(noUserAgent.status).toBe(204)
			expect(await count(app)).toBe(before)
			// DNT: 0 is not a refusal.
			expect((await post(app, { headers: { DNT: '0' } })).status).toBe(202)
		})

		it('answers junk with 400 and a message per field, never 500, and stores nothing', async () => {
			const before = await count(app)
			const cases: [string, string | object, string[]][] = [
				['not JSON', '{"screen": "home",', ['form']],
				['empty', '', ['form']],
				['a list', [view], ['form']],
				['a string', '"home"', ['form']],
				['null', 'null', ['form']],
				['no fields', {}, ['screen', 'path', 'device']],
				[
					'wrong types',
					{ screen: 7, path: ['/'], title: {}, referrer: 1, device: true, language: 5 },
					['screen', 'path', 'title', 'referrer', 'device', 'language'],
				],
				['a screen of another shape', { ...view, screen: 'home page!' }, ['screen']],
				['a screen too long', { ...view, screen: `s${'x'.repeat(64)}` }, ['screen']],
				['a path that is not one', { ...view, path: 'https://evil.example/' }, ['path']],
				['an unknown device', { ...view, device: 'fridge' }, ['device']],
			]
			for (const [name, body, fields] of cases) {
				const response = await post(app, { body })
				expect(response.status, name).toBe(400)
				const answer = (await response.json()) as {
					error: string
					errors: Record<string, string[]>
				}
				expect(answer.error, name).toMatch(/not recorded/)
				expect(Object.keys(answer.errors).sort(), name).toEqual([...fields].sort())
				for (const messages of Object.values(answer.errors))
					for (const message of messages) expect(message, name).toMatch(/^[A-Z].{10,}[.)]$/)
			}
			expect(await count(app)).toBe(before)
			expect(app.errors()).toEqual([])
		})

		it('takes a body of 4 KB, and refuses one byte more with 413', async () => {
			const fill = (size: number) => {
				const body = { ...view, title: '' }
				const padding = size - JSON.stringify(body).length
				return JSON.stringify({ ...body, title: 't'.repeat(padding) })
			}
			expect(Buffer.byteLength(fill(4096))).toBe(4096)
			const largest = await post(app, { body: fill(4096) })
			expect(largest.status).toBe(202)
			const tooLarge = await post(app, { body: fill(4097) })
			expect(tooLarge.status).toBe(413)
			expect((await tooLarge.json()).error).toMatch(/4 KB/)
			const stored = await storedViews(app)
			expect(stored.at(-1)?.title).toHaveLength(300)
		})

		it('refuses another site’s page with 403, and other methods with 405', async () => {
			const before = await count(app)
			const crossSite = await post(app, { headers: { Origin: 'https://elsewhere.example' } })
			expect(crossSite.status).toBe(403)
			const fetchMetadata = await post(app, {
				headers: { Origin: '', 'Sec-Fetch-Site': 'cross-site' },
			})
			expect(fetchMetadata.status).toBe(403)
			const get = await fetch(`${app.url}/api/collect`)
			expect(get.status).toBe(405)
			expect(get.headers.get('allow')).toBe('POST')
			expect(await count(app)).toBe(before)
		})

		it('limits one visitor to 60 views a minute with 429 and Retry-After, storing none over it', async () => {
			const before = await count(app)
			const ip = newAddress()
			const statuses: number[] = []
			for (let i = 0; i < 60; i++) statuses.push((await post(app, { ip })).status)
			expect(new Set(statuses)).toEqual(new Set([202]))
			const limited = await post(app, { ip })
			expect(limited.status).toBe(429)
			const retryAfter = Number(limited.headers.get('retry-after'))
			expect(retryAfter).toBeGreaterThanOrEqual(1)
			expect(retryAfter).toBeLessThanOrEqual(60)
			expect((await limited.json()).error).toMatch(/Try again in \d+ seconds/)
			// Another visitor (the same address with another browser) is not held back.
			expect((await post(app, { ip, userAgent: firefox })).status).toBe(202)
			expect(await count(app)).toBe(before + 61)
			now = new Date(now.getTime() + 60_000)
			expect((await post(app, { ip })).status).toBe(202)
		})

		it('gives the same reader one visitor hash a day, and another the next (UTC) day', async () => {
			const before = await count(app)
			const ip = newAddress()
			const times = ['2026-03-02T00:00:05Z', '2026-03-02T23:59:55Z', '2026-03-03T00:00:05Z']
			for (const time of times) {
				now = new Date(time)
				expect((await post(app, { ip })).status).toBe(202)
			}
			now = new Date('2026-03-02T12:00:00Z')
			expect((await post(app, { ip: newAddress() })).status).toBe(202)
			const stored = (await storedViews(app)).slice(before)
			expect(stored.map((row) => row.day)).toEqual([
				'2026-03-02',
				'2026-03-02',
				'2026-03-03',
				'2026-03-02',
			])
			const [first, sameDay, nextDay, otherReader] = stored.map((row) => row.visitor)
			expect(sameDay).toBe(first)
			expect(nextDay).not.toBe(first)
			expect(otherReader).not.toBe(first)
		})

		it('counts a view on the site’s day, in its time zone, and its visitor by that day', async () => {
			await saveSiteSettings(app.storage, { timeZone: 'America/Los_Angeles' })
			try {
				const before = await count(app)
				const ip = newAddress()
				// 16:00 and 23:00 on 1 March in California; UTC has turned to 2 March at the second.
				for (const time of ['2026-03-02T00:00:00Z', '2026-03-02T07:00:00Z']) {
					now = new Date(time)
					expect((await post(app, { ip })).status).toBe(202)
				}
				const stored = (await storedViews(app)).slice(before)
				expect(stored.map((row) => row.day)).toEqual(['2026-03-01', '2026-03-01'])
				expect(stored[1]?.visitor).toBe(stored[0]?.visitor)
			} finally {
				await saveSiteSettings(app.storage, { timeZone: 'UTC' })
			}
		})
	})

	describe('with a small write queue', () => {
		let database: TestDatabase
		let app: TestApp
		let running = false
		beforeAll(async () => {
			database = await create()
			// The app drops its database when it stops; this one is kept to be read afterwards.
			const kept = { ...database, drop: async () => {} }
			app = await startTestApp({
				trustProxy: '127.0.0.1',
				database: () => kept,
				analytics: { buffer: { flushMs: 60_000, maxQueued: 3 } },
			})
			running = true
		})
		afterAll(async () => {
			if (running) await app.close()
			await database.drop()
		})

		it('sheds views past its bound with 503 and Retry-After, and writes the rest at shutdown', async () => {
			const statuses: number[] = []
			for (let i = 0; i < 3; i++) statuses.push((await post(app)).status)
			expect(statuses).toEqual([202, 202, 202])
			const shed = await post(app)
			expect(shed.status).toBe(503)
			expect(Number(shed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
			expect((await shed.json()).error).toMatch(/Try again/)
			expect(await app.storage.analytics.countViews()).toBe(0)

			running = false
			await app.close()
			const storage = database.open()
			try {
				const rows = await storage.authDatabase.db
					.selectFrom('analytics_events')
					.select(['screen', 'path'])
					.execute()
				expect(rows).toEqual(
					Array(3).fill({ screen: 'article', path: '/articles/the-living-ground' }),
				)
			} finally {
				await storage.close()
			}
		})
	})
})
