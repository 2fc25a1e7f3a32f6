// Periodic jobs shared by several instances on one database (server/jobs/periodic.ts), on both
// databases: a pass runs once per interval whoever runs it, a slow pass keeps its claim, a claim
// left by a dead instance is taken over when its lease runs out (not before), and a restart does
// not repeat a pass that is not due. (tests/integration/instances-jobs.test.ts does the same with real
// processes and SIGKILL.)
import { describe, expect, it } from 'vitest'
import { type PeriodicJob, startPeriodic } from '#server/jobs/periodic.ts'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const quiet = createLogger('silent')

describe.each(databases)('periodic jobs across instances on $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	/** Another instance's handle: its own pool on PostgreSQL, the same handle on SQLite. */
	const otherHandle = () => (database.dialect === 'postgres' ? database.open() : storage)

	interface Pass {
		holder: string
		startedAt: number
		endedAt: number
	}

	/** An instance running the job `name`, recording its passes into `passes`. */
	function instance(
		handle: Storage,
		holder: string,
		passes: Pass[],
		timing: { intervalMs: number; leaseMs: number; passMs?: number },
		name = 'test-job',
	): PeriodicJob<void> {
		return startPeriodic(
			handle,
			quiet,
			{
				name,
				async pass() {
					const startedAt = Date.now()
					await sleep(timing.passMs ?? 0)
					passes.push({ holder, startedAt, endedAt: Date.now() })
				},
			},
			{ ...timing, holder },
		)
	}

	it('runs a pass once per interval across two instances, never two at once', async () => {
		const other = otherHandle()
		const passes: Pass[] = []
		const timing = { intervalMs: 400, leaseMs: 2_000, passMs: 50 }
		const began = Date.now()
		const jobs = [instance(storage, 'a', passes, timing), instance(other, 'b', passes, timing)]
		await sleep(2_500)
		await Promise.all(jobs.map((job) => job.stop()))
		const elapsed = Date.now() - began
		if (other !== storage) await other.close()

		// Each on its own would have run ~2 × elapsed / interval passes between them.
		expect(passes.length).toBeGreaterThanOrEqual(2)
		expect(passes.length).toBeLessThanOrEqual(Math.floor(elapsed / timing.intervalMs) + 1)
		passes.sort((x, y) => x.startedAt - y.startedAt)
		for (const [i, pass] of passes.entries()) {
			const next = passes[i + 1]
			if (next) expect(next.startedAt).toBeGreaterThanOrEqual(pass.endedAt)
		}
		const [run] = await storage.jobs.list()
		expect(run).toMatchObject({ name: 'test-job', runs: passes.length, leaseUntil: null })
	})

	it('keeps the claim through a pass longer than the lease, renewing it', async () => {
		const other = otherHandle()
		const passes: Pass[] = []
		const slow = instance(storage, 'slow', passes, {
			intervalMs: 60_000,
			leaseMs: 900,
			passMs: 2_700,
		})
		await sleep(100)
		const waiting = instance(other, 'waiting', passes, { intervalMs: 60_000, leaseMs: 900 })
		await sleep(3_300)
		await Promise.all([slow.stop(), waiting.stop()])
		if (other !== storage) await other.close()
		// Three leases long, and nobody else ran a pass meanwhile; once done, it is not due for a minute.
		expect(passes.map((pass) => pass.holder)).toEqual(['slow'])
		expect((await storage.jobs.list())[0]).toMatchObject({ holder: 'slow', runs: 1 })
	})

	it('takes over a claim left by a dead instance when its lease runs out, not before', async () => {
		const claimedAt = new Date()
		// An instance claimed the pass, then died: it will never renew or finish.
		const dead = await storage.jobs.claim('test-job', 'dead', claimedAt, 1_500)
		expect(dead.claimed).toBe(true)
		const leaseEnd = claimedAt.getTime() + 1_500
		const passes: Pass[] = []
		const survivor = instance(storage, 'survivor', passes, { intervalMs: 60_000, leaseMs: 1_500 })
		await sleep(3_000)
		await survivor.stop()
		expect(passes).toHaveLength(1)
		const takeover = (passes[0]?.startedAt ?? 0) - leaseEnd
		expect(takeover).toBeGreaterThanOrEqual(0)
		// Woken by its timer at the lease's end, not by a poll a long while after.
		expect(takeover).toBeLessThan(1_000)
		expect((await storage.jobs.list())[0]).toMatchObject({ holder: 'survivor', runs: 1 })
	})

	it('does not run again after a restart within the interval, unless asked to', async () => {
		const passes: Pass[] = []
		const first = instance(storage, 'before', passes, { intervalMs: 60_000, leaseMs: 1_000 })
		await expect.poll(() => passes.length).toBe(1)
		await first.stop()
		const restarted = instance(storage, 'after', passes, { intervalMs: 60_000, leaseMs: 1_000 })
		await sleep(500)
		expect(passes.map((pass) => pass.holder)).toEqual(['before'])
		// runOnce is for tests and operations: a pass now, whatever the schedule.
		await restarted.runOnce()
		await restarted.stop()
		expect(passes.map((pass) => pass.holder)).toEqual(['before', 'after'])
		expect((await storage.jobs.list())[0]).toMatchObject({ holder: 'before', runs: 1 })
	})
})
