// The periodic jobs' part of the storage contract (migration 0010): a pass is claimed by one
// holder at a time, only when due; a holder that stops renewing loses its claim when the lease
// runs out, and can then neither renew nor record the end of a pass someone else took over.
import { describe, expect, it } from 'vitest'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

const t0 = new Date('2026-05-01T10:00:00.000Z')
const at = (ms: number) => new Date(t0.getTime() + ms)
const minute = 60_000
const hour = 60 * minute

describe.each(databases)('job runs contract: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	it('gives a new job to the first claim, to nobody else while leased, and again once due', async () => {
		const first = await storage.jobs.claim('message-retention', 'a', t0, minute)
		expect(first).toEqual({
			claimed: true,
			run: {
				name: 'message-retention',
				nextRunAt: t0.toISOString(),
				leaseUntil: at(minute).toISOString(),
				holder: 'a',
				runs: 0,
				lastStartedAt: t0.toISOString(),
				lastFinishedAt: null,
			},
		})
		const refused = await storage.jobs.claim('message-retention', 'b', at(30_000), minute)
		expect(refused).toMatchObject({ claimed: false, run: { holder: 'a' } })
		// Another job is another row.
		expect((await storage.jobs.claim('push-cleanup', 'b', at(30_000), minute)).claimed).toBe(true)

		expect(await storage.jobs.finish('message-retention', 'a', at(hour), at(40_000))).toBe(true)
		const done = await storage.jobs.claim('message-retention', 'b', at(41_000), minute)
		expect(done).toEqual({
			claimed: false,
			run: {
				name: 'message-retention',
				nextRunAt: at(hour).toISOString(),
				leaseUntil: null,
				holder: 'a',
				runs: 1,
				lastStartedAt: t0.toISOString(),
				lastFinishedAt: at(40_000).toISOString(),
			},
		})
		expect((await storage.jobs.claim('message-retention', 'b', at(hour - 1), minute)).claimed).toBe(
			false,
		)
		expect(await storage.jobs.claim('message-retention', 'b', at(hour), minute)).toMatchObject({
			claimed: true,
			run: { holder: 'b', runs: 1, leaseUntil: at(hour + minute).toISOString() },
		})
	})

	it('lets another holder take over a lease that ran out, and shuts the first one out', async () => {
		await storage.jobs.claim('analytics-rollup', 'a', t0, minute)
		// Renewed while the pass runs: still a's a minute later.
		expect(await storage.jobs.renew('analytics-rollup', 'a', at(90_000))).toBe(true)
		expect((await storage.jobs.claim('analytics-rollup', 'b', at(minute), minute)).claimed).toBe(
			false,
		)
		// a dies: nobody renews, and the lease runs out.
		const taken = await storage.jobs.claim('analytics-rollup', 'b', at(90_000), minute)
		expect(taken).toMatchObject({ claimed: true, run: { holder: 'b' } })
		expect(await storage.jobs.renew('analytics-rollup', 'a', at(5 * minute))).toBe(false)
		expect(await storage.jobs.finish('analytics-rollup', 'a', at(hour), at(95_000))).toBe(false)
		expect(await storage.jobs.finish('analytics-rollup', 'b', at(hour), at(100_000))).toBe(true)
		expect(await storage.jobs.list()).toEqual([
			{
				name: 'analytics-rollup',
				nextRunAt: at(hour).toISOString(),
				leaseUntil: null,
				holder: 'b',
				runs: 1,
				lastStartedAt: at(90_000).toISOString(),
				lastFinishedAt: at(100_000).toISOString(),
			},
		])
		// A finished pass cannot be finished again, nor renewed.
		expect(await storage.jobs.finish('analytics-rollup', 'b', at(2 * hour), at(101_000))).toBe(
			false,
		)
		expect(await storage.jobs.renew('analytics-rollup', 'b', at(2 * hour))).toBe(false)
	})

	it('gives a due job to exactly one of many instances claiming at the same moment', async () => {
		// PostgreSQL: three more pools, as three more instances would have. SQLite: one handle per
		// process, whose claims queue for the one writer.
		const others =
			database.dialect === 'postgres' ? [database.open(), database.open(), database.open()] : []
		try {
			const handles = [storage, ...others]
			for (const round of [0, 1, 2]) {
				const now = at(round * hour)
				const claims = await Promise.all(
					Array.from({ length: 12 }, (_, i) =>
						(handles[i % handles.length] as Storage).jobs.claim(
							'privacy-cleanup',
							`holder-${i}`,
							now,
							minute,
						),
					),
				)
				const winners = claims.filter((claim) => claim.claimed)
				expect(winners).toHaveLength(1)
				const holder = winners[0]?.run.holder ?? ''
				for (const claim of claims) expect(claim.run.holder).toBe(holder)
				expect(
					await storage.jobs.finish('privacy-cleanup', holder, at((round + 1) * hour), now),
				).toBe(true)
			}
			expect((await storage.jobs.list())[0]?.runs).toBe(3)
		} finally {
			for (const other of others) await other.close()
		}
	})
})
