// Subscribers as CSV: a list of addresses an admin imports (a header row naming an `email`
// column, other columns ignored; or one address per line), and every subscriber as a download.
// A file with any bad line imports nothing, so an admin never has to work out which half got in.
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { z } from 'zod'
import type { Subscriber } from '#storage/port/newsletter.ts'

/** More addresses than this in one file are refused. */
export const maxImportRows = 100_000
/** A larger file is refused before it is read. */
export const maxImportBytes = 5 * 1024 * 1024
const maxProblemsShown = 10

/** What a header cell naming the address column may say (spreadsheets' own exports included). */
const emailHeaders = new Set(['email', 'e-mail', 'email address', 'e-mail address'])

const address = z.string().max(254).pipe(z.email())

/** The export writes a value starting with one of these after an apostrophe (escape_formulas). */
const escapedFormula = /^'[=+\-@\t\r]/

/**
 * Every subscriber, one per row, with the names of the tags followed (none: every article). A
 * cell a spreadsheet would run as a formula gets a leading apostrophe: addresses and tag names
 * come from outside.
 */
export function subscribersCsv(
	subscribers: Subscriber[],
	tagNames: ReadonlyMap<number, string>,
): string {
	return stringify(
		subscribers.map((subscriber) => [
			subscriber.email,
			subscriber.status,
			subscriber.cadence,
			subscriber.source,
			subscriber.consentAt ?? '',
			subscriber.createdAt,
			subscriber.tagIds.flatMap((id) => tagNames.get(id) ?? []).join('; '),
		]),
		{
			header: true,
			columns: ['email', 'status', 'cadence', 'source', 'consent_at', 'created_at', 'tags'],
			escape_formulas: true,
			// Excel takes a file without a byte order mark for the local code page, not UTF-8.
			bom: true,
			record_delimiter: 'windows',
		},
	)
}

export type ParsedSubscribers = { ok: true; emails: string[] } | { ok: false; problems: string[] }

type CsvRecord = { record: string[]; info: { lines: number } }

const refuse = (problem: string): ParsedSubscribers => ({ ok: false, problems: [problem] })

/** The distinct, lower-cased addresses a CSV file holds, or what is wrong with it, in words. */
export function parseSubscribersCsv(text: string): ParsedSubscribers {
	if (Buffer.byteLength(text, 'utf8') > maxImportBytes)
		return refuse('The file is larger than 5 MB; split it and import each part.')
	if (text.includes('\u0000'))
		return refuse(
			'This file is not text. Save the list as CSV (comma-separated values) and choose that file.',
		)
	let records: CsvRecord[]
	try {
		// With `info`, each record comes with where it ends: the line a problem is reported at.
		records = parse(text, {
			bom: true,
			info: true,
			skip_empty_lines: true,
			skip_records_with_empty_values: true,
			trim: true,
			relax_column_count: true,
			max_record_size: 16_384,
			// The header and one row too many: enough to tell the file is too long.
			to: maxImportRows + 2,
		}) as unknown as CsvRecord[]
	} catch (error) {
		const line = (error as { lines?: number }).lines
		return refuse(
			`The file is not readable as CSV${line ? ` (near line ${line})` : ''}: check its quotes and commas.`,
		)
	}
	const header = records[0]?.record.map((cell) => cell.toLowerCase()) ?? []
	const column = header.findIndex((cell) => emailHeaders.has(cell))
	const rows = column === -1 ? records : records.slice(1)
	if (rows.length === 0) return refuse('The file has no addresses in it.')
	if (rows.length > maxImportRows)
		return refuse(
			`The file has more than ${maxImportRows.toLocaleString('en')} addresses; split it and import each part.`,
		)
	const emails = new Set<string>()
	const problems: string[] = []
	for (const { record, info } of rows) {
		const problem = column === -1 ? onlyCell(record) : { value: record[column] ?? '' }
		if ('error' in problem) {
			problems.push(`Line ${info.lines}: ${problem.error}`)
			continue
		}
		const value = escapedFormula.test(problem.value) ? problem.value.slice(1) : problem.value
		if (!address.safeParse(value).success) {
			problems.push(
				`Line ${info.lines}: ${value ? `“${shorten(value)}” is not an email address.` : 'the email column is empty.'}`,
			)
			continue
		}
		emails.add(value.toLowerCase())
	}
	if (problems.length > 0) {
		const more = problems.length - maxProblemsShown
		return {
			ok: false,
			problems: [
				...problems.slice(0, maxProblemsShown),
				...(more > 0
					? [`…and ${more.toLocaleString('en')} more ${more === 1 ? 'line' : 'lines'}.`]
					: []),
				'Nothing was imported: correct these lines and import the file again.',
			],
		}
	}
	return { ok: true, emails: [...emails] }
}

/** A file without a header holds one address per line: a line with more is not understood. */
function onlyCell(record: string[]): { value: string } | { error: string } {
	const cells = record.filter((cell) => cell !== '')
	if (cells.length > 1)
		return {
			error:
				'it has several columns. Name them in the first line (one of them email), or put one address on each line.',
		}
	return { value: cells[0] ?? '' }
}

function shorten(value: string): string {
	return value.length > 60 ? `${value.slice(0, 59)}…` : value
}
