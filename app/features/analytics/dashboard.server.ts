// The editors' analytics dashboard: which days (the site's) to show (from the address), and every figure
// of those days and of the same number of days just before them, read in parallel.
import type { I18n } from '@lingui/core'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import type { AnalyticsDay, AnalyticsTotals, DayRange } from '#storage/port/analytics.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type DashboardTable, dashboardTables, rowLabels } from './dashboard-tables.ts'

export const presetDays = [7, 30, 90] as const
export const defaultDays = 30
export const maxDays = 366
/** Rows per table on the page; an export carries up to `exportRows`. */
export const pageRows = 10
export const exportRows = 1000
/** "Right now": visitors with a view in the last five minutes. */
export const nowWindowMs = 5 * 60_000

export type RangeChoice = '7' | '30' | '90' | 'custom'

export interface DashboardRange {
	choice: RangeChoice
	current: DayRange
	previous: DayRange
	days: number
	/** The query string that asks for this range again (export links, the chart's page). */
	query: string
}

/** What the form shows again when the range cannot be used. */
export interface RangeInput {
	choice: string
	from: string
	to: string
}

export type RangeParse =
	| { ok: true; range: DashboardRange }
	| { ok: false; errors: FieldErrors; input: RangeInput }

const dayMs = 86_400_000

/**
 * Days since the epoch of a real yyyy-mm-dd date; undefined for anything else (2026-02-30, and
 * years before 100, which Date.UTC reads as 19xx: no views are that old, and the period before
 * one would run into years with no four-digit form).
 */
function dayNumber(text: string): number | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
	if (!match) return undefined
	const [, y, m, d] = match.map(Number) as [number, number, number, number]
	const ms = Date.UTC(y, m - 1, d)
	const date = new Date(ms)
	if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
		return undefined
	return ms / dayMs
}

function dayText(day: number): string {
	return new Date(day * dayMs).toISOString().slice(0, 10)
}

/** Moves a yyyy-mm-dd day by `days` (negative: back). */
export function addDays(day: string, days: number): string {
	const n = dayNumber(day)
	if (n === undefined) throw new Error(`Not a day: ${day}`)
	return dayText(n + days)
}

function rangeOf(choice: RangeChoice, from: number, to: number): DashboardRange {
	const days = to - from + 1
	const query =
		choice === 'custom' ? `range=custom&from=${dayText(from)}&to=${dayText(to)}` : `range=${choice}`
	return {
		choice,
		current: { from: dayText(from), to: dayText(to) },
		previous: { from: dayText(from - days), to: dayText(from - 1) },
		days,
		query,
	}
}

/**
 * The range the address asks for: `range=7|30|90` (the last days up to and including today;
 * 30 when nothing is asked), or `from` and `to` (with `range=custom` or without `range`).
 * A preset wins over dates sent beside it, as the form sends both.
 */
export function parseDashboardRange(params: URLSearchParams, today: string): RangeParse {
	const choice = params.get('range') ?? ''
	const from = (params.get('from') ?? '').trim()
	const to = (params.get('to') ?? '').trim()
	const input = { choice, from, to }
	const todayNumber = dayNumber(today)
	if (todayNumber === undefined) throw new Error(`Not a day: ${today}`)
	const custom = choice === 'custom' || (choice === '' && (from !== '' || to !== ''))
	if (!custom) {
		const days = choice === '' ? defaultDays : presetDays.find((n) => String(n) === choice)
		if (days === undefined)
			return {
				ok: false,
				errors: { range: ['Choose the last 7, 30 or 90 days, or dates of your own.'] },
				input,
			}
		return {
			ok: true,
			range: rangeOf(String(days) as RangeChoice, todayNumber - days + 1, todayNumber),
		}
	}
	const errors: FieldErrors = {}
	const fromNumber = dayNumber(from)
	const toNumber = dayNumber(to)
	const dateError = (value: string, which: string) =>
		value === ''
			? `Enter the ${which} day.`
			: `Enter the ${which} day as a real date, year-month-day (for example ${today}).`
	if (fromNumber === undefined) errors.from = [dateError(from, 'first')]
	if (toNumber === undefined) errors.to = [dateError(to, 'last')]
	else if (toNumber > todayNumber) errors.to = [`The last day cannot be after today (${today}).`]
	if (fromNumber !== undefined && toNumber !== undefined && !errors.to) {
		if (fromNumber > toNumber) errors.from = ['The first day must be on or before the last day.']
		else if (toNumber - fromNumber + 1 > maxDays)
			errors.from = [`Choose at most ${maxDays} days: the first day is too far back.`]
	}
	if (fromNumber === undefined || toNumber === undefined || Object.keys(errors).length > 0)
		return { ok: false, errors, input }
	return { ok: true, range: rangeOf('custom', fromNumber, toNumber) }
}

export interface DashboardTableData {
	name: string
	title: string
	caption: string
	columns: string[]
	count: DashboardTable['count']
	rows: { labels: string[]; visitors: number; views: number }[]
}

export interface Dashboard {
	totals: { current: AnalyticsTotals; previous: AnalyticsTotals }
	daily: { current: AnalyticsDay[]; previous: AnalyticsDay[] }
	tables: DashboardTableData[]
	now: { visitors: number; since: string }
}

/** One table's top rows, labelled as the page and the CSV show them. */
export async function loadTable(
	storage: Storage,
	range: DayRange,
	table: DashboardTable,
	limit: number,
	/** The interface's, for the rows' names; English (the CSV's) when none is given. */
	i18n?: I18n,
): Promise<DashboardTableData> {
	const rows = await storage.analytics.breakdown(range, table.dimension, limit)
	return {
		name: table.name,
		title: table.title,
		caption: table.caption,
		columns: table.columns,
		count: table.count,
		rows: rows.map((row) => ({
			labels: rowLabels(table, row, i18n),
			visitors: row.visitors,
			views: row.views,
		})),
	}
}

export async function activeVisitors(storage: Storage, now: Date) {
	const since = new Date(now.getTime() - nowWindowMs)
	return { visitors: await storage.analytics.activeVisitors(since), since: since.toISOString() }
}

export async function loadDashboard(
	storage: Storage,
	range: DashboardRange,
	now: Date,
	i18n?: I18n,
): Promise<Dashboard> {
	const { analytics } = storage
	const [current, previous, currentDays, previousDays, tables, active] = await Promise.all([
		analytics.totals(range.current),
		analytics.totals(range.previous),
		analytics.daily(range.current),
		analytics.daily(range.previous),
		Promise.all(
			dashboardTables.map((table) => loadTable(storage, range.current, table, pageRows, i18n)),
		),
		activeVisitors(storage, now),
	])
	return {
		totals: { current, previous },
		daily: { current: currentDays, previous: previousDays },
		tables,
		now: active,
	}
}
