// Reads an export file as entries: its header, then each part and its rows in file order. A
// file as Canopy writes it (a row a line) is read a line at a time, so only one row, one image
// at most, is in memory at once. Any other layout of the same JSON (a file pretty-printed or
// written by a script) is read whole: it imports the same, with more memory.
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { ExportFileError, sections } from './export-format.ts'

export type ExportEntry =
	| { kind: 'header'; value: unknown }
	| { kind: 'section'; name: string; line?: number }
	| { kind: 'row'; section: string; index: number; line?: number; value: unknown }

const sectionStart = /^"([^"\\]+)":\[(\]([,}]))?$/
const sectionEnd = /^\]([,}])$/

function headerOf(line: string): unknown {
	if (!line.startsWith('{"format":') || !line.endsWith(',')) return undefined
	try {
		return JSON.parse(`${line.slice(0, -1)}}`)
	} catch {
		return undefined
	}
}

function message(error: unknown): string {
	return error instanceof Error ? error.message : String(error)
}

export async function* readExport(input: Readable): AsyncGenerator<ExportEntry> {
	const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })[
		Symbol.asyncIterator
	]()
	const first = await lines.next()
	if (first.done || first.value.trim() === '')
		throw new ExportFileError('The file is empty: it is not a Canopy export.')
	if (first.value.startsWith('SQLite format 3'))
		throw new ExportFileError(
			'This is a SQLite database (a backup?), not an export file. A backup is restored by copying it, while Canopy is stopped, to DATA_DIR/canopy.db (with canopy.db-wal and canopy.db-shm moved away).',
		)
	const header = headerOf(first.value.trim())
	if (header === undefined) {
		yield* readWhole(first.value, lines)
		return
	}
	yield { kind: 'header', value: header }

	let lineNumber = 1
	let section: string | undefined
	let index = 0
	let ended = false
	for (let next = await lines.next(); !next.done; next = await lines.next()) {
		lineNumber++
		const line = next.value.trim()
		if (line === '') continue
		if (ended)
			throw new ExportFileError(`Line ${lineNumber}: there is more after the end of the export.`)
		if (section === undefined) {
			const start = sectionStart.exec(line)
			if (!start?.[1])
				throw new ExportFileError(
					`Line ${lineNumber} should start a part, such as "articles":[ — was the file edited?`,
				)
			yield { kind: 'section', name: start[1], line: lineNumber }
			if (start[2]) ended = start[3] === '}'
			else [section, index] = [start[1], 0]
			continue
		}
		const end = sectionEnd.exec(line)
		if (end) {
			section = undefined
			ended = end[1] === '}'
			continue
		}
		let value: unknown
		try {
			value = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line)
		} catch (error) {
			throw new ExportFileError(
				`${section}[${index}] (line ${lineNumber}) is not valid JSON: ${message(error)}`,
			)
		}
		yield { kind: 'row', section, index: index++, line: lineNumber, value }
	}
	if (!ended)
		throw new ExportFileError(
			`The file ends early${section ? `, in the middle of "${section}"` : ''} (after line ${lineNumber}): it was cut short. Export the site again.`,
		)
}

async function* readWhole(first: string, rest: AsyncIterator<string>): AsyncGenerator<ExportEntry> {
	const lines = [first]
	for (let next = await rest.next(); !next.done; next = await rest.next()) lines.push(next.value)
	let parsed: unknown
	try {
		parsed = JSON.parse(lines.join('\n'))
	} catch (error) {
		throw new ExportFileError(
			`The file is not JSON (${message(error)}): it is not a Canopy export, or it was damaged.`,
		)
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
		throw new ExportFileError('This is not a Canopy export: the file should hold one JSON object.')
	const { format, version, passwords, ...rows } = parsed as Record<string, unknown>
	yield { kind: 'header', value: { format, version, passwords } }
	// Whatever order a script wrote the parts in, they are written in the order references need.
	const rank = (name: string) => {
		const position = (sections as readonly string[]).indexOf(name)
		return position < 0 ? sections.length : position
	}
	const parts = Object.entries(rows).sort(([a], [b]) => rank(a) - rank(b))
	for (const [name, list] of parts) {
		yield { kind: 'section', name }
		if (!Array.isArray(list)) throw new ExportFileError(`"${name}" should be a list of rows.`)
		for (const [index, value] of list.entries()) yield { kind: 'row', section: name, index, value }
	}
}
