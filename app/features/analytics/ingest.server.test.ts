import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLogger } from '#server/logger.ts'
import type { ScreenViewWrite } from '#storage/port/analytics.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { sqliteDatabase, type TestDatabase } from '#tests/fixtures/storage.ts'
import { createScreenViewBuffer } from './ingest.server.ts'

const view = (n: number): ScreenViewWrite => ({
	at: new Date(Date.UTC(2026, 2, 1, 10, 0, n)),
	visitor: `visitor-${n}`,
	screen: 'article',
	path: `/articles/${n}`,
	title: `Article ${n}`,
	previousPath: '',
	referrerHost: '',
	utmSource: '',
	utmMedium: '',
	utmCampaign: '',
	device: 'desktop',
	language: 'en',
})

const until = async (check: () => Promise<boolean>, ms = 5_000) => {
	const end = Date.now() + ms
	while (!(await check())) {
		if (Date.now() > end) throw new Error('timed out')
		await new Promise((resolve) => setTimeout(resolve, 10))
	}
}

describe('the screen view buffer', () => {
	let database: TestDatabase
	let storage: Storage
	let logs: Record<string, unknown>[]
	const logger = createLogger('info', (line) => logs.push(JSON.parse(line)))

	beforeEach(async () => {
		logs = []
		database = sqliteDatabase()
		storage = database.open()
		await storage.migrate()
	})
	afterEach(async () => {
		await storage.close()
		await database.drop()
	})

	it('writes on its timer, not per view', async () => {
		const buffer = createScreenViewBuffer(storage, logger, { flushMs: 100 })
		for (let n = 0; n < 3; n++) expect(buffer.offer(view(n))).toBe(true)
		expect(await storage.analytics.countViews()).toBe(0)
		expect(buffer.queued()).toBe(3)
		await until(async () => (await storage.analytics.countViews()) === 3)
		expect(buffer.queued()).toBe(0)
		await buffer.close()
	})

	it('writes as soon as a batch is full, and the rest on close', async () => {
		const buffer = createScreenViewBuffer(storage, logger, { flushMs: 60_000, maxBatch: 4 })
		for (let n = 0; n < 6; n++) buffer.offer(view(n))
		await until(async () => (await storage.analytics.countViews()) === 4)
		expect(buffer.queued()).toBe(2)
		await buffer.close()
		expect(await storage.analytics.countViews()).toBe(6)
		expect(buffer.offer(view(7))).toBe(false)
	})

	it('refuses views past its bound, and says so once per flush', async () => {
		const buffer = createScreenViewBuffer(storage, logger, {
			flushMs: 60_000,
			maxBatch: 100,
			maxQueued: 3,
		})
		const taken = Array.from({ length: 10 }, (_, n) => buffer.offer(view(n)))
		expect(taken).toEqual([true, true, true, ...Array(7).fill(false)])
		await buffer.flush()
		expect(await storage.analytics.countViews()).toBe(3)
		const warnings = logs.filter((entry) => entry.level === 'warn')
		expect(warnings).toEqual([expect.objectContaining({ dropped: 7, maxQueued: 3 })])
		expect(buffer.offer(view(11))).toBe(true)
		await buffer.close()
	})

	it('keeps the views of a failed write and writes them at the next try', async () => {
		let failures = 1
		const flaky: Storage = {
			...storage,
			analytics: {
				...storage.analytics,
				record: (views) =>
					failures-- > 0
						? Promise.reject(new Error('database is locked'))
						: storage.analytics.record(views),
			},
		}
		const buffer = createScreenViewBuffer(flaky, logger, { flushMs: 60_000, maxQueued: 5 })
		for (let n = 0; n < 4; n++) buffer.offer(view(n))
		await buffer.flush()
		expect(await storage.analytics.countViews()).toBe(0)
		expect(buffer.queued()).toBe(4)
		expect(logs.filter((entry) => entry.level === 'error')).toEqual([
			expect.objectContaining({ queued: 4 }),
		])
		// Still bounded while the database is away.
		expect([buffer.offer(view(4)), buffer.offer(view(5))]).toEqual([true, false])
		await buffer.flush()
		expect(await storage.analytics.countViews()).toBe(5)
		await buffer.close()
	})
})
