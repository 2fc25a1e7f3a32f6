// The dashboard's parts beside the chart: visitors right now, the period's figures against the
// period before, and one table of top rows with its CSV download.
import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Fragment, type ReactNode } from 'react'
import type { AnalyticsTotals } from '#storage/port/analytics.ts'
import { changeText, formatCount, tableText } from './dashboard-tables.ts'
import { type NowFigure, useNowFigure } from './use-dashboard-now.ts'

/** A table's box, which scrolls sideways on its own when the table is wider than the screen. */
export function ScrollBox({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
	return (
		// biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must take keyboard focus, or a keyboard cannot scroll it (WCAG 2.1.1)
		<section className="table-wrap" aria-labelledby={labelledBy} tabIndex={0}>
			{children}
		</section>
	)
}

export function NowSection({ initial }: { initial: NowFigure }) {
	const { visitors } = useNowFigure(initial, '/admin/analytics/now')
	return (
		<section className="now" aria-labelledby="now-title">
			<h2 id="now-title">
				<Trans>Right now</Trans>
			</h2>
			{/* Read out when the number changes, and only then. */}
			<p className="now-figure" aria-live="polite">
				<Plural
					value={visitors}
					one={
						<Trans>
							<strong>#</strong> visitor in the last 5 minutes
						</Trans>
					}
					other={
						<Trans>
							<strong>#</strong> visitors in the last 5 minutes
						</Trans>
					}
				/>
			</p>
			<p className="hint">
				<Trans>Updated every 15 seconds while this page is open.</Trans>
			</p>
		</section>
	)
}

const figures = [
	{ key: 'visitors', label: msg`Visitors` },
	{ key: 'views', label: msg`Page views` },
	{ key: 'visits', label: msg`Visits` },
] as const

export function SummaryFigures({
	current,
	previous,
	days,
}: {
	current: AnalyticsTotals
	previous: AnalyticsTotals
	days: number
}) {
	const { i18n } = useLingui()
	return (
		<dl className="figures">
			{figures.map(({ key, label }) => (
				<div key={key} className="figure" data-figure={key}>
					<dt>{i18n._(label)}</dt>
					<dd>
						<span className="figure-value">{formatCount(current[key], i18n.locale)}</span>
						<span className="figure-change">
							{changeText(current[key], previous[key], days, i18n)}
						</span>
					</dd>
				</div>
			))}
		</dl>
	)
}

/** A label with a line-break chance after each slash, so a long address wraps between its parts. */
function Breakable({ text }: { text: string }) {
	const parts = text.split('/')
	return parts.map((part, i) => (
		// biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
		<Fragment key={i}>
			{part}
			{i < parts.length - 1 ? (
				<>
					/<wbr />
				</>
			) : null}
		</Fragment>
	))
}

export interface TableProps {
	table: {
		name: string
		title: string
		caption: string
		columns: string[]
		count: string
		rows: { labels: string[]; visitors: number; views: number }[]
	}
	/** The range's query string, carried by the download link. */
	query: string
}

export function DashboardTableSection({ table, query }: TableProps) {
	const { i18n } = useLingui()
	const { locale } = i18n
	const titleId = `${table.name}-title`
	const captionId = `${table.name}-caption`
	const words = tableText(table, i18n)
	const tableTitle = words.title.toLocaleLowerCase(locale)
	return (
		<section className="stats-card" aria-labelledby={titleId}>
			<div className="stats-head">
				<h2 id={titleId}>{words.title}</h2>
				<a href={`/admin/analytics/export?table=${table.name}&${query}`} download>
					<Trans>
						Download CSV<span className="visually-hidden"> of {tableTitle}</span>
					</Trans>
				</a>
			</div>
			{table.rows.length === 0 ? (
				<p className="stats-empty">
					<Trans>No views in this period</Trans>
				</p>
			) : (
				<ScrollBox labelledBy={captionId}>
					<table className="stats-table">
						<caption id={captionId}>{words.caption}</caption>
						<thead>
							<tr>
								{words.columns.map((column) => (
									<th key={column} scope="col">
										{column}
									</th>
								))}
								<th scope="col" className="number">
									<Trans>Visitors</Trans>
								</th>
								<th scope="col" className="number">
									{words.count}
								</th>
							</tr>
						</thead>
						<tbody>
							{table.rows.map((row) => (
								<tr key={row.labels.join('\n')}>
									{row.labels.map((label, i) =>
										i === 0 ? (
											<th key={table.columns[i]} scope="row">
												<Breakable text={label} />
											</th>
										) : (
											<td key={table.columns[i]}>
												<Breakable text={label} />
											</td>
										),
									)}
									<td className="number">{formatCount(row.visitors, locale)}</td>
									<td className="number">{formatCount(row.views, locale)}</td>
								</tr>
							))}
						</tbody>
					</table>
				</ScrollBox>
			)}
		</section>
	)
}
