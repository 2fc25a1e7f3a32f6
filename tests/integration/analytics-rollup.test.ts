// The analytics roll-up on both databases: the hourly job rolls up the days older than the
// retention setting, and only those, leaving every figure of the dashboard as it was; the CLI
// shows and sets the setting and rolls up on demand.
import { beforeEach, describe, expect, it } from 'vitest'
import { analyticsRollupJob, viewRetention } from '#app/features/analytics/retention.server.ts'
import { startJob } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/logger.ts'
import type { AnalyticsDimension, DayRange, ScreenViewWrite } from '#storage/port/analytics.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { screenView } from '#tests/fixtures/analytics.ts'
import { runCli } from '#tests/fixtures/process.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'

const dayMs = 24 * 60 * 60 * 1000
const dimensions: AnalyticsDimension[] = [
	'page',
	'article',
	'entry',
	'exit',
	'referrer',
	'campaign',
	'device',
	'language',
]

function view(visitor: string, at: Date, path: string): ScreenViewWrite {
	return screenView(at, visitor.padEnd(64, '0'), path, {
		title: path === '/home' ? '' : 'Peat',
		referrerHost: 'search.example',
		device: 'mobile',
	})
}

describe.each(databases)('analytics roll-up: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	const logs: { level: string; msg: string }[] = []
	const logger = createLogger('debug', (line) => logs.push(JSON.parse(line)))

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))
	beforeEach(async () => {
		logs.length = 0
	})

	/** Two visitors, three views, at noon UTC `daysAgo` days before `now`. */
	async function viewsFrom(now: number, ...daysAgo: number[]) {
		await storage.analytics.record(
			daysAgo.flatMap((days) => {
				const noon = new Date(Math.floor((now - days * dayMs) / dayMs) * dayMs + dayMs / 2)
				return [
					view(`a${days}`, noon, '/home'),
					view(`a${days}`, new Date(noon.getTime() + 60_000), '/articles/peat'),
					view(`b${days}`, noon, '/articles/peat'),
				]
			}),
		)
	}

	async function figures(range: DayRange) {
		return {
			daily: await storage.analytics.daily(range),
			breakdowns: await Promise.all(
				dimensions.map((dimension) => storage.analytics.breakdown(range, dimension, 50)),
			),
		}
	}

	it('rolls up only the days older than the setting, and every figure stays the same', async () => {
		const now = Date.parse('2026-06-10T08:00:00Z')
		await viewsFrom(now, 0, 29, 30, 31, 90, 91, 92)
		const range = { from: '2026-03-01', to: '2026-06-10' }
		const before = await figures(range)
		expect(await storage.analytics.totals(range)).toEqual({ visitors: 14, views: 21, visits: 14 })

		const job = startJob(analyticsRollupJob, storage, logger, {
			intervalMs: 60 * 60 * 1000,
			clock: () => new Date(now),
		})
		try {
			// It ran on start, with the default of 90 days: 12 March (90 days ago) is kept, the two
			// days before it were rolled up; a step queued behind that one finds nothing left.
			expect(await job.runOnce()).toEqual({
				ok: true,
				retentionDays: 90,
				beforeDay: '2026-03-12',
				days: 0,
				views: 0,
			})
			expect(await storage.analytics.countViews()).toBe(15)
			expect(await figures(range)).toEqual(before)

			expect(await viewRetention.set(storage, '30')).toEqual({ ok: true, days: 30 })
			expect(await job.runOnce()).toEqual({
				ok: true,
				retentionDays: 30,
				beforeDay: '2026-05-11',
				days: 2,
				views: 6,
			})
			expect(await storage.analytics.countViews()).toBe(9)
			expect(await figures(range)).toEqual(before)
			// Every instance runs it: running again changes nothing.
			expect(await job.runOnce()).toMatchObject({ ok: true, days: 0, views: 0 })
		} finally {
			await job.stop()
		}
		expect(await figures(range)).toEqual(before)
		const rolled = logs.filter((entry) => entry.msg === 'analytics: old days rolled up')
		expect(rolled).toHaveLength(2)
	})

	it('rolls up nothing while the setting cannot be read, and says so once', async () => {
		const now = Date.parse('2026-06-10T08:00:00Z')
		await viewsFrom(now, 400)
		await storage.settings.set({ [viewRetention.key]: 'a season' })
		const job = startJob(analyticsRollupJob, storage, logger, { clock: () => new Date(now) })
		try {
			await job.runOnce()
			await job.runOnce()
		} finally {
			await job.stop()
		}
		expect(await storage.analytics.countViews()).toBe(3)
		const warnings = logs.filter((entry) => entry.level === 'warn')
		expect(warnings).toHaveLength(1)
		expect(warnings[0]?.msg).toContain(viewRetention.key)
	})

	// Each command is a process of its own: give them time on a busy machine.
	it('shows, sets and applies the retention from the CLI, refusing what is not a number of days', async () => {
		const env = database.env
		expect(await runCli(['analytics:retention'], env)).toMatchObject({
			code: 0,
			stdout: 'Screen views are kept for 90 days, then rolled up into daily totals.\n',
		})
		expect(await runCli(['analytics:retention', 'a year'], env)).toMatchObject({
			code: 1,
			stdout: '',
			stderr:
				'Screen view retention must be a whole number of days from 1 to 3650 (got "a year").\n',
		})
		expect(await runCli(['analytics:retention', '30'], env)).toMatchObject({
			code: 0,
			stdout:
				'Screen views are now kept for 30 days; older days are rolled up into daily totals within the hour.\n',
		})

		const now = Date.now()
		await viewsFrom(now, 5, 40)
		const kept = new Date(now - 30 * dayMs).toISOString().slice(0, 10)
		expect(await runCli(['analytics:rollup'], env)).toMatchObject({
			code: 0,
			stdout: `Rolled up 1 day before ${kept} (3 screen views) into daily totals.\n`,
		})
		expect(await storage.analytics.countViews()).toBe(3)
		expect((await runCli(['analytics:rollup'], env)).stdout).toBe(
			`Nothing to roll up: no screen views before ${kept}.\n`,
		)

		await storage.settings.set({ [viewRetention.key]: 'a season' })
		expect(await runCli(['analytics:rollup'], env)).toMatchObject({
			code: 1,
			stderr: expect.stringContaining(
				'Nothing was rolled up. Screen view retention must be a whole number of days',
			),
		})
	}, 60_000)
})
