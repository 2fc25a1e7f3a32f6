// The dashboard's tables and the words around its figures: shared by the page and its CSV
// export, so a downloaded table says exactly what the page does.
import type { AnalyticsDay, AnalyticsDimension, AnalyticsRow } from '#storage/port/analytics.ts'

/** The daily chart's figures and its table's: this period and the one before it. */
export interface ChartProps {
	current: AnalyticsDay[]
	previous: AnalyticsDay[]
}

export interface DashboardTable {
	/** The name in the export's address (?table=pages). */
	name: string
	dimension: AnalyticsDimension
	title: string
	/** What the rows are, for the table's caption. */
	caption: string
	/** The headings of the columns that name a row (the counts follow). */
	columns: string[]
	/** What the second count is: screen views, or visits (a visit's first or last view). */
	count: 'Views' | 'Visits'
}

export const dashboardTables = [
	{
		name: 'pages',
		dimension: 'page',
		title: 'Top pages',
		caption: 'Pages by visitors, then views',
		columns: ['Page'],
		count: 'Views',
	},
	{
		name: 'articles',
		dimension: 'article',
		title: 'Top articles',
		caption: 'Articles by visitors, then views',
		columns: ['Article', 'Address'],
		count: 'Views',
	},
	{
		name: 'entries',
		dimension: 'entry',
		title: 'Entry pages',
		caption: 'Where visits began, by visitors, then visits',
		columns: ['Entry page'],
		count: 'Visits',
	},
	{
		name: 'exits',
		dimension: 'exit',
		title: 'Exit pages',
		caption: 'Where visits ended, by visitors, then visits',
		columns: ['Exit page'],
		count: 'Visits',
	},
	{
		name: 'referrers',
		dimension: 'referrer',
		title: 'Referrers',
		caption: 'Other sites visits came from, by visitors, then visits',
		columns: ['Site'],
		count: 'Visits',
	},
	{
		name: 'campaigns',
		dimension: 'campaign',
		title: 'UTM campaigns',
		caption: 'Campaigns named in links (utm_campaign), by visitors, then visits',
		columns: ['Campaign', 'Source', 'Medium'],
		count: 'Visits',
	},
	{
		name: 'devices',
		dimension: 'device',
		title: 'Devices',
		caption: 'Device classes by screen width, by visitors, then views',
		columns: ['Device class'],
		count: 'Views',
	},
	{
		name: 'languages',
		dimension: 'language',
		title: 'Languages',
		caption: 'Browser languages, by visitors, then views',
		columns: ['Language'],
		count: 'Views',
	},
] as const satisfies DashboardTable[]

export type DashboardTableName = (typeof dashboardTables)[number]['name']

export function findTable(name: string): DashboardTable | undefined {
	return dashboardTables.find((table) => table.name === name)
}

const notSet = '(not set)'
const deviceNames: Record<string, string> = {
	mobile: 'Mobile',
	tablet: 'Tablet',
	desktop: 'Desktop',
}
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })

function languageName(code: string): string {
	if (!code) return 'Unknown'
	let name: string | undefined
	try {
		name = languageNames.of(code)
	} catch {
		// Not a language tag Intl knows the shape of: the code alone says what is known.
	}
	return name && name !== code ? `${name} (${code})` : code
}

/** What names a row, one text per column of `table.columns`, as the page and the CSV show it. */
export function rowLabels(table: DashboardTable, row: AnalyticsRow): string[] {
	const [first = '', second = '', third = ''] = row.values
	switch (table.dimension) {
		case 'article':
			return [second || first, first]
		case 'referrer':
			return [first || 'Direct or unknown']
		case 'campaign':
			return [first || notSet, second || notSet, third || notSet]
		case 'device':
			return [deviceNames[first] ?? first]
		case 'language':
			return [languageName(first)]
		default:
			return [first]
	}
}

const numbers = new Intl.NumberFormat('en-GB')

export function formatCount(n: number): string {
	return numbers.format(n)
}

/** "the previous 30 days", "the previous day". */
export function previousPeriodName(days: number): string {
	return days === 1 ? 'the previous day' : `the previous ${days} days`
}

/**
 * A figure's change against the previous period in words, never by colour alone:
 * "Up 20% from 35 in the previous 30 days".
 */
export function changeText(current: number, previous: number, days: number): string {
	const period = previousPeriodName(days)
	if (current === previous) return `Same as ${period} (${formatCount(previous)})`
	if (previous === 0) return `Up from 0 in ${period}`
	const percent = ((current - previous) / previous) * 100
	const rounded = Math.round(Math.abs(percent))
	const amount = rounded === 0 ? 'less than 1%' : `${formatCount(rounded)}%`
	return `${current > previous ? 'Up' : 'Down'} ${amount} from ${formatCount(previous)} in ${period}`
}

const dayFormat = new Intl.DateTimeFormat('en-GB', {
	day: 'numeric',
	month: 'short',
	year: 'numeric',
	timeZone: 'UTC',
})

/** A UTC day (yyyy-mm-dd) as "21 Nov 2026", the same on the server and in the browser. */
export function formatDay(day: string): string {
	return dayFormat.format(new Date(`${day}T00:00:00Z`))
}
