// What each benchmark hands run.ts: its rows for the summary table and the detail lines it
// printed on the way, so the written report carries the evidence behind each figure.
import type { Row } from './report.ts'

export interface BenchResult {
	rows: Row[]
	notes: string[]
}

export function createNotes(prefix: string) {
	const notes: string[] = []
	const note = (line: string) => {
		console.log(`[${prefix}] ${line}`)
		notes.push(line)
	}
	return { notes, note }
}
