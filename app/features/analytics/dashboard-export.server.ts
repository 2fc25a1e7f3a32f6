// A dashboard table as a CSV file. Paths, titles, hosts and campaign names come from visitors'
// browsers, so a cell a spreadsheet would run as a formula (=, +, -, @, tab, carriage return
// first) is written with a leading apostrophe and shows as the text it is.
import { stringify } from 'csv-stringify/sync'
import { siteDay } from '#app/features/site/site-settings.server.ts'
import type { Storage } from '#storage/port/storage.ts'
import {
	type DashboardRange,
	type DashboardTableData,
	exportRows,
	loadTable,
	parseDashboardRange,
} from './dashboard.server.ts'
import { dashboardTables, findTable } from './dashboard-tables.ts'

export function tableCsv(table: DashboardTableData): string {
	return stringify(
		table.rows.map((row) => [...row.labels, row.visitors, row.views]),
		{
			header: true,
			columns: [...table.columns, 'Visitors', table.count],
			escape_formulas: true,
			// Excel takes a file without a byte order mark for the local code page, not UTF-8.
			bom: true,
			record_delimiter: 'windows',
		},
	)
}

export function exportFilename(table: string, range: DashboardRange): string {
	return `canopy-${table}-${range.current.from}-to-${range.current.to}.csv`
}

export type ExportResult =
	| { ok: true; csv: string; filename: string }
	| { ok: false; message: string }

/** The table and range an export address asks for, as a file; what is wrong with it otherwise. */
export async function exportTable(
	storage: Storage,
	params: URLSearchParams,
	now: Date,
): Promise<ExportResult> {
	const name = params.get('table') ?? ''
	const table = findTable(name)
	const problems: string[] = []
	if (!table)
		problems.push(
			`${name ? `There is no table called “${name.slice(0, 40)}”.` : 'Say which table to export.'} Ask for one of: ${dashboardTables.map((t) => t.name).join(', ')} (?table=pages).`,
		)
	const parsed = parseDashboardRange(params, await siteDay(storage, now))
	if (!parsed.ok) {
		const fields: Record<string, string> = { range: 'Period', from: 'First day', to: 'Last day' }
		for (const [field, messages] of Object.entries(parsed.errors))
			problems.push(`${fields[field] ?? field}: ${messages.join(' ')}`)
	}
	if (!table || !parsed.ok) return { ok: false, message: problems.join('\n') }
	const data = await loadTable(storage, parsed.range.current, table, exportRows)
	return { ok: true, csv: tableCsv(data), filename: exportFilename(table.name, parsed.range) }
}
