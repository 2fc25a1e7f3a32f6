// Periodic jobs on two real server processes sharing one PostgreSQL database: each runs once per
// interval across the two, and a roll-up whose instance is killed with SIGKILL mid-pass is taken
// over by the other once its lease runs out, every day counted once.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rollUpLock } from '#storage/kysely/analytics-repositories.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { screenView } from '#tests/fixtures/analytics.ts'
import { type Instances, startInstances } from '#tests/fixtures/instances.ts'
import { postgresUrl } from '#tests/fixtures/storage.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const dayMs = 24 * 60 * 60 * 1000

describe.runIf(postgresUrl)('periodic jobs on two instances on one PostgreSQL database', () => {
	const intervalMs = 2_000
	const leaseMs = 3_000
	let site: Instances
	let storage: Storage

	beforeAll(async () => {
		site = await startInstances(2, {
			env: {
				JOB_INTERVAL_SECONDS: String(intervalMs / 1000),
				JOB_LEASE_SECONDS: String(leaseMs / 1000),
				LOG_LEVEL: 'debug',
			},
		})
		storage = site.database.open()
	}, 120_000)
	afterAll(async () => {
		await storage?.close()
		await site?.close()
	}, 60_000)

	/** Every pass an instance started, as its log says: the job, the holder, the claim's time. */
	function passesStarted() {
		const passes: { job: string; holder: string; at: number }[] = []
		for (const instance of site.instances) {
			for (const line of instance.output().split('\n')) {
				if (!line.includes('pass started')) continue
				const entry = JSON.parse(line) as { job: string; holder: string; claimedAt: string }
				passes.push({ job: entry.job, holder: entry.holder, at: Date.parse(entry.claimedAt) })
			}
		}
		return passes.sort((x, y) => x.at - y.at)
	}

	it('runs each periodic job once per interval across the two', async () => {
		await sleep(9_000)
		const passes = passesStarted()
		const jobs = [
			'analytics-rollup',
			'change-pruning',
			'message-retention',
			'newsletter-digest',
			'newsletter-unconfirmed',
			'privacy-cleanup',
			'push-cleanup',
			'upload-cleaning',
			'webhook-cleanup',
		]
		expect([...new Set(passes.map((pass) => pass.job))].sort()).toEqual(jobs)
		for (const job of jobs) {
			const starts = passes.filter((pass) => pass.job === job).map((pass) => pass.at)
			// At start and about every 2 s after: each instance on its own would make it twice as many.
			expect(starts.length, job).toBeGreaterThanOrEqual(3)
			for (const [i, at] of starts.entries()) {
				const next = starts[i + 1]
				if (next !== undefined) expect(next - at, job).toBeGreaterThanOrEqual(intervalMs)
			}
		}
		const holders = new Set(passes.map((pass) => pass.holder))
		for (const holder of holders)
			expect(site.instances.some((instance) => holder.includes(`:${instance.pid}:`))).toBe(true)
		const rows = await storage.jobs.list()
		expect(rows.map((row) => row.name)).toEqual(jobs)
	})

	it('takes over a roll-up whose instance was killed mid-pass once its lease runs out, counting each day once', async () => {
		const days = [400, 399, 398, 397].map((ago) => new Date(Date.now() - ago * dayMs))
		const dayOf = (at: Date) => at.toISOString().slice(0, 10)
		const range = { from: dayOf(days[0] as Date), to: dayOf(new Date()) }
		// Another session holds the second day's roll-up lock: the pass that takes the job rolls
		// the first day up, then waits there, holding the job's lease.
		const blocker = new pg.Client({ connectionString: postgresUrl })
		await blocker.connect()
		try {
			await blocker.query('SELECT pg_advisory_lock($1, hashtext($2))', [
				rollUpLock,
				dayOf(days[1] as Date),
			])
			await storage.analytics.record(
				days.flatMap((day, d) =>
					[0, 1, 2].map((v) =>
						screenView(day, `visitor-${d}-${v}`, v === 2 ? '/contact' : '/home'),
					),
				),
			)
			const before = {
				totals: await storage.analytics.totals(range),
				daily: await storage.analytics.daily(range),
			}
			expect(before.totals.views).toBe(12)

			// Within an interval a pass claims the job, rolls up day one and blocks on day two.
			await expect
				.poll(async () => (await storage.analytics.countViews()) === 9, {
					timeout: 15_000,
					interval: 50,
				})
				.toBe(true)
			const holding = (await storage.jobs.list()).find((row) => row.name === 'analytics-rollup')
			const victim = site.instances.find((instance) =>
				holding?.holder?.includes(`:${instance.pid}:`),
			)
			const survivor = site.instances.find((instance) => instance !== victim)
			if (!victim || !survivor)
				throw new Error(`no instance holds the roll-up: ${JSON.stringify(holding)}`)
			await victim.kill()
			const killedAt = Date.now()
			const left = (await storage.jobs.list()).find((row) => row.name === 'analytics-rollup')
			await blocker.query('SELECT pg_advisory_unlock($1, hashtext($2))', [
				rollUpLock,
				dayOf(days[1] as Date),
			])

			await expect
				.poll(
					async () => (await storage.jobs.list()).find((row) => row.name === 'analytics-rollup'),
					{
						timeout: 20_000,
						interval: 50,
					},
				)
				.toMatchObject({ holder: expect.stringContaining(`:${survivor.pid}:`), leaseUntil: null })
			const taken = (await storage.jobs.list()).find((row) => row.name === 'analytics-rollup')
			const leaseEnd = Date.parse(left?.leaseUntil ?? '')
			const takenAt = Date.parse(taken?.lastStartedAt ?? '')
			console.log(
				`roll-up taken over ${takenAt - killedAt} ms after the SIGKILL, ${takenAt - leaseEnd} ms after the lease ran out (lease ${leaseMs} ms)`,
			)
			expect(takenAt).toBeGreaterThanOrEqual(leaseEnd)
			expect(takenAt - leaseEnd).toBeLessThan(2_000)
			// Every day rolled up, day one by the instance killed, the rest by the survivor: the
			// figures are what they were, so no day was counted twice nor lost.
			expect(await storage.analytics.countViews()).toBe(0)
			expect(await storage.analytics.totals(range)).toEqual(before.totals)
			expect(await storage.analytics.daily(range)).toEqual(before.daily)
		} finally {
			await blocker.end()
		}
	})
})
