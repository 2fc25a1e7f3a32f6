// Canopy's live stream in a process of its own, built from the same parts as server/index.ts,
// so the benchmark can publish in-process: T0 is taken just before saveArticle(), which writes
// the article and wakes the broker at once. Driven over IPC by bench/live-fanout.ts.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { saveArticle } from '#app/features/articles/articles.server.ts'
import { clientBuildDir, loadBuild } from '#server/build.ts'
import { composeCanopy } from '#server/compose.ts'
import { loadConfig } from '#server/env.ts'
import { createLogger } from '#server/logger.ts'
import { seedIfEmpty } from '#server/seed.ts'
import { storageRules } from '#server/storage-rules.ts'
import { openStorage } from '#storage/open-storage.ts'
import { answerCalls, clock, settledMemory } from './ipc.ts'

const config = loadConfig(process.env)
const logger = createLogger(config.logLevel)
const storage = openStorage(config, storageRules)
await storage.migrate()
await seedIfEmpty(storage)
// No background jobs: nothing but the publishes under test touches the database.
const { broker, listener } = await composeCanopy({
	config,
	storage,
	logger,
	build: await loadBuild(),
	mode: 'production',
	clientDir: clientBuildDir,
	pageCache: true,
	jobs: {
		scheduledPublishing: false,
		mailOutbox: false,
		messageRetention: false,
		privacyCleanup: false,
		changePruning: false,
		pushDelivery: false,
		pushCleanup: false,
		uploadCleaning: false,
		imageVersions: false,
		newsletterDelivery: false,
		newsletterDigest: false,
		newsletterCleanup: false,
		webhookDelivery: false,
		webhookCleanup: false,
	},
})

const port = await new Promise<number>((resolve) => {
	const server = createServer(listener)
	server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
})

const body = Array.from(
	{ length: 6 },
	(_, i) =>
		`Paragraph ${i + 1}. Restoring wetlands stores carbon, holds back floods and gives birds a place to rest. ` +
		'Communities that look after them see cleaner water and more fish, and the work pays for itself within years.',
).join('\n\n')
let published = 0

answerCalls({
	ready: () => ({ port, path: '/api/articles/stream' }),
	size: () => broker.size,
	memory: () => settledMemory(),
	clock: () => clock(),
	publish: async () => {
		published++
		const t0 = clock()
		const result = await saveArticle(
			storage,
			{
				title: `Wetlands are carbon stores, report ${published}`,
				slug: `bench-fanout-${process.pid}-${published}`,
				summary:
					'A new survey counts what restored wetlands give back: carbon, clean water, fewer floods.',
				body,
				author: 'Bench Reporter',
				tags: ['wetlands', 'climate'],
			},
			'published',
		)
		const saved = clock()
		if (!result.ok || !result.change) throw new Error(`publish failed: ${JSON.stringify(result)}`)
		return { id: result.change.id, t0, saveMs: saved - t0 }
	},
	stop: () => {
		broker.close()
		setTimeout(() => process.exit(0), 20)
		return true
	},
})
