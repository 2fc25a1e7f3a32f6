// The dashboard's reads: a range's figures are summed from per-day rows, those of rolled-up days
// as stored, those of raw days computed by the roll-up's own SQL (analytics-figures.ts).
//
// A raw day's rows are kept in memory with a mark of its views, and computed again only when the
// mark changes. Computing them is the costly part: 90 days of 10,000 views take SQLite seconds,
// and node:sqlite blocks the process meanwhile, so without the memory a dashboard of ten reads
// would go over every raw view ten times. With it, only today's views are read again. Raw days
// are computed one at a time, letting requests in between.
import { setImmediate as nextTurn } from 'node:timers/promises'
import { type Kysely, sql } from 'kysely'
import type { DayRange } from '../port/analytics.ts'
import type { Dialect } from '../port/storage.ts'
import { allFigures, type Figure, figuresFrom, viewColumns } from './analytics-figures.ts'
import type { Database } from './schema.ts'

export interface FigureRow {
	day: string
	value: string
	value2: string
	value3: string
	visitors: number
	views: number
	visits: number
}

interface RawFigureRow extends Omit<FigureRow, 'visitors' | 'views' | 'visits'> {
	dimension: string
	visitors: number | string
	views: number | string
	visits: number | string
}

/** A raw day's rows of every figure, and the mark of the views they were computed from. */
interface DayFigures {
	mark: string
	figures: Map<string, FigureRow[]>
	size: number
}

/** Rows with this dimension carry a raw day's mark, not a figure. */
const markDimension = '#'
/** Rows kept in memory, all days together (~150 bytes each): the least recently read go first. */
const keptRows = 250_000

export interface FigureReader {
	/**
	 * A figure's rows over the range: per raw day, computed; for the rolled-up days, summed per
	 * value (per day for 'total'), dated by the latest day.
	 */
	rows(range: DayRange, figure: Figure): Promise<FigureRow[]>
	/** Drops a day's computed rows (its views were rolled up). */
	forget(day: string): void
}

function toRow(row: RawFigureRow): FigureRow {
	return {
		day: row.day,
		value: row.value,
		value2: row.value2,
		value3: row.value3,
		visitors: Number(row.visitors),
		views: Number(row.views),
		visits: Number(row.visits),
	}
}

const markOf = (row: RawFigureRow) => `${row.visitors}/${row.views}`

/**
 * One closure over the per-day figures kept in memory (each instance's own copy): its methods,
 * each short, share that cache.
 */
export function createFigureReader(db: Kysely<Database>, dialect: Dialect): FigureReader {
	// A day's views are only ever added, or rolled up all together, and an added view changes the
	// mark. SQLite gives ids out in commit order (one writer at a time), so a day's latest id is
	// enough: an index seek. PostgreSQL can commit a smaller id after a larger one: it adds the
	// count (visitors and views carry the mark's two parts).
	const markColumns = sql.raw(dialect === 'postgres' ? 'COUNT(*), MAX(id)' : '0, MAX(id)')
	const memory = new Map<string, DayFigures>()
	let kept = 0
	let computing: Promise<void> | undefined

	/** In one snapshot: each raw day of the range with its mark, and the figure's stored rows. */
	async function snapshot({ from, to }: DayRange, figure: Figure) {
		const marks =
			dialect === 'postgres'
				? sql`SELECT day, ${sql.lit(markDimension)} AS dimension, '' AS value, '' AS value2,
						'' AS value3, COUNT(*) AS visitors, MAX(id) AS views, 0 AS visits
					FROM analytics_events WHERE day >= ${from} AND day <= ${to} GROUP BY day`
				: // Day by day through the day index: a few seeks a day, not a pass over every view.
					sql`WITH RECURSIVE present (day) AS (
						SELECT MIN(day) FROM analytics_events WHERE day >= ${from} AND day <= ${to}
						UNION ALL
						SELECT (SELECT MIN(day) FROM analytics_events WHERE day > present.day AND day <= ${to})
						FROM present WHERE present.day IS NOT NULL
					)
					SELECT day, ${sql.lit(markDimension)} AS dimension, '' AS value, '' AS value2,
						'' AS value3, 0 AS visitors,
						(SELECT MAX(id) FROM analytics_events WHERE analytics_events.day = present.day) AS views,
						0 AS visits
					FROM present WHERE day IS NOT NULL`
		// Stored rows come summed over the range, but for the daily totals; a sum goes by its latest
		// day (an article's title is that of its latest day).
		const stored =
			figure === 'total'
				? sql`SELECT day, dimension, value, value2, value3, visitors, views, visits
					FROM analytics_daily
					WHERE dimension = ${figure} AND day >= ${from} AND day <= ${to}`
				: sql`SELECT MAX(day), dimension, value, value2, value3,
						SUM(visitors), SUM(views), SUM(visits)
					FROM analytics_daily
					WHERE dimension = ${figure} AND day >= ${from} AND day <= ${to}
					GROUP BY dimension, value, value2, value3`
		const { rows } = await sql<RawFigureRow>`${marks} UNION ALL ${stored}`.execute(db)
		return {
			marks: rows.filter((row) => row.dimension === markDimension),
			stored: rows.filter((row) => row.dimension !== markDimension).map(toRow),
		}
	}

	function remember(day: string, figures: DayFigures) {
		forget(day)
		memory.set(day, figures)
		kept += figures.size
		for (const [oldest, old] of memory) {
			if (kept <= keptRows || oldest === day) break
			memory.delete(oldest)
			kept -= old.size
		}
	}

	function forget(day: string) {
		const known = memory.get(day)
		if (!known) return
		memory.delete(day)
		kept -= known.size
	}

	/** Computes raw days' rows of every figure into `found`; a day rolled up meanwhile is left out. */
	async function compute(days: string[], found: Map<string, DayFigures>) {
		for (const day of days) {
			const { rows } = await sql<RawFigureRow>`WITH ${figuresFrom(
				sql`SELECT ${viewColumns} FROM analytics_events WHERE day = ${day}`,
				allFigures,
				sql`SELECT day, ${sql.lit(markDimension)}, '', '', '', ${markColumns}, 0
					FROM source GROUP BY day`,
			)}
				SELECT * FROM figures`.execute(db)
			const mark = rows.find((row) => row.dimension === markDimension)
			if (mark) {
				const figures = new Map<string, FigureRow[]>()
				for (const row of rows) {
					if (row === mark) continue
					const list = figures.get(row.dimension) ?? []
					list.push(toRow(row))
					figures.set(row.dimension, list)
				}
				const computed = { mark: markOf(mark), figures, size: rows.length }
				remember(day, computed)
				found.set(day, computed)
			}
			await nextTurn()
		}
	}

	/** Every marked day's rows, computed where not known at that mark; undefined if one is gone. */
	async function rawDays(marks: RawFigureRow[]): Promise<Map<string, DayFigures> | undefined> {
		const found = new Map<string, DayFigures>()
		const unknown = (list: RawFigureRow[]) =>
			list.filter((mark) => {
				const known = memory.get(mark.day)
				if (known?.mark !== markOf(mark)) return true
				// Read again: last to go.
				memory.delete(mark.day)
				memory.set(mark.day, known)
				found.set(mark.day, known)
				return false
			})
		let missing = unknown(marks)
		// A dashboard asks for its figures all at once: the first read computes, the others wait.
		while (missing.length > 0 && computing) {
			await computing.catch(() => {})
			missing = unknown(missing)
		}
		if (missing.length > 0) {
			const run = compute(
				missing.map((mark) => mark.day),
				found,
			)
			computing = run
			try {
				await run
			} finally {
				if (computing === run) computing = undefined
			}
		}
		return marks.every((mark) => found.has(mark.day)) ? found : undefined
	}

	return {
		async rows(range, figure) {
			for (let attempt = 1; ; attempt++) {
				const { marks, stored } = await snapshot(range, figure)
				const days = await rawDays(marks)
				if (days) {
					return stored.concat(
						marks.flatMap((mark) => days.get(mark.day)?.figures.get(figure) ?? []),
					)
				}
				// A day was rolled up between the snapshot and its computing: its rows are stored now.
				if (attempt === 3) throw new Error('analytics: the views kept changing during a read')
			}
		},
		forget,
	}
}
