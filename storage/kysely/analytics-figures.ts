// The one definition of every analytics figure, as SQL shared by the dashboard's reads and the
// roll-up: raw screen views become rows of (day, dimension, value, value2, value3, visitors,
// views, visits), the very shape of analytics_daily. A read sums these rows with the stored
// ones; the roll-up stores them. Both go through the same SQL, so a figure cannot change when
// its day is rolled up.
import { type RawBuilder, sql } from 'kysely'
import type { AnalyticsDimension } from '../port/analytics.ts'

/** A figure kept per day: the day's totals, or one of the dashboard's breakdowns. */
export type Figure = 'total' | AnalyticsDimension

export const allFigures: Figure[] = [
	'total',
	'page',
	'article',
	'entry',
	'exit',
	'referrer',
	'campaign',
	'device',
	'language',
]

/** A gap longer than this starts a new visit; a gap of exactly this much does not. */
const visitGapMs = 30 * 60 * 1000

/** What a figure's SQL reads from the raw views (previous_path is not used by any figure). */
export const viewColumns = sql.raw(
	'id, at_ms, day, visitor, screen, path, title, referrer_host, utm_source, utm_medium, utm_campaign, device, language',
)

// Visits are cut at the end of a UTC day as well: a visitor hash lasts one day, and a day must
// be figured from its own views alone for its figures to survive the roll-up unchanged.
const flagged = sql.raw(`flagged AS (
	SELECT source.*,
		CASE WHEN at_ms - LAG(at_ms) OVER visitor_views <= ${visitGapMs} THEN 0 ELSE 1 END AS is_entry,
		CASE WHEN LEAD(at_ms) OVER visitor_views - at_ms <= ${visitGapMs} THEN 0 ELSE 1 END AS is_exit
	FROM source
	WINDOW visitor_views AS (PARTITION BY day, visitor ORDER BY at_ms, id)
)`)

// Visitors are counted per day (COUNT DISTINCT within the day), so a range's visitors are the
// sum of its days' visitors, as they are once stored.
const counted = 'COUNT(DISTINCT visitor), COUNT(*)'
const entries = 'FROM flagged WHERE is_entry = 1'

/** Each figure's rows of a day, over `source` (the raw views) or `flagged` (with visit flags). */
const perDay: Record<Figure, { visits: boolean; select: string }> = {
	total: {
		visits: true,
		select: `SELECT day, 'total', '', '', '', ${counted}, SUM(is_entry) FROM flagged GROUP BY day`,
	},
	page: {
		visits: false,
		select: `SELECT day, 'page', path, '', '', ${counted}, 0 FROM source GROUP BY day, path`,
	},
	// The day's title of an article is that of its latest view.
	article: {
		visits: false,
		select: `SELECT day, 'article', path, title, '', ${counted}, 0 FROM (
			SELECT day, path, visitor,
				FIRST_VALUE(title) OVER (PARTITION BY day, path ORDER BY at_ms DESC, id DESC) AS title
			FROM source WHERE screen = 'article'
		) AS article_views GROUP BY day, path, title`,
	},
	entry: {
		visits: true,
		select: `SELECT day, 'entry', path, '', '', ${counted}, 0 ${entries} GROUP BY day, path`,
	},
	exit: {
		visits: true,
		select: `SELECT day, 'exit', path, '', '', ${counted}, 0
			FROM flagged WHERE is_exit = 1 GROUP BY day, path`,
	},
	referrer: {
		visits: true,
		select: `SELECT day, 'referrer', referrer_host, '', '', ${counted}, 0 ${entries}
			GROUP BY day, referrer_host`,
	},
	campaign: {
		visits: true,
		select: `SELECT day, 'campaign', utm_campaign, utm_source, utm_medium, ${counted}, 0 ${entries}
			AND (utm_campaign <> '' OR utm_source <> '' OR utm_medium <> '')
			GROUP BY day, utm_campaign, utm_source, utm_medium`,
	},
	device: {
		visits: false,
		select: `SELECT day, 'device', device, '', '', ${counted}, 0 FROM source GROUP BY day, device`,
	},
	language: {
		visits: false,
		select: `SELECT day, 'language', language, '', '', ${counted}, 0 FROM source GROUP BY day, language`,
	},
}

/**
 * The common table expressions `source` (the raw views: a SELECT, or on PostgreSQL the
 * roll-up's DELETE ... RETURNING), `flagged` when a figure needs visits, and `figures`: the
 * per-day rows of `figures`, then those of `also` (a SELECT of the same columns over `source`).
 */
export function figuresFrom(
	source: RawBuilder<unknown>,
	figures: Figure[],
	also?: RawBuilder<unknown>,
): RawBuilder<unknown> {
	const selects = figures.map((figure) => sql.raw(perDay[figure].select))
	if (also) selects.push(also)
	return sql`source AS (${source}),
		${figures.some((figure) => perDay[figure].visits) ? sql`${flagged},` : sql``}
		figures (day, dimension, value, value2, value3, visitors, views, visits) AS (
			${sql.join(selects, sql` UNION ALL `)}
		)`
}
