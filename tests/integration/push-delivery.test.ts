// Push notices for new articles, end to end: Canopy on SQLite and PostgreSQL, a real HTTPS push
// service that checks VAPID and decrypts what it is sent, and the delivery worker in between.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startPushDelivery } from '#server/jobs/push-delivery.ts'
import { createLogger } from '#server/logger.ts'
import { callApi } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { adminKey, publishArticle, subscribeBrowsers } from '#tests/fixtures/push-delivery.ts'
import {
	type BrowserSubscription,
	startPushService,
	type TestPushService,
} from '#tests/fixtures/push-service.ts'
import { databases, postgresUrl, type TestDatabase } from '#tests/fixtures/storage.ts'

type Three = [BrowserSubscription, BrowserSubscription, BrowserSubscription]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let service: TestPushService
beforeAll(async () => {
	service = await startPushService()
})
afterAll(() => service?.close())

/** Every subscription a test made, on the app it made it on: deleted after each test. */
const made: { app: TestApp; endpoint: string }[] = []
afterEach(async () => {
	for (const { app, endpoint } of made.splice(0)) {
		if (app.storage.push)
			await app.storage.push.deleteSubscription(endpoint, new Date()).catch(() => {})
	}
	service.reset()
})

/** Browsers subscribing on this app, deleted after the test. */
async function subscribe(app: TestApp, count: number): Promise<BrowserSubscription[]> {
	const browsers = await subscribeBrowsers(app, service, count)
	for (const { endpoint } of browsers) made.push({ app, endpoint })
	return browsers
}

/** A database two apps can open in turn or together; dropped once, at the end. */
async function sharedDatabase(create: () => TestDatabase | Promise<TestDatabase>) {
	const database = await create()
	return { database, keep: () => ({ ...database, drop: async () => {} }) }
}

describe.each(databases)('push delivery on $name', ({ create }) => {
	let app: TestApp
	let key = ''
	beforeAll(async () => {
		app = await startTestApp({
			database: create,
			seed: false,
			pushDelivery: { agent: service.agent, intervalMs: 50, timeoutMs: 500, random: () => 0 },
		})
		key = await adminKey(app)
	})
	afterAll(() => app?.close())

	it('brings a new article to every subscriber, signed and encrypted for each', async () => {
		const browsers = await subscribe(app, 3)
		const article = await publishArticle(
			app,
			key,
			'Tides of the estuary',
			'Where the river meets the sea.',
		)
		const pushes = await service.waitFor(3)
		expect(pushes.map((push) => push.endpoint).sort()).toEqual(
			browsers.map((b) => b.endpoint).sort(),
		)
		for (const push of pushes) {
			expect(push.payload).toEqual({
				title: 'Tides of the estuary',
				summary: 'Where the river meets the sea.',
				url: `${app.url}/articles/${article.slug}`,
				icon: `${app.url}/logo.svg`,
			})
			expect(push.headers).toMatchObject({ urgency: 'normal', topic: 'new-article' })
			// A day, less the moments since publishing (decision 011).
			expect(push.headers.ttl).toBeGreaterThan(86_390)
			expect(push.headers.ttl).toBeLessThanOrEqual(86_400)
			expect(push.vapid).toMatchObject({ aud: service.origin, publicKey: app.vapidKeys.publicKey })
			expect(push.vapid?.sub).toMatch(/^mailto:/)
		}
		await expect
			.poll(async () => (await app.storage.push.resultsByArticle([article.id])).get(article.id))
			.toEqual({ pending: 0, sent: 3, gone: 0, failed: 0, cancelled: 0 })
	})

	it('deletes subscriptions that are gone (404, 410) and sends them nothing more', async () => {
		const [expired, unknown, kept] = (await subscribe(app, 3)) as Three
		service.unsubscribe(expired.endpoint)
		service.script(unknown.endpoint, [{ status: 404 }])
		const first = await publishArticle(app, key, 'First notice')
		await service.waitFor(1)
		await service.waitForRequests(3)
		await expect
			.poll(() => app.storage.push.resultsByArticle([first.id]))
			.toEqual(new Map([[first.id, { pending: 0, sent: 1, gone: 2, failed: 0, cancelled: 0 }]]))
		expect(await app.storage.push.findSubscription(expired.endpoint)).toBeUndefined()
		expect(await app.storage.push.findSubscription(unknown.endpoint)).toBeUndefined()

		service.reset()
		const second = await publishArticle(app, key, 'Second notice')
		const [push] = await service.waitFor(1)
		expect(push?.endpoint).toBe(kept.endpoint)
		// Its one delivery settled: nothing else is left to send.
		await expect
			.poll(async () => (await app.storage.push.deliveriesOf(second.id)).map((d) => d.state))
			.toEqual(['sent'])
		expect(service.requests).toHaveLength(1)
	})

	it('does not retry what the push service refuses for good (400, 401, 403, 413)', async () => {
		const browsers = await subscribe(app, 4)
		const statuses = [400, 401, 403, 413]
		for (const [i, browser] of browsers.entries())
			service.script(browser.endpoint, [{ status: statuses[i] ?? 400 }])
		const article = await publishArticle(app, key, 'Refused everywhere')
		await service.waitForRequests(4)
		// Every delivery failed for good (not waiting for a retry), so none is sent again.
		await expect
			.poll(async () => (await app.storage.push.deliveriesOf(article.id)).map((d) => d.state))
			.toEqual(['failed', 'failed', 'failed', 'failed'])
		expect(service.requests.map((request) => request.status).sort()).toEqual(statuses)
		const deliveries = await app.storage.push.deliveriesOf(article.id)
		expect(deliveries.map((d) => [d.state, d.attempts, d.lastStatus]).sort()).toEqual(
			statuses.map((status) => ['failed', 1, status]),
		)
		// Refused messages do not make the subscription go: the next article is sent to them.
		for (const browser of browsers)
			expect(await app.storage.push.findSubscription(browser.endpoint)).toBeDefined()
		// 401 and 403 say our VAPID keys or subject are wrong: an error, naming the push service's
		// host but never the endpoint (whoever has it can push to that browser).
		const logged = app.logs.filter((entry) => entry.articleId === article.id)
		const host = new URL(service.origin).host
		expect(
			logged
				.map((entry) => [entry.level, entry.status, entry.host])
				.sort((a, b) => Number(a[1]) - Number(b[1])),
		).toEqual([
			['warn', 400, host],
			['error', 401, host],
			['error', 403, host],
			['warn', 413, host],
		])
		expect(logged.find((entry) => entry.status === 403)?.msg).toMatch(/VAPID/)
		const written = JSON.stringify(app.logs)
		for (const browser of browsers)
			expect(written).not.toContain(new URL(browser.endpoint).pathname)
	})

	it('retries 429 after its Retry-After, 500 after the backoff, and a hung request after its timeout', async () => {
		const [limited, failing, hung] = (await subscribe(app, 3)) as Three
		service.script(limited.endpoint, [{ status: 429, retryAfter: '2' }])
		service.script(failing.endpoint, [{ status: 500 }, { status: 503 }])
		service.script(hung.endpoint, [{ hang: true }])
		const article = await publishArticle(app, key, 'Eventually everywhere')
		const pushes = await service.waitFor(3, 15_000)
		const times = (endpoint: string) =>
			service.requests.filter((r) => r.endpoint === endpoint).map((r) => r.receivedAt.getTime())
		const [limitedFirst = 0, limitedThen = 0] = times(limited.endpoint)
		expect(limitedThen - limitedFirst).toBeGreaterThanOrEqual(1_950)
		// Backoff with no jitter drawn: 0.5 s after the first try, 1 s after the second.
		const [failedFirst = 0, failedSecond = 0, failedThird = 0] = times(failing.endpoint)
		expect(failedSecond - failedFirst).toBeGreaterThanOrEqual(450)
		expect(failedThird - failedSecond).toBeGreaterThanOrEqual(950)
		expect(times(hung.endpoint)).toHaveLength(2)
		expect(service.requests.find((r) => r.outcome === 'hung')?.abandonedAt).not.toBeNull()
		expect(pushes.map((push) => push.endpoint).sort()).toEqual(
			[limited, failing, hung].map((b) => b.endpoint).sort(),
		)
		await expect
			.poll(async () => (await app.storage.push.resultsByArticle([article.id])).get(article.id))
			.toEqual({ pending: 0, sent: 3, gone: 0, failed: 0, cancelled: 0 })
	})

	it('sends nothing for an article unpublished before the worker ran', async () => {
		const database = await sharedDatabase(create)
		const quiet = await startTestApp({ database: database.keep, seed: false })
		try {
			await subscribe(quiet, 2)
			const quietKey = await adminKey(quiet)
			const article = await publishArticle(quiet, quietKey, 'Published by mistake')
			const unpublished = await callApi(
				quiet,
				`/api/admin/articles/${article.id}/unpublish`,
				{ key: quietKey },
				{ method: 'POST', body: { version: article.version } },
			)
			expect(unpublished.status).toBe(200)
			const worker = startPushDelivery(
				quiet.storage,
				createLogger('silent'),
				{ siteUrl: quiet.url, vapidSubject: '' },
				quiet.vapidKeys,
				{ agent: service.agent, intervalMs: 60_000 },
			)
			expect((await worker.runOnce()).claimed).toBe(0)
			await worker.stop()
			expect(service.requests).toHaveLength(0)
			const results = await quiet.storage.push.resultsByArticle([article.id])
			expect(results.get(article.id)).toMatchObject({ sent: 0, cancelled: 2, pending: 0 })
		} finally {
			await quiet.close()
			await database.database.drop()
		}
	})

	it('starts sending as soon as an article is published, without waiting for a poll', async () => {
		const idle = await startTestApp({
			database: create,
			seed: false,
			pushDelivery: { agent: service.agent, intervalMs: 60_000 },
		})
		try {
			await subscribe(idle, 1)
			await sleep(100)
			const published = Date.now()
			await publishArticle(idle, await adminKey(idle), 'Straight away')
			// The next poll is a minute away: only the wake can bring it within seconds.
			const [push] = await service.waitFor(1, 10_000)
			expect((push?.receivedAt.getTime() ?? Infinity) - published).toBeLessThan(10_000)
		} finally {
			await idle.close()
		}
	})

	it('gives up on a notice a day old rather than retrying it', async () => {
		// The worker's clock a day ahead, less 5 s: the notice goes with what is left of its day as
		// its TTL, and the try after it (Retry-After: 10) would come after the day.
		const dayMs = 24 * 60 * 60 * 1_000
		const late = await startTestApp({
			database: create,
			seed: false,
			pushDelivery: {
				agent: service.agent,
				intervalMs: 50,
				random: () => 0,
				clock: () => new Date(Date.now() + dayMs - 5_000),
			},
		})
		try {
			const [browser] = await subscribe(late, 1)
			service.script(browser?.endpoint ?? '', [{ status: 503, retryAfter: '10' }])
			const article = await publishArticle(late, await adminKey(late), 'Old news')
			const [request] = await service.waitForRequests(1)
			expect(request?.headers.ttl).toBeGreaterThanOrEqual(3)
			expect(request?.headers.ttl).toBeLessThanOrEqual(5)
			await expect
				.poll(async () => (await late.storage.push.deliveriesOf(article.id)).map((d) => d.state))
				.toEqual(['failed'])
			expect(service.requests).toHaveLength(1)
			expect(
				late.logs.some((entry) => entry.msg === 'push: given up; the notice will not be sent'),
			).toBe(true)
		} finally {
			await late.close()
		}
	})

	it('delivers exactly once across a restart in the middle of sending', async () => {
		const database = await sharedDatabase(create)
		const settings = { agent: service.agent, intervalMs: 50, leaseMs: 1_500, stopGraceMs: 50 }
		const before = await startTestApp({
			database: database.keep,
			seed: false,
			pushDelivery: { ...settings, timeoutMs: 60_000 },
		})
		let after: TestApp | undefined
		try {
			const browsers = await subscribe(before, 3)
			service.script('*', [{ hang: true }, { hang: true }, { hang: true }])
			const article = await publishArticle(before, await adminKey(before), 'Sent during a deploy')
			await service.waitForRequests(3)
			await before.close()

			after = await startTestApp({ database: database.keep, seed: false, pushDelivery: settings })
			const pushes = await service.waitFor(3, 15_000)
			// All three sent and recorded as sent: none is left for a second send.
			await expect
				.poll(async () => (await after?.storage.push.deliveriesOf(article.id))?.map((d) => d.state))
				.toEqual(['sent', 'sent', 'sent'])
			expect(service.received).toHaveLength(3)
			expect(pushes.map((p) => p.endpoint).sort()).toEqual(browsers.map((b) => b.endpoint).sort())
			const deliveries = await after.storage.push.deliveriesOf(article.id)
			expect(deliveries.map((d) => [d.state, d.attempts])).toEqual(Array(3).fill(['sent', 2]))
		} finally {
			await after?.close()
			await database.database.drop()
		}
	})
})

describe.runIf(postgresUrl)('push delivery with two instances on one PostgreSQL database', () => {
	it('sends each of 200 notices once', async () => {
		const postgres = databases.find((d) => d.name === 'postgres')
		if (!postgres) throw new Error('TEST_DATABASE_URL is set but no PostgreSQL database is listed.')
		const database = await sharedDatabase(postgres.create)
		const settings = { agent: service.agent, intervalMs: 20, batchSize: 10, concurrency: 5 }
		const one = await startTestApp({ database: database.keep, seed: false, pushDelivery: settings })
		const two = await startTestApp({ database: database.keep, seed: false, pushDelivery: settings })
		try {
			const browsers = await subscribe(one, 200)
			const article = await publishArticle(one, await adminKey(one), 'Everyone at once')
			await service.waitFor(200, 30_000)
			// All 200 recorded as sent; then a moment for a second send by the other instance, the
			// fault this test is for, to arrive if there were one.
			await expect
				.poll(async () => (await two.storage.push.resultsByArticle([article.id])).get(article.id))
				.toEqual({ pending: 0, sent: 200, gone: 0, failed: 0, cancelled: 0 })
			await sleep(500)
			expect(service.requests).toHaveLength(200)
			expect(new Set(service.received.map((p) => p.endpoint)).size).toBe(200)
			expect(new Set(browsers.map((b) => b.endpoint))).toEqual(
				new Set(service.received.map((p) => p.endpoint)),
			)
		} finally {
			await one.close()
			await two.close()
			await database.database.drop()
		}
	})
})
