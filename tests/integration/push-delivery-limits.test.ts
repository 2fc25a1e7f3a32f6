// The bounds on a push notice, end to end against the local push service: at most 30 attempts,
// and never in a push service's hands past the day after its article was published (its TTL
// counts down, and a notice claimed after its day is not sent), on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultRetry } from '#app/features/push/delivery.server.ts'
import type { PushDeliveryOptions } from '#app/features/push/delivery-worker.server.ts'
import { startTestApp } from '#tests/fixtures/app.ts'
import { adminKey, publishArticle, subscribeBrowsers } from '#tests/fixtures/push-delivery.ts'
import { startPushService, type TestPushService } from '#tests/fixtures/push-service.ts'
import { databases } from '#tests/fixtures/storage.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const hourMs = 60 * 60 * 1_000

let service: TestPushService
beforeAll(async () => {
	service = await startPushService()
})
afterAll(() => service?.close())

describe.each(databases)('push delivery limits on $name', ({ create }) => {
	/** A test app with a delivery worker of these settings, a browser subscribed, closed after. */
	async function withWorker(
		settings: Omit<PushDeliveryOptions, 'agent'>,
		test: (
			app: Awaited<ReturnType<typeof startTestApp>>,
			endpoint: string,
			key: string,
		) => Promise<void>,
	) {
		const app = await startTestApp({
			database: create,
			seed: false,
			pushDelivery: { agent: service.agent, random: () => 0, ...settings },
		})
		try {
			const [browser] = await subscribeBrowsers(app, service, 1)
			await test(app, browser?.endpoint ?? '', await adminKey(app))
		} finally {
			await app.close()
			service.reset()
		}
	}

	it('gives up after 30 attempts of a push service that keeps answering 500', async () => {
		expect(defaultRetry.maxAttempts).toBe(30)
		// A 1 ms backoff: the cap on attempts, not the day, is what stops it.
		const retry = { baseMs: 2, factor: 1, maxMs: 2 }
		await withWorker({ intervalMs: 10, retry }, async (app, endpoint, key) => {
			service.script(
				endpoint,
				Array.from({ length: 40 }, () => ({ status: 500 })),
			)
			const article = await publishArticle(app, key, 'Into an outage')
			await expect
				.poll(
					async () =>
						(await app.storage.push.deliveriesOf(article.id)).map((d) => [d.state, d.attempts]),
					{ timeout: 15_000 },
				)
				.toEqual([['failed', 30]])
			await sleep(300)
			expect(service.requests.map((request) => request.status)).toEqual(Array(30).fill(500))
			const [delivery] = await app.storage.push.deliveriesOf(article.id)
			expect(delivery).toMatchObject({
				lastStatus: 500,
				lastError: 'given up after 30 attempt(s): HTTP 500',
			})
			expect(
				app.logs.filter((entry) => entry.msg === 'push: given up; the notice will not be sent'),
			).toHaveLength(1)
		})
	})

	it('counts the TTL down: a retry six hours on is sent with the eighteen hours left', async () => {
		let aheadMs = 0
		const clock = () => new Date(Date.now() + aheadMs)
		await withWorker({ intervalMs: 20, clock }, async (app, endpoint, key) => {
			service.script(endpoint, [{ status: 503 }])
			const article = await publishArticle(app, key, 'Still news this evening')
			const [first] = await service.waitForRequests(1)
			// The worker's clock moves six hours on; the retry is long due by then.
			aheadMs = 6 * hourMs
			const [second] = await service.waitFor(1, 10_000)
			expect(first?.headers.ttl).toBeGreaterThan(86_390)
			expect(first?.headers.ttl).toBeLessThanOrEqual(86_400)
			expect(second?.headers.ttl).toBeGreaterThan(64_790)
			expect(second?.headers.ttl).toBeLessThanOrEqual(64_800)
			await expect
				.poll(async () => (await app.storage.push.deliveriesOf(article.id)).map((d) => d.state))
				.toEqual(['sent'])
		})
	})

	it('sends nothing of a notice claimed after its day (a worker that was down)', async () => {
		const clock = () => new Date(Date.now() + 24 * hourMs + 1_000)
		await withWorker({ intervalMs: 20, clock }, async (app, _endpoint, key) => {
			const article = await publishArticle(app, key, 'Yesterday’s news')
			await expect
				.poll(async () => (await app.storage.push.deliveriesOf(article.id)).map((d) => d.state))
				.toEqual(['failed'])
			await sleep(300)
			expect(service.requests).toEqual([])
			const [delivery] = await app.storage.push.deliveriesOf(article.id)
			expect(delivery?.lastError).toMatch(/its day ran out before it was sent/)
		})
	})
})
