// The analytics part of the storage contract (migration 0006), on both databases: the
// dashboard's figures over hand-built screen views whose every figure is worked out below, and
// the roll-up of old days into daily totals, which must leave every figure as it was.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { screenView } from '#tests/fixtures/analytics.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type {
	AnalyticsDimension,
	AnalyticsRow,
	DayRange,
	ScreenViewWrite,
} from './port/analytics.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

/** Visitor hashes as the site makes them: sha256 hex, here of a name. */
const visitor = (name: string) => createHash('sha256').update(name).digest('hex')

function view(
	name: string,
	at: string,
	path: string,
	more: Partial<ScreenViewWrite> = {},
): ScreenViewWrite {
	return screenView(new Date(at), visitor(name), path, more)
}

const spring = { utmCampaign: 'spring', utmSource: 'news', utmMedium: 'email' }
const a = { device: 'mobile', language: 'fr' } as const
const e = { device: 'mobile', language: 'fr', title: 'Kelp forests' } as const

/**
 * Three days with views (2 and 3 March, then 5 March), around days without any. Visitor a's
 * views 30 minutes apart stay one visit; 30 minutes and 1 ms later starts another.
 */
const views: ScreenViewWrite[] = [
	view('a', '2026-03-02T10:00:00.000Z', '/home', {
		...a,
		referrerHost: 'search.example',
		...spring,
	}),
	// Within a visit, a campaign or a referrer counts for nothing: only a visit's entry has them.
	view('a', '2026-03-02T10:10:00.000Z', '/articles/peat', {
		...a,
		title: 'Peat v1',
		utmCampaign: 'mid-visit',
	}),
	view('a', '2026-03-02T10:40:00.000Z', '/articles/peat', {
		...a,
		title: 'Peat v2',
		referrerHost: 'mid-visit.example',
	}),
	view('a', '2026-03-02T11:10:00.001Z', '/articles/kelp', { ...a, title: 'Kelp' }),
	view('b', '2026-03-02T12:00:00.000Z', '/home', { referrerHost: 'social.example' }),
	view('c', '2026-03-02T23:50:00.000Z', '/articles/peat', {
		title: 'Peat v3',
		device: 'tablet',
		language: '',
		utmSource: 'ref-partner',
	}),
	view('d', '2026-03-03T08:00:00.000Z', '/articles/peat', {
		title: 'Peat v4',
		referrerHost: 'search.example',
		...spring,
	}),
	view('d', '2026-03-03T08:20:00.000Z', '/home'),
	view('e', '2026-03-03T09:00:00.000Z', '/articles/kelp', e),
	view('e', '2026-03-03T09:45:00.000Z', '/articles/kelp', e),
	view('f', '2026-03-03T20:00:00.000Z', '/home', {
		referrerHost: 'search.example',
		language: 'de',
	}),
	view('g', '2026-03-05T14:00:00.000Z', '/home'),
	// Stored newest first: order comes from the time of each view, not from the order of writing.
].reverse()

const week: DayRange = { from: '2026-03-01', to: '2026-03-06' }
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
const row = (values: string[], visitors: number, views: number): AnalyticsRow => ({
	values,
	visitors,
	views,
})

/** Every figure of the week, as worked out by hand from `views` (per day, then summed). */
const expectedWeek: Record<AnalyticsDimension, AnalyticsRow[]> = {
	// /home: 2 + 2 + 1 visitors; /articles/peat: a, c on the 2nd, d on the 3rd.
	page: [row(['/home'], 5, 5), row(['/articles/peat'], 3, 4), row(['/articles/kelp'], 2, 3)],
	// Titles of the latest day with views: d's on the 3rd, e's on the 3rd.
	article: [
		row(['/articles/peat', 'Peat v4'], 3, 4),
		row(['/articles/kelp', 'Kelp forests'], 2, 3),
	],
	// Visits start at a's 10:00 and 11:10, b, c, d 08:00, e 09:00 and 09:45, f, g.
	entry: [row(['/home'], 4, 4), row(['/articles/kelp'], 2, 3), row(['/articles/peat'], 2, 2)],
	// Visits end at a's 10:40 and 11:10, b, c, d 08:20, e 09:00 and 09:45, f, g.
	exit: [row(['/home'], 4, 4), row(['/articles/kelp'], 2, 3), row(['/articles/peat'], 2, 2)],
	// Direct: a's second visit and c on the 2nd, e's two visits, g.
	referrer: [row([''], 4, 5), row(['search.example'], 3, 3), row(['social.example'], 1, 1)],
	campaign: [row(['spring', 'news', 'email'], 2, 2), row(['', 'ref-partner', ''], 1, 1)],
	device: [row(['desktop'], 4, 5), row(['mobile'], 2, 6), row(['tablet'], 1, 1)],
	// '' and 'de' tie on visitors and views: values A–Z, '' first.
	language: [row(['en'], 3, 4), row(['fr'], 2, 6), row([''], 1, 1), row(['de'], 1, 1)],
}

describe.each(databases)('analytics storage contract: $name', ({ name, create }) => {
	let database: TestDatabase
	let storage: Storage

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	/** Everything the dashboard reads over a range. */
	async function figures(range: DayRange) {
		const breakdowns: Record<string, AnalyticsRow[]> = {}
		for (const dimension of dimensions)
			breakdowns[dimension] = await storage.analytics.breakdown(range, dimension, 100)
		return {
			daily: await storage.analytics.daily(range),
			totals: await storage.analytics.totals(range),
			breakdowns,
		}
	}

	it('gives each day of a range, zeros included, and the range’s totals', async () => {
		await storage.analytics.record(views)
		expect(await storage.analytics.daily(week)).toEqual([
			{ day: '2026-03-01', visitors: 0, views: 0, visits: 0 },
			// a (2 visits), b, c; a's views 30 minutes apart are one visit.
			{ day: '2026-03-02', visitors: 3, views: 6, visits: 4 },
			// d (one visit, 20 minutes), e (two: 45 minutes apart), f.
			{ day: '2026-03-03', visitors: 3, views: 5, visits: 4 },
			{ day: '2026-03-04', visitors: 0, views: 0, visits: 0 },
			{ day: '2026-03-05', visitors: 1, views: 1, visits: 1 },
			{ day: '2026-03-06', visitors: 0, views: 0, visits: 0 },
		])
		expect(await storage.analytics.totals(week)).toEqual({ visitors: 7, views: 12, visits: 9 })
		expect(await storage.analytics.totals({ from: '2026-03-03', to: '2026-03-03' })).toEqual({
			visitors: 3,
			views: 5,
			visits: 4,
		})
		expect(await storage.analytics.daily({ from: '2026-02-27', to: '2026-02-28' })).toEqual([
			{ day: '2026-02-27', visitors: 0, views: 0, visits: 0 },
			{ day: '2026-02-28', visitors: 0, views: 0, visits: 0 },
		])
		await expect(storage.analytics.daily({ from: '2026-03-02', to: '2026-03-01' })).rejects.toThrow(
			RangeError,
		)
		await expect(
			storage.analytics.totals({ from: '2026-02-30', to: '2026-03-01' }),
		).rejects.toThrow(RangeError)
	})

	it('breaks a range down by every dimension, most visitors first', async () => {
		await storage.analytics.record(views)
		// All at once, as the dashboard asks, and then one by one.
		const together = await Promise.all(
			dimensions.map((dimension) => storage.analytics.breakdown(week, dimension, 10)),
		)
		expect(Object.fromEntries(dimensions.map((dimension, i) => [dimension, together[i]]))).toEqual(
			expectedWeek,
		)
		for (const dimension of dimensions) {
			expect(await storage.analytics.breakdown(week, dimension, 10), dimension).toEqual(
				expectedWeek[dimension],
			)
		}
	})

	it('breaks a single day down, with that day’s latest title and direct visits under ""', async () => {
		await storage.analytics.record(views)
		const second: DayRange = { from: '2026-03-02', to: '2026-03-02' }
		expect(await storage.analytics.breakdown(second, 'article', 10)).toEqual([
			// a twice (v1, v2) and c (v3, the day's latest view of it).
			row(['/articles/peat', 'Peat v3'], 2, 3),
			row(['/articles/kelp', 'Kelp'], 1, 1),
		])
		expect(await storage.analytics.breakdown(second, 'referrer', 10)).toEqual([
			row([''], 2, 2),
			row(['search.example'], 1, 1),
			row(['social.example'], 1, 1),
		])
		// Only visits that arrived with a campaign; c's `ref` counts as a source.
		expect(await storage.analytics.breakdown(second, 'campaign', 10)).toEqual([
			row(['', 'ref-partner', ''], 1, 1),
			row(['spring', 'news', 'email'], 1, 1),
		])
		// b's and c's single views each open and close a visit.
		expect(await storage.analytics.breakdown(second, 'entry', 10)).toEqual([
			row(['/home'], 2, 2),
			row(['/articles/kelp'], 1, 1),
			row(['/articles/peat'], 1, 1),
		])
		expect(await storage.analytics.breakdown(second, 'exit', 10)).toEqual([
			row(['/articles/peat'], 2, 2),
			row(['/articles/kelp'], 1, 1),
			row(['/home'], 1, 1),
		])
		expect(await storage.analytics.breakdown(second, 'device', 10)).toEqual([
			row(['mobile'], 1, 4),
			row(['desktop'], 1, 1),
			row(['tablet'], 1, 1),
		])
	})

	it('cuts a breakdown at the limit, ties ordered by value in code point order', async () => {
		await storage.analytics.record([
			...['/b', '/a', '/c', '/B'].map((path, i) => view(`tie${i}`, '2026-03-02T10:00:00Z', path)),
			view('z1', '2026-03-02T10:00:00Z', '/z'),
			view('z2', '2026-03-02T10:00:00Z', '/z'),
			view('y1', '2026-03-02T10:00:00Z', '/y'),
			view('y1', '2026-03-02T10:01:00Z', '/y'),
		])
		const paths = async (limit: number) =>
			(await storage.analytics.breakdown(week, 'page', limit)).map((row) => row.values[0])
		expect(await paths(10)).toEqual(['/z', '/y', '/B', '/a', '/b', '/c'])
		expect(await paths(3)).toEqual(['/z', '/y', '/B'])
		expect(await paths(0)).toEqual([])
	})

	it('keeps a visit through a gap of exactly 30 minutes, and ends it with its UTC day', async () => {
		await storage.analytics.record([
			view('x', '2026-03-02T10:00:00.000Z', '/one'),
			view('x', '2026-03-02T10:30:00.000Z', '/two'),
			view('x', '2026-03-02T11:00:00.001Z', '/three'),
			// The same hash after midnight (it should not happen: hashes last a day) is a new visit.
			view('x', '2026-03-02T23:55:00.000Z', '/four'),
			view('x', '2026-03-03T00:05:00.000Z', '/five'),
		])
		expect(await storage.analytics.totals(week)).toEqual({ visitors: 2, views: 5, visits: 4 })
		const paths = async (dimension: AnalyticsDimension) =>
			(await storage.analytics.breakdown(week, dimension, 10)).map((row) => row.values[0]).sort()
		expect(await paths('entry')).toEqual(['/five', '/four', '/one', '/three'])
		expect(await paths('exit')).toEqual(['/five', '/four', '/three', '/two'])
	})

	it('stores a batch of 2,000 views in one call and counts them all', async () => {
		const start = Date.parse('2026-03-04T08:00:00Z')
		// 50 visitors, each viewing 40 pages a minute apart: one visit each.
		const batch = Array.from({ length: 2_000 }, (_, i) =>
			view(
				`reader${i % 50}`,
				new Date(start + Math.floor(i / 50) * 60_000).toISOString(),
				`/p${i % 7}`,
			),
		)
		await storage.analytics.record(batch)
		expect(await storage.analytics.countViews()).toBe(2_000)
		expect(await storage.analytics.totals(week)).toEqual({ visitors: 50, views: 2_000, visits: 50 })
		const pages = await storage.analytics.breakdown(week, 'page', 10)
		expect(pages.reduce((sum, row) => sum + row.views, 0)).toBe(2_000)
	})

	it('counts the visitors seen at or after a moment', async () => {
		const now = Date.parse('2026-03-05T12:00:00Z')
		const since = new Date(now - 5 * 60_000)
		await storage.analytics.record([
			view('early', new Date(since.getTime() - 1).toISOString(), '/home'),
			view('on time', since.toISOString(), '/home'),
			view('reading', new Date(now - 60_000).toISOString(), '/home'),
			view('reading', new Date(now).toISOString(), '/articles'),
		])
		expect(await storage.analytics.activeVisitors(since)).toBe(2)
		expect(await storage.analytics.activeVisitors(new Date(now + 1))).toBe(0)
	})

	it('rolls old days up without changing a figure, once, and keeps no visitor hash', async () => {
		await storage.analytics.record(views)
		const ranges: DayRange[] = [
			week,
			{ from: '2026-03-01', to: '2026-03-03' },
			{ from: '2026-03-02', to: '2026-03-02' },
			{ from: '2026-03-03', to: '2026-03-05' },
			{ from: '2026-03-05', to: '2026-03-06' },
		]
		const before = await Promise.all(ranges.map(figures))
		expect(before[0]?.breakdowns).toEqual(expectedWeek)

		// The 2nd and 3rd are rolled up, the 5th stays raw: ranges wholly rolled up, wholly raw and
		// spanning both read the same.
		expect(await storage.analytics.rollUp('2026-03-04')).toEqual({ days: 2, views: 11 })
		expect(await storage.analytics.countViews()).toBe(1)
		expect(await Promise.all(ranges.map(figures))).toEqual(before)
		expect(await storage.analytics.rollUp('2026-03-04')).toEqual({ days: 0, views: 0 })
		expect(await Promise.all(ranges.map(figures))).toEqual(before)

		expect(await storage.analytics.rollUp('2026-03-07')).toEqual({ days: 1, views: 1 })
		expect(await storage.analytics.countViews()).toBe(0)
		expect(await Promise.all(ranges.map(figures))).toEqual(before)

		const stored = await storage.authDatabase.db.selectFrom('analytics_daily').selectAll().execute()
		expect(stored.length).toBeGreaterThan(0)
		const hashes = new Set(views.map((view) => view.visitor))
		for (const row of stored)
			for (const value of Object.values(row)) expect(hashes.has(String(value))).toBe(false)
	})

	it('counts views added, and days rolled up, since an earlier read, whoever wrote them', async () => {
		await storage.analytics.record(views)
		expect(await storage.analytics.totals(week)).toEqual({ visitors: 7, views: 12, visits: 9 })
		// PostgreSQL: another instance writes and rolls up. SQLite: one handle per process.
		const other = database.dialect === 'postgres' ? database.open() : storage
		try {
			// A third visit for e on the 3rd, and a new visitor on the 5th.
			await other.analytics.record([
				view('e', '2026-03-03T11:00:00.000Z', '/articles/kelp', e),
				view('h', '2026-03-05T09:00:00.000Z', '/articles/peat', { title: 'Peat v5' }),
			])
			expect(await storage.analytics.totals(week)).toEqual({ visitors: 8, views: 14, visits: 11 })
			expect(await storage.analytics.breakdown(week, 'article', 1)).toEqual([
				row(['/articles/peat', 'Peat v5'], 4, 5),
			])
			const before = await figures(week)
			expect(await other.analytics.rollUp('2026-03-04')).toEqual({ days: 2, views: 12 })
			expect(await figures(week)).toEqual(before)
		} finally {
			if (other !== storage) await other.close()
		}
	})

	// Only PostgreSQL lets a transaction commit a smaller id after a larger one: SQLite has one
	// writer at a time.
	if (name === 'postgres')
		it('counts a view whose transaction commits after a later one’s', async () => {
			await storage.analytics.record(views)
			let inserted = () => {}
			let release = () => {}
			const insertedFirst = new Promise<void>((resolve) => {
				inserted = resolve
			})
			const held = new Promise<void>((resolve) => {
				release = resolve
			})
			// Takes the smaller id, then commits last.
			const slow = storage.authDatabase.db.transaction().execute(async (trx) => {
				await trx
					.insertInto('analytics_events')
					.values({
						at_ms: Date.parse('2026-03-05T15:00:00Z'),
						day: '2026-03-05',
						visitor: visitor('late'),
						screen: 'home',
						path: '/home',
						title: '',
						previous_path: '',
						referrer_host: '',
						utm_source: '',
						utm_medium: '',
						utm_campaign: '',
						device: 'desktop',
						language: 'en',
					})
					.execute()
				inserted()
				await held
			})
			await insertedFirst
			await storage.analytics.record([view('early', '2026-03-05T16:00:00Z', '/home')])
			expect((await storage.analytics.totals(week)).views).toBe(13)
			release()
			await slow
			expect((await storage.analytics.totals(week)).views).toBe(14)
		})

	it('rolls each day up once when two instances run it at the same moment', async () => {
		const days = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']
		await storage.analytics.record(
			days.flatMap((day) =>
				Array.from({ length: 200 }, (_, i) =>
					view(
						`r${i % 30}`,
						`${day}T${String(8 + (i % 12)).padStart(2, '0')}:0${i % 10}:00Z`,
						`/p${i % 9}`,
						{
							referrerHost: i % 3 ? '' : 'search.example',
						},
					),
				),
			),
		)
		const before = await figures(week)
		// PostgreSQL: two pools, as two instances would have. SQLite: one handle per process.
		const second = database.dialect === 'postgres' ? database.open() : storage
		try {
			const runs = await Promise.all([
				storage.analytics.rollUp('2026-03-06'),
				second.analytics.rollUp('2026-03-06'),
			])
			expect(runs.reduce((sum, run) => sum + run.days, 0)).toBe(5)
			expect(runs.reduce((sum, run) => sum + run.views, 0)).toBe(1_000)
		} finally {
			if (second !== storage) await second.close()
		}
		expect(await storage.analytics.countViews()).toBe(0)
		expect(await figures(week)).toEqual(before)
		expect(before.totals.views).toBe(1_000)
	})
})
