// The moving-in part of the storage contract (migration 0024): an import's row, written by its
// own process (progress, then the report or the error), read by any instance's page.
import { describe, expect, it } from 'vitest'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

describe.each(databases)('moving-in storage contract: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	const start = (id: string, at: Date) =>
		storage.moveIns.create(
			{
				id,
				format: 'wordpress',
				dryRun: true,
				fileName: 'site.xml',
				withImages: false,
				startedBy: null,
			},
			at,
			new Date(at.getTime() - 30_000),
		)

	it('keeps a run from its start to its report, newest first in the list', async () => {
		const t0 = new Date('2026-11-27T09:00:00Z')
		const made = await start('a1', t0)
		expect(made).toEqual({
			id: 'a1',
			format: 'wordpress',
			dryRun: true,
			fileName: 'site.xml',
			withImages: false,
			state: 'running',
			progress: { phase: 'starting', posts: 0, total: null },
			report: null,
			error: null,
			startedBy: null,
			startedAt: t0.toISOString(),
			updatedAt: t0.toISOString(),
			finishedAt: null,
		})
		const t1 = new Date('2026-11-27T09:00:05Z')
		await storage.moveIns.progress('a1', { phase: 'importing', posts: 40, total: 90 }, t1)
		expect(await storage.moveIns.find('a1')).toMatchObject({
			progress: { phase: 'importing', posts: 40, total: 90 },
			updatedAt: t1.toISOString(),
		})
		const t2 = new Date('2026-11-27T09:01:00Z')
		await storage.moveIns.finish('a1', { report: { articles: 90, skipped: [] } }, t2)
		// Progress after the end changes nothing.
		await storage.moveIns.progress('a1', { phase: 'importing', posts: 1, total: 90 }, t2)
		expect(await storage.moveIns.find('a1')).toMatchObject({
			state: 'done',
			report: { articles: 90, skipped: [] },
			progress: { posts: 40 },
			finishedAt: t2.toISOString(),
		})
		await start('b2', new Date('2026-11-27T10:00:00Z'))
		await storage.moveIns.finish('b2', { error: 'Nothing was imported. Broken.' }, new Date())
		expect((await storage.moveIns.recent(5)).map((run) => [run.id, run.state, run.error])).toEqual([
			['b2', 'failed', 'Nothing was imported. Broken.'],
			['a1', 'done', null],
		])
		expect(await storage.moveIns.find('nope')).toBeUndefined()
	})

	it('runs one import at a time, unless the running one’s process stopped long ago', async () => {
		const t0 = new Date('2026-11-27T09:00:00Z')
		expect(await start('first', t0)).toMatchObject({ state: 'running' })
		// Another, while the first writes its progress: refused.
		expect(await start('second', new Date(t0.getTime() + 10_000))).toBeUndefined()
		await storage.moveIns.progress(
			'first',
			{ phase: 'importing', posts: 1, total: 9 },
			new Date(t0.getTime() + 20_000),
		)
		expect(await start('third', new Date(t0.getTime() + 40_000))).toBeUndefined()
		// Silent for over 30 s: stopped with its server; it is closed, and the next one runs.
		const later = new Date(t0.getTime() + 60_000)
		expect(await start('fourth', later)).toMatchObject({ id: 'fourth', state: 'running' })
		expect(await storage.moveIns.find('first')).toMatchObject({
			state: 'failed',
			error: expect.stringMatching(/stopped when its server did/),
		})
		// Its late end (a process that was only slow) changes nothing.
		await storage.moveIns.finish('first', { report: {} }, later)
		expect((await storage.moveIns.find('first'))?.state).toBe('failed')
	})
})
