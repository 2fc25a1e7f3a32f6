// Analytics (migration 0006), written once against Kysely for both adapters: screen views
// stored in batches, the dashboard's figures, and the roll-up of old days into daily totals.
import { type Kysely, sql } from 'kysely'
import { allFigures, type Figure, figuresFrom, viewColumns } from './analytics-figures.ts'
import type { Database } from './schema.ts'
import type { AnalyticsDay, AnalyticsRepository, DayRange, Dialect } from './types.ts'

/** Rows per INSERT: 14 columns each stays well under either database's parameter limit. */
const insertChunk = 500
const dayMs = 24 * 60 * 60 * 1000
/** Names the roll-up's advisory locks, beside the adapter's own (open-postgres.ts). */
const rollUpLock = 4_310_003

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

interface FigureRow {
	day: string
	value: string
	value2: string
	value3: string
	visitors: number | string
	views: number | string
	visits: number | string
}

export function createAnalyticsRepository(
	db: Kysely<Database>,
	dialect: Dialect,
): AnalyticsRepository {
	// Ties between values sort by code point on both databases, whatever PostgreSQL's locale.
	const byCodePoint = sql.raw(dialect === 'postgres' ? 'COLLATE "C"' : '')

	/** A figure's per-day rows over the range: from raw views, then from the stored days. */
	function figuresIn(range: DayRange, figure: Figure) {
		daysOf(range)
		return figuresFrom(
			sql`SELECT ${viewColumns} FROM analytics_events
				WHERE day >= ${range.from} AND day <= ${range.to}`,
			[figure],
			sql`SELECT day, dimension, value, value2, value3, visitors, views, visits
				FROM analytics_daily
				WHERE dimension = ${figure} AND day >= ${range.from} AND day <= ${range.to}`,
		)
	}

	async function daily(range: DayRange): Promise<AnalyticsDay[]> {
		const { rows } = await sql<FigureRow>`WITH ${figuresIn(range, 'total')}
			SELECT day, SUM(visitors) AS visitors, SUM(views) AS views, SUM(visits) AS visits
			FROM figures GROUP BY day`.execute(db)
		const byDay = new Map(rows.map((row) => [row.day, row]))
		return daysOf(range).map((day) => {
			const row = byDay.get(day)
			return {
				day,
				visitors: Number(row?.visitors ?? 0),
				views: Number(row?.views ?? 0),
				visits: Number(row?.visits ?? 0),
			}
		})
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
								day: view.at.toISOString().slice(0, 10),
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
			if (limit < 1) return []
			// An article is named by the title of its latest day (that day's latest view).
			const grouped =
				dimension === 'article'
					? sql`SELECT value, MAX(CASE WHEN recency = 1 THEN value2 END) AS value2, '' AS value3,
							SUM(visitors) AS visitors, SUM(views) AS views
						FROM (
							SELECT figures.*, ROW_NUMBER() OVER (PARTITION BY value ORDER BY day DESC) AS recency
							FROM figures
						) AS dated
						GROUP BY value`
					: sql`SELECT value, value2, value3, SUM(visitors) AS visitors, SUM(views) AS views
						FROM figures GROUP BY value, value2, value3`
			const { rows } = await sql<Omit<FigureRow, 'day' | 'visits'>>`WITH ${figuresIn(
				range,
				dimension,
			)}
				SELECT * FROM (${grouped}) AS grouped
				ORDER BY visitors DESC, views DESC,
					value ${byCodePoint}, value2 ${byCodePoint}, value3 ${byCodePoint}
				LIMIT ${limit}`.execute(db)
			const parts = dimension === 'campaign' ? 3 : dimension === 'article' ? 2 : 1
			return rows.map((row) => ({
				values: [row.value, row.value2, row.value3].slice(0, parts),
				visitors: Number(row.visitors),
				views: Number(row.views),
			}))
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
