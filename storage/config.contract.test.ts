// The remote configuration part of the storage contract (migration 0009): versions 1, 2, 3 …
// published only on the current one, exactly one of two racing publishes winning, each with its
// change on the feed, and documents read back as they were written, on both databases.
import { describe, expect, it } from 'vitest'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { ConfigDocument, ConfigPublish } from './port/config.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

function banner(text: string): ConfigDocument {
	return { parameters: { banner_message: { serverDefault: text, conditions: [] } } }
}

function publishInput(document: ConfigDocument, baseVersion: number): ConfigPublish {
	return {
		document,
		baseVersion,
		createdBy: null,
		createdByName: 'The CLI',
		summary: `on ${baseVersion}`,
	}
}

describe.each(databases)('config storage contract: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	it('has no version before the first publish', async () => {
		expect(await storage.config.current()).toBeUndefined()
		expect(await storage.config.get(1)).toBeUndefined()
		expect(await storage.config.list({ limit: 10 })).toEqual([])
	})

	it('publishes versions 1, 2, 3 in order, each on the one before', async () => {
		const t0 = new Date('2026-05-01T10:00:00Z')
		const ids: number[] = []
		for (let base = 0; base < 3; base++) {
			const result = await storage.config.publish(
				publishInput(banner(`text ${base}`), base),
				new Date(t0.getTime() + base * 60_000),
			)
			if (!result.ok) throw new Error(`publish on ${base} refused`)
			ids.push(result.version.id)
		}
		expect(ids).toEqual([1, 2, 3])
		expect(await storage.config.current()).toEqual({
			id: 3,
			document: banner('text 2'),
			createdAt: '2026-05-01T10:02:00.000Z',
			createdBy: null,
			createdByName: 'The CLI',
			summary: 'on 2',
			restoredFrom: null,
		})
		expect((await storage.config.get(1))?.document).toEqual(banner('text 0'))
	})

	it('refuses a publish on a stale or unknown base and says which version is current', async () => {
		await storage.config.publish(publishInput(banner('a'), 0), new Date())
		await storage.config.publish(publishInput(banner('b'), 1), new Date())
		const latestChange = await storage.changes.latestId()
		for (const base of [0, 1, 3, 7, -1, 1.5]) {
			expect(
				await storage.config.publish(publishInput(banner('late'), base), new Date()),
				`base ${base}`,
			).toEqual({ ok: false, current: 2 })
		}
		expect((await storage.config.current())?.document).toEqual(banner('b'))
		expect(await storage.changes.latestId()).toBe(latestChange)
		expect(await storage.config.list({ limit: 10 })).toHaveLength(2)
	})

	it('lets exactly one of two concurrent publishes on the same base win', async () => {
		await storage.config.publish(publishInput(banner('first'), 0), new Date())
		// Two pools on PostgreSQL, so the race happens in the database and not in one pool's queue.
		const second = database.dialect === 'postgres' ? database.open() : storage
		try {
			for (let round = 1; round <= 5; round++) {
				const results = await Promise.all([
					storage.config.publish(publishInput(banner(`one ${round}`), round), new Date()),
					second.config.publish(publishInput(banner(`two ${round}`), round), new Date()),
				])
				const winners = results.filter((result) => result.ok)
				expect(winners, `round ${round}`).toHaveLength(1)
				expect(results.find((result) => !result.ok)).toEqual({ ok: false, current: round + 1 })
			}
			const versions = await storage.config.list({ limit: 10 })
			expect(versions.map((version) => version.id)).toEqual([6, 5, 4, 3, 2, 1])
		} finally {
			if (second !== storage) await second.close()
		}
	})

	it("appends a 'config' change with the new version's id in the same publish", async () => {
		const before = await storage.changes.latestId()
		const result = await storage.config.publish(publishInput(banner('x'), 0), new Date())
		expect(result.ok).toBe(true)
		const changes = await storage.changes.after(before, 10)
		expect(changes).toEqual([
			expect.objectContaining({ topic: 'config', entityId: '1', kind: 'modified' }),
		])
	})

	it('wakes watchers when a version is published', async () => {
		let woken = 0
		const stop = storage.changes.watch(() => woken++)
		try {
			// PostgreSQL's listener wakes once on connecting; count from after that.
			await new Promise((resolve) => setTimeout(resolve, 300))
			const start = woken
			await storage.config.publish(publishInput(banner('y'), 0), new Date())
			await expect.poll(() => woken, { timeout: 3_000 }).toBeGreaterThan(start)
		} finally {
			stop()
		}
	})

	it('lists newest first, a page at a time', async () => {
		for (let base = 0; base < 7; base++)
			await storage.config.publish(publishInput(banner(String(base)), base), new Date())
		const first = await storage.config.list({ limit: 3 })
		expect(first.map((version) => version.id)).toEqual([7, 6, 5])
		const next = await storage.config.list({ limit: 3, before: 5 })
		expect(next.map((version) => version.id)).toEqual([4, 3, 2])
		const last = await storage.config.list({ limit: 3, before: 2 })
		expect(last.map((version) => version.id)).toEqual([1])
		expect(await storage.config.list({ limit: 3, before: 1 })).toEqual([])
	})

	it('keeps who published, the summary and what a rollback restored', async () => {
		await storage.config.publish(publishInput(banner('old'), 0), new Date())
		await storage.config.publish(publishInput(banner('new'), 1), new Date())
		const rolledBack = await storage.config.publish(
			{ ...publishInput(banner('old'), 2), summary: 'Rolled back to version 1', restoredFrom: 1 },
			new Date(),
		)
		expect(rolledBack).toMatchObject({
			ok: true,
			version: { id: 3, restoredFrom: 1, summary: 'Rolled back to version 1' },
		})
		expect((await storage.config.get(3))?.restoredFrom).toBe(1)
	})

	it('reads a document back exactly as it was written', async () => {
		const document: ConfigDocument = {
			parameters: {
				banner_message: {
					serverDefault: 'Ça « marche » — 🌍 \\ "quoted" \n line two',
					conditions: [
						{
							rules: {
								percent: 12.5,
								languages: ['fr', 'pt'],
								devices: ['mobile', 'tablet'],
								from: '2026-05-01T10:00:00.000Z',
								until: '2026-06-01T00:00:00.000Z',
							},
							value: 'Bonjour',
						},
						{ rules: {}, value: '' },
					],
				},
				home_latest_count: {
					serverDefault: 0,
					conditions: [{ rules: { percent: 0.01 }, value: 12 }],
				},
				push_prompt_enabled: { conditions: [{ rules: { devices: ['desktop'] }, value: false }] },
				articles_page_size: { serverDefault: 50, conditions: [] },
			},
		}
		const result = await storage.config.publish(publishInput(document, 0), new Date())
		if (!result.ok) throw new Error('refused')
		expect(result.version.document).toEqual(document)
		const read = await storage.config.get(1)
		expect(read?.document).toEqual(document)
		// No property gained or lost, none turned into another type (0 stays 0, false stays false).
		expect(JSON.parse(JSON.stringify(read?.document))).toStrictEqual(document)
		expect(Object.keys(read?.document.parameters ?? {}).sort()).toEqual(
			Object.keys(document.parameters).sort(),
		)
	})
})
