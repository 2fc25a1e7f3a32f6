// What an import did, or in a dry run would do: counts, the posts that cannot come across and
// why, and what came across with a difference an editor should know of.
import type { SkippedSource } from './import-source.ts'

export interface ImportNote {
	sourceId: string
	title: string
	note: string
}

export interface ImportReport {
	format: 'ghost' | 'wordpress'
	dryRun: boolean
	articles: number
	pages: number
	/** Posts whose address this site already has: left as they are (an import run again). */
	existing: number
	tags: number
	authors: number
	images: number
	/** Old addresses that now answer 301 with the new one. */
	redirects: number
	skipped: SkippedSource[]
	notes: ImportNote[]
}

const count = (n: number, one: string, many = `${one}s`) =>
	`${n.toLocaleString('en')} ${n === 1 ? one : many}`

const formatName = { ghost: 'Ghost', wordpress: 'WordPress' }

function named(entry: { sourceId: string; title: string }): string {
	const title = entry.title ? `“${entry.title}”` : 'untitled'
	return entry.sourceId ? `${title} (${entry.sourceId})` : title
}

/** The report as the command line prints it. */
export function reportText(report: ImportReport): string {
	const verb = report.dryRun ? 'Would import' : 'Imported'
	const lines = [
		`${verb} from ${formatName[report.format]}: ${count(report.articles, 'article')}, ${count(report.pages, 'page')}, ${count(report.tags, 'tag')}, ${count(report.authors, 'author')}, ${count(report.images, 'image')}, ${count(report.redirects, 'redirect')} from old addresses.`,
	]
	if (report.existing > 0)
		lines.push(
			`${count(report.existing, 'post')} already here (the same address): left as ${report.existing === 1 ? 'it is' : 'they are'}.`,
		)
	if (report.skipped.length > 0) {
		lines.push(
			'',
			`${report.dryRun ? 'Cannot import' : 'Not imported'} (${report.skipped.length}):`,
		)
		for (const entry of report.skipped) lines.push(`  ${named(entry)}: ${entry.reason}`)
	}
	if (report.notes.length > 0) {
		lines.push('', `To look at (${report.notes.length}):`)
		for (const entry of report.notes) lines.push(`  ${named(entry)}: ${entry.note}`)
	}
	if (report.dryRun)
		lines.push('', 'Nothing was written. Run the command again without --dry-run to import.')
	return lines.join('\n')
}
