import { describe, expect, it } from 'vitest'
import { startJob } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import {
	cleanUpPush,
	deliveryRetentionDays,
	pushCleanupJob,
	staleSubscriptionDays,
} from './retention.server.ts'

const day = 24 * 60 * 60 * 1_000

describe.each(databases)('push clean-up on $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	const save = (endpoint: string, at: Date, expirationTime: string | null = null) =>
		storage.push.saveSubscription({ endpoint, p256dh: 'B', auth: 'a', expirationTime }, at)

	it('deletes subscriptions 270 days silent or expired, and retires deliveries finished 30 days ago', async () => {
		expect([staleSubscriptionDays, deliveryRetentionDays]).toEqual([270, 30])
		const now = new Date('2026-12-01T12:00:00Z')
		const ago = (days: number) => new Date(now.getTime() - days * day)
		await save('https://push.example.net/silent', ago(271))
		await save('https://push.example.net/visiting', ago(269))
		await save('https://push.example.net/expired', ago(1), ago(0.5).toISOString())
		const created = await storage.articles.create(articleWrite())
		if (!created.ok) throw new Error('create failed')
		const article = created.saved.article
		const deliveries = await storage.push.deliveriesOf(article.id)
		// The one to the visiting browser was sent 31 days ago, as far as the row says.
		const visiting = await storage.push.findSubscription('https://push.example.net/visiting')
		const sent = deliveries.find((d) => d.subscriptionId === visiting?.id)
		if (!sent) throw new Error('no delivery to the visiting browser')
		await storage.push.markSent(sent.id, 201, ago(31))

		expect(await cleanUpPush(storage, now)).toEqual({ subscriptions: 2, deliveries: 1 })
		expect(await storage.push.subscriberCount(now)).toBe(1)
		expect(await storage.push.findSubscription('https://push.example.net/silent')).toBeUndefined()
		// The two deleted subscriptions' notices were cancelled: finished today, kept for 30 days.
		expect((await storage.push.resultsByArticle([article.id])).get(article.id)).toEqual({
			pending: 0,
			sent: 1,
			gone: 0,
			failed: 0,
			cancelled: 2,
		})
		expect((await storage.push.deliveriesOf(article.id)).map((d) => d.state)).toEqual([
			'cancelled',
			'cancelled',
		])
	})

	it('runs as a job that says what it did, and nothing when there was nothing to do', async () => {
		const now = new Date('2026-12-01T12:00:00Z')
		await save('https://push.example.net/silent', new Date(now.getTime() - 300 * day))
		const logs: { msg: string }[] = []
		const logger = createLogger('info', (line) => logs.push(JSON.parse(line)))
		const job = startJob(pushCleanupJob, storage, logger, { clock: () => now, intervalMs: 60_000 })
		try {
			expect(await job.runOnce()).toEqual({ subscriptions: 0, deliveries: 0 })
		} finally {
			await job.stop()
		}
		// The pass at start deleted it; the second found nothing and said nothing.
		expect(logs).toMatchObject([
			{
				level: 'info',
				msg: 'push: dead subscriptions deleted, old deliveries retired',
				subscriptions: 1,
				deliveries: 0,
			},
		])
	})
})
