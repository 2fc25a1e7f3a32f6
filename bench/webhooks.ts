// Webhook delivery, beside the push pipeline in the same run, and through a kill -9.
//
//   1. Latency: articles published one every 40 ms on SQLite, each announced to one push
//      subscription (the local HTTPS push service, decrypting every message) and one webhook
//      endpoint (a local HTTP receiver): p50 and p99 from the publish's commit to arrival, for
//      each pipeline, both workers woken by the publish as the change feed wakes them.
//   2. Throughput: a burst of articles published at once: webhook events/s to the receiver beside
//      push notices/s to the push service, each pipeline alone.
//   3. kill -9: a real server process (node server/index.ts on the built copy) delivering a burst
//      to a receiver that takes 20 ms an answer is killed a third of the way through and started
//      again; every event must arrive (0 lost), and only those in flight at the kill twice.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadVapidKeys } from '#app/features/push/vapid-keys.server.ts'
import { setAllowsPrivateAddresses } from '#app/features/webhooks/webhook-settings.server.ts'
import { startPushDelivery } from '#server/jobs/push-delivery.ts'
import { startWebhookDelivery } from '#server/jobs/webhook-delivery.ts'
import { createLogger } from '#server/logger.ts'
import { storageRules } from '#server/storage-rules.ts'
import { openSqliteStorage } from '#storage/sqlite/open-sqlite.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { startPushService } from '#tests/fixtures/push-service.ts'
import { startWebhookReceiver } from '#tests/fixtures/webhook-receiver.ts'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { freePort } from './support/canopy-server.ts'
import { pollUntil, sleep, startNode, stopProcess, waitForOutput } from './support/processes.ts'
import { met, ms, percentile, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const siteUrl = 'https://blog.example.org'
const paced = 300
const paceMs = 40
const burst = 2_000
const killBurst = 1_500
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

async function site() {
	const dir = mkdtempSync(join(tmpdir(), 'canopy-webhook-bench-'))
	const storage = openSqliteStorage(join(dir, 'canopy.db'), { rules: storageRules })
	await storage.migrate()
	await setAllowsPrivateAddresses(storage, true)
	return {
		dir,
		storage,
		async close() {
			await storage.close()
			rmSync(dir, { recursive: true, force: true })
		},
	}
}

const endpoint = (storage: Storage, url: string) =>
	storage.webhooks.createEndpoint(
		{ url, description: 'bench', events: ['article.published'], enabled: true },
		secret,
		new Date(),
	)

/** In-process: latency of both pipelines side by side, then each one's burst rate. */
async function pipelines(note: (line: string) => void) {
	const { storage, close } = await site()
	const service = await startPushService()
	const receiver = await startWebhookReceiver()
	const logger = createLogger('silent')
	try {
		const vapidKeys = await loadVapidKeys(storage, null)
		const browser = service.subscribe({ applicationServerKey: vapidKeys.publicKey })
		await storage.push.saveSubscription(
			{ endpoint: browser.endpoint, ...browser.keys, expirationTime: null },
			new Date(),
		)
		const hook = await endpoint(storage, `${receiver.url}/hook`)
		const push = startPushDelivery(
			storage,
			logger,
			{ siteUrl, vapidSubject: 'mailto:bench@example.org' },
			vapidKeys,
			{ agent: service.agent, intervalMs: 1_000 },
		)
		const webhooks = startWebhookDelivery(storage, logger, { siteUrl }, { intervalMs: 1_000 })

		// 1. Latency, both pipelines at once, one article every paceMs.
		const committed = new Map<string, number>()
		for (let i = 0; i < paced; i++) {
			const write = articleWrite({ slug: `paced-${i}` })
			const created = await storage.articles.create(write)
			if (!created.ok) throw new Error('publish failed')
			committed.set(write.slug, performance.timeOrigin + performance.now())
			push.wake()
			webhooks.wake()
			await sleep(paceMs)
		}
		await Promise.all([service.waitFor(paced, 60_000), receiver.waitFor(paced, 60_000)])
		const hookLatency = receiver.received
			.map((got) => {
				const slug = (JSON.parse(got.body) as { data: { slug: string } }).data.slug
				return got.at - (committed.get(slug) ?? Number.NaN)
			})
			.sort((a, b) => a - b)
		const pushLatency = service.received
			.map((got) => {
				const url = (got.payload as { url: string }).url
				const slug = decodeURIComponent(url.split('/').pop() ?? '')
				return got.receivedAt.getTime() - (committed.get(slug) ?? Number.NaN)
			})
			.sort((a, b) => a - b)
		note(
			`latency, ${paced} articles one per ${paceMs} ms: webhook p50 ${ms(percentile(hookLatency, 50))} p99 ${ms(percentile(hookLatency, 99))}; push p50 ${ms(percentile(pushLatency, 50))} p99 ${ms(percentile(pushLatency, 99))}`,
		)

		// 2. Throughput: each pipeline alone, a burst published at once.
		const rate = async (which: 'push' | 'webhook') => {
			await storage.webhooks.updateEndpoint(
				hook.id,
				{ ...hook, enabled: which === 'webhook' },
				new Date(),
			)
			const before = which === 'push' ? service.received.length : receiver.received.length
			if (which === 'webhook') await storage.push.deleteSubscription(browser.endpoint, new Date())
			const start = performance.now()
			for (let i = 0; i < burst; i++) {
				await storage.articles.create(articleWrite({ slug: `${which}-burst-${i}` }))
				if (i % 50 === 0) (which === 'push' ? push : webhooks).wake()
			}
			;(which === 'push' ? push : webhooks).wake()
			await (which === 'push'
				? service.waitFor(before + burst, 300_000)
				: receiver.waitFor(before + burst, 300_000))
			const seconds = (performance.now() - start) / 1_000
			note(`${which}: ${burst} published and delivered in ${seconds.toFixed(2)} s`)
			return burst / seconds
		}
		const pushRate = await rate('push')
		const hookRate = await rate('webhook')
		await push.stop()
		await webhooks.stop()
		return { hookLatency, pushLatency, pushRate, hookRate }
	} finally {
		await receiver.close()
		await service.close()
		await close()
	}
}

/** A real server killed mid-delivery and started again: lost and doubled events. */
async function killMidDelivery(target: Target, note: (line: string) => void) {
	const { dir, storage, close } = await site()
	// Slow enough that deliveries are in flight when the kill comes.
	const receiver = await startWebhookReceiver((_, response) => {
		setTimeout(() => response.writeHead(204).end(), 20)
	})
	const port = await freePort()
	const { NODE_ENV: _, ...inherited } = process.env
	const start = () => {
		const child = startNode(['server/index.ts'], {
			cwd: target.root,
			env: {
				...inherited,
				NODE_ENV: 'production',
				DATA_DIR: dir,
				DATABASE_URL: '',
				PORT: String(port),
				HOST: '127.0.0.1',
				SITE_URL: siteUrl,
				LOG_LEVEL: 'warn',
				WEBHOOK_LEASE_SECONDS: '3',
			},
			stdio: ['ignore', 'pipe', 'inherit'],
		})
		return child
	}
	try {
		await endpoint(storage, `${receiver.url}/hook`)
		const ids = new Set<string>()
		for (let i = 0; i < killBurst; i++) {
			const created = await storage.articles.create(articleWrite({ slug: `kill-${i}` }))
			if (!created.ok) throw new Error('publish failed')
		}
		const pending = await storage.webhooks.listEndpoints()
		for (const one of pending) note(`queued before the server starts: ${one.pending}`)
		let child = start()
		await waitForOutput(child, /Canopy is running at/, 60_000, 'server')
		if (!(await pollUntil(() => receiver.received.length >= killBurst / 3, 120_000)))
			throw new Error('The server delivered under a third of the events in 2 minutes.')
		child.kill('SIGKILL')
		const atKill = receiver.received.length
		note(`killed with ${atKill} of ${killBurst} received`)
		await sleep(200)
		child = start()
		await waitForOutput(child, /Canopy is running at/, 60_000, 'server, again')
		// Whatever has not come in 3 minutes is reported as lost.
		await pollUntil(() => {
			for (const got of receiver.received) ids.add(String(got.headers['webhook-id']))
			return ids.size >= killBurst
		}, 180_000)
		// Anything still coming (a retry of one already here) would be a doubling: wait a lease.
		await sleep(4_000)
		for (const got of receiver.received) ids.add(String(got.headers['webhook-id']))
		await stopProcess(child)
		const lost = killBurst - ids.size
		const doubled = receiver.received.length - ids.size
		note(
			`after the kill: ${ids.size} distinct events of ${killBurst}, ${receiver.received.length} requests`,
		)
		return { lost, doubled }
	} finally {
		await receiver.close()
		await close()
	}
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('webhooks')
	const { hookLatency, pushLatency, pushRate, hookRate } = await pipelines(note)
	const { lost, doubled } = await killMidDelivery(target, note)
	const p99 = percentile(hookLatency, 99)
	const pushP99 = percentile(pushLatency, 99)
	return {
		rows: [
			row({
				bench: 'webhooks',
				figure: `publish to delivery p99, one every ${paceMs} ms (p50 ${ms(percentile(hookLatency, 50))})`,
				value: ms(p99),
				baseline: `${ms(pushP99)} (push, same articles; p50 ${ms(percentile(pushLatency, 50))})`,
				ratio: times(p99, pushP99),
			}),
			row({
				bench: 'webhooks',
				figure: `events/s, ${burst} published at once`,
				value: hookRate.toFixed(0),
				baseline: `${pushRate.toFixed(0)} (push notices/s, same burst)`,
				ratio: times(hookRate, pushRate),
			}),
			row({
				bench: 'webhooks',
				figure: `kill -9 mid-delivery, ${killBurst} events: lost / doubled`,
				value: `${lost} / ${doubled}`,
				target: '0 lost, ≤ 20 doubled',
				status: met(lost === 0 && doubled <= 20),
			}),
		],
		notes,
	}
}

if (import.meta.main) await runAlone(run)
