// kill -9 of one instance while two deliver a new article's push notices (push-delivery.test.ts
// has the two instances without a fault, in one process): real server processes on one
// PostgreSQL database, the local HTTPS push service (trusted through NODE_EXTRA_CA_CERTS, as an
// operator would trust a private CA), and SIGKILL in the middle of the sends.
//
// What is true, and asserted: the survivor sends every notice the killed instance had claimed
// once its lease runs out, so every subscriber gets the notice and every delivery ends `sent`.
// Delivery is at least once: a notice the push service accepted but whose row the killed instance
// had not yet marked sent is sent again. That can only be one of the sends in flight at the kill,
// so at most `concurrency` (20) of them; the repeat carries the same Topic (the push service
// replaces a notice it still holds) and the same article address, the notification's tag (the
// browser replaces the one it shows), so the reader still sees one notification.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadVapidKeys } from '#app/features/push/vapid-keys.server.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { makeApiKey } from '#tests/fixtures/api-key.ts'
import { type Instance, type Instances, startInstances } from '#tests/fixtures/instances.ts'
import { startPushService, type TestPushService } from '#tests/fixtures/push-service.ts'
import { postgresDatabase, postgresUrl, type TestDatabase } from '#tests/fixtures/storage.ts'

const subscribers = 300
/** The worker's default: sends in flight at once, on each instance. */
const concurrency = 20
const leaseSeconds = 10

describe.runIf(postgresUrl)('kill -9 of one instance during push deliveries', () => {
	let service: TestPushService
	let database: TestDatabase
	let storage: Storage
	let site: Instances | undefined
	const caDir = mkdtempSync(join(tmpdir(), 'canopy-push-ca-'))

	beforeAll(async () => {
		service = await startPushService()
		writeFileSync(join(caDir, 'push-service.pem'), service.ca)
		database = await postgresDatabase()
		storage = database.open()
		await storage.migrate()
	})
	afterAll(async () => {
		await site?.close()
		await storage?.close()
		await database?.drop()
		await service?.close()
		rmSync(caDir, { recursive: true, force: true })
	}, 60_000)

	it('has the survivor finish every delivery, each repeat bounded and replacing, not adding', {
		timeout: 180_000,
	}, async () => {
		site = await startInstances(2, {
			database: { ...database, drop: async () => {} },
			env: {
				NODE_EXTRA_CA_CERTS: join(caDir, 'push-service.pem'),
				PUSH_LEASE_SECONDS: String(leaseSeconds),
			},
		})
		// Readers subscribe once the site runs (its sample articles, added at the first start, are
		// then announced to nobody), for the key pair the instances made and share.
		const vapidKeys = await loadVapidKeys(storage, null)
		for (let i = 0; i < subscribers; i++) {
			const { endpoint, keys } = service.subscribe({ applicationServerKey: vapidKeys.publicKey })
			await storage.push.saveSubscription({ endpoint, ...keys, expirationTime: null }, new Date())
		}
		const key = await makeApiKey(storage, 'http://127.0.0.1')

		const [a, b] = site.instances as [Instance, Instance]

		const api = (path: string, body: unknown) =>
			fetch(`${a.url}/api/admin/articles${path}`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			})
		const created = await (
			await api('', {
				title: 'Mangroves return',
				summary: 'Planted in 2019.',
				body: 'Text.',
				tags: [],
			})
		).json()
		const published = await api(`/${created.article.id}/publish`, {
			version: created.article.version,
		})
		expect(published.status).toBe(200)
		const articleId = Number(created.article.id)
		const publishedAt = Date.now()

		// A third of the way through, both are sending: A dies without a word.
		await service.waitFor(subscribers / 3, 60_000)
		await a.kill()
		const killedAt = Date.now()
		const receivedAtKill = service.received.length

		await service.waitFor(subscribers, 120_000)
		const doneAt = Math.max(...service.received.map((push) => push.receivedAt.getTime()))
		await expect
			.poll(async () => (await storage.push.resultsByArticle([articleId])).get(articleId), {
				timeout: 30_000,
			})
			.toEqual({ pending: 0, sent: subscribers, gone: 0, failed: 0, cancelled: 0 })
		// Long enough for a late repeat to arrive, had there been one more.
		await new Promise((resolve) => setTimeout(resolve, 2_000))

		const byEndpoint = new Map<string, typeof service.received>()
		for (const push of service.received)
			byEndpoint.set(push.endpoint, [...(byEndpoint.get(push.endpoint) ?? []), push])
		const repeated = [...byEndpoint.values()].filter((pushes) => pushes.length > 1)
		const deliveries = await storage.push.deliveriesOf(articleId)
		const reclaimed = deliveries.filter((delivery) => delivery.attempts > 1)
		console.log(
			[
				`push kill -9: ${subscribers} notices, instance A killed after ${receivedAtKill} had arrived (${killedAt - publishedAt} ms after publishing)`,
				`  ${reclaimed.length} deliveries A had claimed and not finished were taken over by B`,
				`  all ${subscribers} arrived ${doneAt - killedAt} ms after the kill (lease ${leaseSeconds * 1000} ms)`,
				`  ${service.received.length} notices received: ${repeated.length} sent twice (bound: ${concurrency}, the sends in flight at the kill)`,
			].join('\n'),
		)

		expect(byEndpoint.size).toBe(subscribers)
		expect(service.requests.every((request) => request.outcome === 'delivered')).toBe(true)
		// The kill landed mid-job: some of A's claimed deliveries were left to their lease.
		expect(reclaimed.length).toBeGreaterThan(0)
		expect(reclaimed.every((delivery) => delivery.attempts === 2)).toBe(true)
		expect(repeated.length).toBeLessThanOrEqual(concurrency)
		expect(repeated.length).toBeLessThanOrEqual(reclaimed.length)
		expect(service.received.length).toBe(subscribers + repeated.length)
		for (const [first, second] of repeated as [
			(typeof service.received)[number],
			(typeof service.received)[number],
		][]) {
			// The first from A (its request may reach the service just after A died), the repeat
			// from B once A's lease ran out.
			expect(second.receivedAt.getTime()).toBeGreaterThan(killedAt)
			expect(second.headers.topic).toBe(first.headers.topic)
			expect(second.payload).toEqual(first.payload)
		}
		// B took them over once A's lease ran out: within the lease of the kill, give or take.
		const reclaimedEndpoints = new Set(
			(
				await storage.authDatabase.db
					.selectFrom('push_subscriptions')
					.select('endpoint')
					.where(
						'id',
						'in',
						reclaimed.map((delivery) => delivery.subscriptionId ?? 0),
					)
					.execute()
			).map((row) => row.endpoint),
		)
		const takenOver = service.received
			.filter((push) => reclaimedEndpoints.has(push.endpoint))
			.map((push) => push.receivedAt.getTime())
			.filter((at) => at > killedAt)
		expect(takenOver.length).toBeGreaterThanOrEqual(reclaimed.length)
		expect(Math.min(...takenOver) - killedAt).toBeLessThanOrEqual(leaseSeconds * 1000 + 5_000)
		expect(b.child.exitCode).toBeNull()
	})
})
