// Push delivery: how many notices a second Canopy's worker gets to the local HTTPS push service
// for 10,000 subscribers of one new article (claimed from SQLite in batches, 20 sends at a time,
// each result written back), beside web-push alone sending the same payload to the same
// subscriptions with the same concurrency and agent, reading and writing nothing. The push
// service runs in this process and decrypts every message, so both figures include its work:
// the ratio is what the storage and the worker cost, not an absolute sender's rate.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import webPush from 'web-push'
import { buildPayload, pushTopic, pushTtlSeconds } from '#app/features/push/delivery.server.ts'
import { loadVapidKeys } from '#app/features/push/vapid-keys.server.ts'
import { startPushDelivery } from '#server/jobs/push-delivery.ts'
import { createLogger } from '#server/logger.ts'
import { storageRules } from '#server/storage-rules.ts'
import { openSqliteStorage } from '#storage/sqlite/open-sqlite.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { type BrowserSubscription, startPushService } from '#tests/fixtures/push-service.ts'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const subscribers = 10_000
const concurrency = 20
const siteUrl = 'https://blog.example.org'

export async function run(_target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('push-delivery')
	const dir = mkdtempSync(join(tmpdir(), 'canopy-push-bench-'))
	const storage = openSqliteStorage(join(dir, 'canopy.db'), { rules: storageRules })
	const service = await startPushService()
	try {
		await storage.migrate()
		const vapidKeys = await loadVapidKeys(storage, null)
		const browsers: BrowserSubscription[] = []
		for (let i = 0; i < subscribers; i++) {
			const browser = service.subscribe()
			const { endpoint, keys } = browser
			await storage.push.saveSubscription({ endpoint, ...keys, expirationTime: null }, new Date())
			browsers.push(browser)
		}
		const write = articleWrite({ title: 'A new article', summary: 'What it is about.' })

		// Baseline: web-push alone, 20 at a time on the same agent.
		const payload = buildPayload(write, { siteUrl, logoUrl: '/logo.svg' })
		const vapidDetails = { subject: 'mailto:bench@example.org', ...vapidKeys }
		let next = 0
		const baselineStart = performance.now()
		await Promise.all(
			Array.from({ length: concurrency }, async () => {
				while (next < browsers.length) {
					const browser = browsers[next++] as BrowserSubscription
					await webPush.sendNotification(browser, payload, {
						vapidDetails,
						TTL: pushTtlSeconds,
						urgency: 'normal',
						topic: pushTopic,
						agent: service.agent,
					})
				}
			}),
		)
		const baselineSeconds = (performance.now() - baselineStart) / 1000
		const baselineRate = subscribers / baselineSeconds
		note(`web-push alone: ${subscribers} in ${baselineSeconds.toFixed(2)} s`)
		service.reset()

		// Canopy: publishing writes the deliveries; the worker claims and sends them.
		const worker = startPushDelivery(
			storage,
			createLogger('silent'),
			{ siteUrl, vapidSubject: 'mailto:bench@example.org' },
			vapidKeys,
			{ agent: service.agent, concurrency, intervalMs: 1_000 },
		)
		const start = performance.now()
		const created = await storage.articles.create(write)
		worker.wake()
		await service.waitFor(subscribers, 600_000)
		const seconds = (performance.now() - start) / 1000
		await worker.stop()
		const rate = subscribers / seconds
		note(`Canopy's worker: ${subscribers} in ${seconds.toFixed(2)} s (publish to last delivery)`)
		const articleId = created.ok ? created.saved.article.id : undefined
		if (articleId !== undefined) {
			const results = (await storage.push.resultsByArticle([articleId])).get(articleId)
			note(`results: ${JSON.stringify(results)}`)
		}
		return {
			rows: [
				row({
					bench: 'push-delivery',
					figure: `notices/s, ${subscribers} subscribers, ${concurrency} at a time`,
					value: rate.toFixed(0),
					baseline: `${baselineRate.toFixed(0)} (web-push alone)`,
					ratio: times(rate, baselineRate),
				}),
			],
			notes,
		}
	} finally {
		await service.close()
		await storage.close()
		rmSync(dir, { recursive: true, force: true })
	}
}

if (import.meta.main) await runAlone(run)
