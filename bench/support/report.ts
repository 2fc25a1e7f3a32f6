// One row per figure, the same shape for every benchmark, so run.ts can print one table.
export type Status = 'met' | 'missed' | 'info' | 'crashed'

export interface Row {
	bench: string
	figure: string
	value: string
	baseline: string
	ratio: string
	target: string
	status: Status
	/** Other processes took CPU while this was measured: the figure is less trustworthy. */
	disturbed?: boolean
}

export function row(fields: Partial<Row> & Pick<Row, 'bench' | 'figure' | 'value'>): Row {
	return { baseline: '', ratio: '', target: '', status: 'info', ...fields }
}

export function met(ok: boolean): Status {
	return ok ? 'met' : 'missed'
}

/** Kilobytes of 1,000 bytes, the unit Vite prints gzip sizes in. */
export function kb(bytes: number): string {
	return `${(bytes / 1000).toFixed(1)} KB`
}

export function ms(value: number): string {
	return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`
}

export function times(value: number, baseline: number): string {
	return baseline > 0 ? `${(value / baseline).toFixed(2)}×` : 'n/a'
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
	if (sorted.length === 0) return Number.NaN
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
	return sorted[rank] as number
}

export function median(values: number[]): number {
	return percentile(
		[...values].sort((a, b) => a - b),
		50,
	)
}

const columns: [keyof Row, string][] = [
	['bench', 'benchmark'],
	['figure', 'figure'],
	['value', 'value'],
	['baseline', 'baseline (same run)'],
	['ratio', 'ratio'],
	['target', 'target'],
	['status', 'status'],
]

export function formatTable(rows: Row[]): string {
	const text = (r: Row, key: keyof Row) =>
		key === 'status' && r.disturbed ? `${r.status} (disturbed)` : String(r[key] ?? '')
	const cells = [
		columns.map(([, title]) => title),
		...rows.map((r) => columns.map(([key]) => text(r, key))),
	]
	const widths = columns.map((_, i) => Math.max(3, ...cells.map((line) => (line[i] ?? '').length)))
	const line = (values: string[]) =>
		`| ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ')} |`
	const [head = [], ...body] = cells
	return [
		line(head),
		`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
		...body.map(line),
	].join('\n')
}
