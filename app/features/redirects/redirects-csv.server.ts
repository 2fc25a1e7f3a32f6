// Redirects as CSV, to move them between sites or edit many in a spreadsheet: a header row
// `from,to,status` (a fourth column, `kind`, says "rename" for one Canopy recorded when an
// address changed, "admin" for one an admin added; kept on import), one redirect per row. Each row is checked as the form checks one; a file with any bad row imports nothing.
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import type { Redirect } from '#storage/port/redirects.ts'
import { redirectFormSchema } from './redirect.schema.ts'

/** More rows than this in one file are refused (the body is capped at 1 MB before this). */
export const maxImportRows = 20_000
const maxProblemsShown = 10

export function redirectsCsv(redirects: Redirect[]): string {
	return stringify(
		redirects.map((moved) => [
			moved.from,
			moved.to,
			moved.status,
			moved.automatic ? 'rename' : 'admin',
		]),
		{ header: true, columns: ['from', 'to', 'status', 'kind'] },
	)
}

export type ParsedRedirects =
	| { ok: true; redirects: Omit<Redirect, 'createdAt'>[] }
	| { ok: false; problems: string[] }

/** The redirects a CSV file holds, or what is wrong with it, line by line, in words. */
export function parseRedirectsCsv(text: string): ParsedRedirects {
	let rows: Record<string, string>[]
	try {
		rows = parse(text, {
			columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
			bom: true,
			skip_empty_lines: true,
			trim: true,
			relax_column_count: true,
			max_record_size: 4096,
			to: maxImportRows + 1,
		})
	} catch (error) {
		const line = (error as { lines?: number }).lines
		return {
			ok: false,
			problems: [
				`The file is not readable as CSV${line ? ` (near line ${line})` : ''}: check its quotes and commas.`,
			],
		}
	}
	// A file of redirects alone, as many tools write them: its first line, read as the columns'
	// names, is one of them (a file of one such line reads as names and no rows).
	const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? ''
	const redirectFirst = firstLine
		.split(',')
		.some((cell) => cell.trim().replace(/^"/, '').startsWith('/'))
	if (rows.length === 0 && !redirectFirst)
		return { ok: false, problems: ['The file has no redirects in it.'] }
	const first = rows[0] ?? {}
	if (!('from' in first) || !('to' in first)) {
		return {
			ok: false,
			problems: [
				redirectFirst
					? 'The first line is a redirect, not the names of the columns: add a first line from,to,status above it.'
					: 'The first line must name the columns: from,to,status (status may be left out).',
			],
		}
	}
	if (rows.length > maxImportRows)
		return {
			ok: false,
			problems: [
				`The file has more than ${maxImportRows.toLocaleString('en')} redirects; split it.`,
			],
		}
	const redirects: Omit<Redirect, 'createdAt'>[] = []
	const problems: string[] = []
	const seen = new Map<string, number>()
	rows.forEach((row, index) => {
		// Line 1 is the header.
		const line = index + 2
		const parsed = redirectFormSchema.safeParse({
			intent: 'add',
			from: row.from ?? '',
			to: row.to ?? '',
			status: row.status || '301',
		})
		if (!parsed.success) {
			problems.push(`Line ${line}: ${parsed.error.issues.map((issue) => issue.message).join(' ')}`)
			return
		}
		if (parsed.data.intent !== 'add') return
		const earlier = seen.get(parsed.data.from)
		if (earlier !== undefined) {
			problems.push(`Line ${line}: ${parsed.data.from} is redirected on line ${earlier} already.`)
			return
		}
		seen.set(parsed.data.from, line)
		redirects.push({
			from: parsed.data.from,
			to: parsed.data.to,
			status: parsed.data.status === '302' ? 302 : 301,
			// As exported: anything but "rename" (left out, "admin") is an admin's.
			automatic: row.kind?.toLowerCase() === 'rename',
		})
	})
	if (problems.length > 0) {
		const more = problems.length - maxProblemsShown
		return {
			ok: false,
			problems: [
				...problems.slice(0, maxProblemsShown),
				...(more > 0 ? [`…and ${more} more ${more === 1 ? 'line' : 'lines'}.`] : []),
			],
		}
	}
	return { ok: true, redirects }
}
