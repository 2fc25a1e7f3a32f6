// Analytics (migration 0006), written once against Kysely for both adapters: screen views
// stored in batches, the dashboard's figures, and the roll-up of old days into daily totals.
import { setImmediate as nextTurn } from 'node:timers/promises'
import { type Kysely, sql } from 'kysely'
import type {
	AnalyticsDay,
	AnalyticsDimension,
	AnalyticsRepository,
	AnalyticsRow,
	DayRange,
} from '../port/analytics.ts'
import type { Dialect } from '../port/storage.ts'
import { allFigures, figuresFrom, viewColumns } from './analytics-figures.ts'
import { createFigureReader, type FigureRow } from './analytics-reads.ts'
import type { Database } from './schema.ts'

/** Rows per INSERT: 14 columns each stays well under either database's parameter limit. */
const insertChunk = 500
const dayMs = 24 * 60 * 60 * 1000
/** Names the roll-up's advisory locks, beside the adapter's own (open-postgres.ts). */
export const rollUpLock = 4_310_003

function dayStart(day: string): number {
	const at = Date.parse(`${day}T00:00:00Z`)
	// Date.parse takes 2026-02-30 for March 2nd: only a day that reads back the same is one.
	return /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(at).toISOString().startsWith(day)
		? at
		: Number.NaN
}

/** Every day of the range, oldest first. */
function daysOf({ from, to }: DayRange): string[] {
	const start = dayStart(from)
	const end = dayStart(to)
	if (!(start <= end)) throw new RangeError(`analytics: not a range of days: ${from} to ${to}`)
	const days: string[] = []
	for (let at = start; at <= end; at += dayMs) days.push(new Date(at).toISOString().slice(0, 10))
	return days
}

/** Values A–Z by code point (UTF-8 bytes), the same whichever database stored them. */
function compareValues(a: string[], b: string[]): number {
	for (let i = 0; i < a.length; i++) {
		const x = a[i] ?? ''
		const y = b[i] ?? ''
		if (x !== y) return Buffer.compare(Buffer.from(x), Buffer.from(y))
	}
	return 0
}

/** Sums per-day rows into a breakdown: most visitors first, then most views, then values A–Z. */
function breakdownOf(
	rows: FigureRow[],
	dimension: AnalyticsDimension,
	limit: number,
): AnalyticsRow[] {
	const parts = dimension === 'campaign' ? 3 : dimension === 'article' ? 2 : 1
	const groups = new Map<string, AnalyticsRow & { day: string }>()
	for (const row of rows) {
		const values = [row.value, row.value2, row.value3].slice(0, parts)
		// An article goes by the title of its latest day with views (that day's latest view).
		const key = dimension === 'article' ? row.value : JSON.stringify(values)
		const group = groups.get(key)
		if (!group) {
			groups.set(key, { values, visitors: row.visitors, views: row.views, day: row.day })
			continue
		}
		group.visitors += row.visitors
		group.views += row.views
		if (row.day > group.day) {
			group.day = row.day
			group.values = values
		}
	}
	return [...groups.values()]
		.sort(
			(a, b) => b.visitors - a.visitors || b.views - a.views || compareValues(a.values, b.values),
		)
		.slice(0, Math.max(0, limit))
		.map(({ values, visitors, views }) => ({ values, visitors, views }))
}

export function createAnalyticsRepository(
	db: Kysely<Database>,
	dialect: Dialect,
): AnalyticsRepository {
	const reader = createFigureReader(db, dialect)

	async function daily(range: DayRange): Promise<AnalyticsDay[]> {
		const days = daysOf(range)
		const byDay = new Map(days.map((day) => [day, { day, visitors: 0, views: 0, visits: 0 }]))
		for (const row of await reader.rows(range, 'total')) {
			const sum = byDay.get(row.day)
			if (!sum) continue
			sum.visitors += row.visitors
			sum.views += row.views
			sum.visits += row.visits
		}
		return [...byDay.values()]
	}

	/** Rolls one day up in its own transaction; returns the raw views it moved (0: none left). */
	function rollUpDay(day: string): Promise<number> {
		const columns = sql.raw('day, dimension, value, value2, value3, visitors, views, visits')
		return db.transaction().execute(async (trx) => {
			if (dialect === 'postgres') {
				// Instances rolling up together queue here; the one that follows finds the day's
				// views gone. The views counted are exactly those deleted: one statement, one snapshot.
				await sql`SELECT pg_advisory_xact_lock(${sql.lit(rollUpLock)}, hashtext(${day}))`.execute(
					trx,
				)
				const { rows } = await sql<{ views: number | string }>`WITH ${figuresFrom(
					sql`DELETE FROM analytics_events WHERE day = ${day} RETURNING ${viewColumns}`,
					allFigures,
				)}, stored AS (
					INSERT INTO analytics_daily (${columns}) SELECT ${columns} FROM figures
					ON CONFLICT DO NOTHING
				)
				SELECT COUNT(*) AS views FROM source`.execute(trx)
				return Number(rows[0]?.views ?? 0)
			}
			// SQLite: the transaction began IMMEDIATE, holding the one write lock to commit.
			// (WHERE true: without it SQLite would read ON CONFLICT as a join's ON.)
			await sql`WITH ${figuresFrom(
				sql`SELECT ${viewColumns} FROM analytics_events WHERE day = ${day}`,
				allFigures,
			)}
				INSERT INTO analytics_daily (${columns}) SELECT ${columns} FROM figures WHERE true
				ON CONFLICT DO NOTHING`.execute(trx)
			const deleted = await trx
				.deleteFrom('analytics_events')
				.where('day', '=', day)
				.executeTakeFirst()
			return Number(deleted.numDeletedRows)
		})
	}

	return {
		async record(views) {
			if (views.length === 0) return
			await db.transaction().execute(async (trx) => {
				for (let start = 0; start < views.length; start += insertChunk) {
					await trx
						.insertInto('analytics_events')
						.values(
							views.slice(start, start + insertChunk).map((view) => ({
								at_ms: view.at.getTime(),
								day: view.day ?? view.at.toISOString().slice(0, 10),
								visitor: view.visitor,
								screen: view.screen,
								path: view.path,
								title: view.title,
								previous_path: view.previousPath,
								referrer_host: view.referrerHost,
								utm_source: view.utmSource,
								utm_medium: view.utmMedium,
								utm_campaign: view.utmCampaign,
								device: view.device,
								language: view.language,
							})),
						)
						.execute()
				}
			})
		},
		daily,
		async totals(range) {
			const totals = { visitors: 0, views: 0, visits: 0 }
			for (const day of await daily(range)) {
				totals.visitors += day.visitors
				totals.views += day.views
				totals.visits += day.visits
			}
			return totals
		},
		async breakdown(range, dimension, limit) {
			daysOf(range)
			return breakdownOf(await reader.rows(range, dimension), dimension, limit)
		},
		async activeVisitors(since) {
			const row = await db
				.selectFrom('analytics_events')
				.select((eb) => eb.fn.count('visitor').distinct().as('count'))
				.where('at_ms', '>=', since.getTime())
				.executeTakeFirstOrThrow()
			return Number(row.count)
		},
		async rollUp(beforeDay) {
			const pending = await db
				.selectFrom('analytics_events')
				.select('day')
				.distinct()
				.where('day', '<', beforeDay)
				.orderBy('day')
				.execute()
			const done = { days: 0, views: 0 }
			for (const { day } of pending) {
				const views = await rollUpDay(day)
				reader.forget(day)
				// node:sqlite blocks while it works: let requests in between days.
				await nextTurn()
				if (views === 0) continue
				done.days++
				done.views += views
			}
			return done
		},
		async countViews() {
			const row = await db
				.selectFrom('analytics_events')
				.select((eb) => eb.fn.countAll().as('count'))
				.executeTakeFirstOrThrow()
			return Number(row.count)
		},
	}
}
