// The dashboard's tables and the words around its figures: shared by the page and its CSV
// export, so a downloaded table says exactly what the page does. The English names below are the
// CSV's; the page shows each table's words in the interface's language (tableText).
import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { i18nFor } from '#app/lib/i18n.ts'
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

/** The interface's English when a caller gives no language (the CSV export, the tests). */
const english = () => i18nFor('en')

interface TableWords {
	title: MessageDescriptor
	caption: MessageDescriptor
	columns: MessageDescriptor[]
}

const tableWords: Record<DashboardTableName, TableWords> = {
	pages: {
		title: msg`Top pages`,
		caption: msg`Pages by visitors, then views`,
		columns: [msg`Page`],
	},
	articles: {
		title: msg`Top articles`,
		caption: msg`Articles by visitors, then views`,
		columns: [msg`Article`, msg`Address`],
	},
	entries: {
		title: msg`Entry pages`,
		caption: msg`Where visits began, by visitors, then visits`,
		columns: [msg`Entry page`],
	},
	exits: {
		title: msg`Exit pages`,
		caption: msg`Where visits ended, by visitors, then visits`,
		columns: [msg`Exit page`],
	},
	referrers: {
		title: msg`Referrers`,
		caption: msg`Other sites visits came from, by visitors, then visits`,
		columns: [msg`Site`],
	},
	campaigns: {
		title: msg`UTM campaigns`,
		caption: msg`Campaigns named in links (utm_campaign), by visitors, then visits`,
		columns: [msg`Campaign`, msg`Source`, msg`Medium`],
	},
	devices: {
		title: msg`Devices`,
		caption: msg`Device classes by screen width, by visitors, then views`,
		columns: [msg`Device class`],
	},
	languages: {
		title: msg`Languages`,
		caption: msg`Browser languages, by visitors, then views`,
		columns: [msg`Language`],
	},
}

const countWords: Record<DashboardTable['count'], MessageDescriptor> = {
	Views: msg`Views`,
	Visits: msg`Visits`,
}

function isTableName(name: string): name is DashboardTableName {
	return Object.hasOwn(tableWords, name)
}

/**
 * A table's title, caption, column headings and count heading in the interface's language, for
 * the page (its data carries the English ones, which the CSV uses); a table this file does not
 * know keeps the words it came with.
 */
export function tableText(
	table: Pick<DashboardTable, 'name' | 'title' | 'caption' | 'columns'> & { count: string },
	i18n: I18n,
): { title: string; caption: string; columns: string[]; count: string } {
	const words = isTableName(table.name) ? tableWords[table.name] : undefined
	const count = Object.hasOwn(countWords, table.count)
		? countWords[table.count as DashboardTable['count']]
		: undefined
	return {
		title: words ? i18n._(words.title) : table.title,
		caption: words ? i18n._(words.caption) : table.caption,
		columns: table.columns.map((column, i) => {
			const heading = words?.columns[i]
			return heading ? i18n._(heading) : column
		}),
		count: count ? i18n._(count) : table.count,
	}
}

/** Canopy's English is British: its days read "21 Nov 2026", as they always have. */
function intlLocale(locale: string): string {
	return locale === 'en' ? 'en-GB' : locale
}

/**
 * One Intl formatter per interface language, made on first use (making one costs about a hundred
 * times using one); the languages are the few the interface has.
 */
export function perLocale<Formatter>(
	make: (locale: string) => Formatter,
): (locale: string) => Formatter {
	const made = new Map<string, Formatter>()
	return (locale) => {
		let formatter = made.get(locale)
		if (!formatter) {
			formatter = make(intlLocale(locale))
			made.set(locale, formatter)
		}
		return formatter
	}
}

const deviceNames: Record<string, MessageDescriptor> = {
	mobile: msg`Mobile`,
	tablet: msg`Tablet`,
	desktop: msg`Desktop`,
}
const languageNames = perLocale(
	(locale) => new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' }),
)

function languageName(code: string, i18n: I18n): string {
	if (!code) return i18n._(msg`Unknown`)
	let name: string | undefined
	try {
		name = languageNames(i18n.locale).of(code)
	} catch {
		// Not a language tag Intl knows the shape of: the code alone says what is known.
	}
	return name && name !== code ? `${name} (${code})` : code
}

/**
 * What names a row, one text per column of `table.columns`, as the page and the CSV show it: in
 * the interface's language when `i18n` is given, in English otherwise.
 */
export function rowLabels(
	table: DashboardTable,
	row: AnalyticsRow,
	i18n: I18n = english(),
): string[] {
	const [first = '', second = '', third = ''] = row.values
	const notSet = i18n._(msg`(not set)`)
	switch (table.dimension) {
		case 'article':
			return [second || first, first]
		case 'referrer':
			return [first || i18n._(msg`Direct or unknown`)]
		case 'campaign':
			return [first || notSet, second || notSet, third || notSet]
		case 'device': {
			const device = Object.hasOwn(deviceNames, first) ? deviceNames[first] : undefined
			return [device ? i18n._(device) : first]
		}
		case 'language':
			return [languageName(first, i18n)]
		default:
			return [first]
	}
}

const numbers = perLocale((locale) => new Intl.NumberFormat(locale))
const percents = perLocale(
	(locale) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }),
)

/** A count as the interface's language writes it: "2,000", "2 000", "٢٬٠٠٠". */
export function formatCount(n: number, locale: string): string {
	return numbers(locale).format(n)
}

/**
 * A figure's change against the previous period in words, never by colour alone:
 * "Up 20% from 35 in the previous 30 days".
 */
export function changeText(
	current: number,
	previous: number,
	days: number,
	i18n: I18n = english(),
): string {
	const previousCount = formatCount(previous, i18n.locale)
	if (current === previous)
		return i18n._(
			msg`Same as ${plural(days, { one: 'the previous day', other: 'the previous # days' })} (${previousCount})`,
		)
	if (previous === 0)
		return i18n._(
			msg`Up from 0 in ${plural(days, { one: 'the previous day', other: 'the previous # days' })}`,
		)
	const rounded = Math.round(Math.abs(((current - previous) / previous) * 100))
	const percent = percents(i18n.locale).format(rounded / 100)
	if (current > previous)
		return i18n._(
			rounded === 0
				? msg`Up less than 1% from ${previousCount} in ${plural(days, { one: 'the previous day', other: 'the previous # days' })}`
				: msg`Up ${percent} from ${previousCount} in ${plural(days, { one: 'the previous day', other: 'the previous # days' })}`,
		)
	return i18n._(
		rounded === 0
			? msg`Down less than 1% from ${previousCount} in ${plural(days, { one: 'the previous day', other: 'the previous # days' })}`
			: msg`Down ${percent} from ${previousCount} in ${plural(days, { one: 'the previous day', other: 'the previous # days' })}`,
	)
}

const dayFormats = perLocale(
	(locale) =>
		new Intl.DateTimeFormat(locale, {
			day: 'numeric',
			month: 'short',
			year: 'numeric',
			timeZone: 'UTC',
		}),
)

/** A UTC day (yyyy-mm-dd) as "21 Nov 2026", the same on the server and in the browser. */
export function formatDay(day: string, locale: string): string {
	return dayFormats(locale).format(new Date(`${day}T00:00:00Z`))
}
