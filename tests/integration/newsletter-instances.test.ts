// Two instances' newsletter workers on one PostgreSQL database, in one process, sending one
// article to 300 readers and a digest to others through a real SMTP server: every reader gets
// each mail exactly once (no fault here: bench/newsletter.ts has the kill -9), and the figures
// count every delivery sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as mails from '#app/features/newsletter/newsletter-mail.tsx'
import {
	type NewsletterDeliveryWorker,
	startNewsletterDelivery,
} from '#server/jobs/newsletter-delivery.ts'
import { createLogger } from '#server/logger.ts'
import { storageRules } from '#server/storage-rules.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { startSmtpServer, type TestSmtpServer } from '#tests/fixtures/smtp.ts'
import { postgresDatabase, postgresUrl, type TestDatabase } from '#tests/fixtures/storage.ts'

const readers = 300

describe.runIf(postgresUrl)(
	'newsletter workers on two instances of one PostgreSQL database',
	() => {
		let database: TestDatabase
		let storages: Storage[]
		let workers: NewsletterDeliveryWorker[]
		let smtp: TestSmtpServer

		beforeAll(async () => {
			smtp = await startSmtpServer()
			database = await postgresDatabase()
			storages = [database.open(storageRules), database.open(storageRules)]
			await storages[0]?.migrate()
			workers = storages.map((storage) =>
				startNewsletterDelivery(
					storage,
					createLogger('silent'),
					{
						siteUrl: 'https://news.example.org',
						smtpUrl: smtp.url,
						newsletter: { ratePerSecond: 1_000, suspendAfter: 3 },
					},
					async () => mails,
					// Small batches, so the two take turns through the list.
					{ intervalMs: 20, batchSize: 25 },
				),
			)
		})
		afterAll(async () => {
			for (const worker of workers) await worker.stop()
			for (const storage of storages) await storage.close()
			await smtp.close()
			await database.drop()
		})

		it('mails each reader once, whichever instance writes and sends its delivery', async () => {
			const [storage] = storages as [Storage]
			await storage.newsletter.importMany(
				Array.from({ length: readers }, (_, i) => ({
					email: `reader${i}@example.org`,
					confirmed: true,
				})),
				new Date(),
				new Date(),
			)
			const created = await storage.articles.create(
				articleWrite({ slug: 'both', title: 'Seagrass meadows' }),
			)
			if (!created.ok) throw new Error('publish failed')
			for (const worker of workers) worker.wake()
			await smtp.waitFor(readers, 30_000)
			await new Promise((resolve) => setTimeout(resolve, 300))
			const recipients = smtp.received.map((mail) => mail.to[0])
			expect(recipients).toHaveLength(readers)
			expect(new Set(recipients).size).toBe(readers)
			await expect
				.poll(
					async () => (await storage.newsletter.figuresOfArticle(created.saved.article.id)).sent,
				)
				.toBe(readers)
		})
	},
)
