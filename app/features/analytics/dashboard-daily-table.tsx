// The chart's numbers as a table: each day (the site's) of the period beside the same day of the one before.
import { Trans, useLingui } from '@lingui/react/macro'
import { memo } from 'react'
import { ScrollBox } from './dashboard-sections.tsx'
import { type ChartProps, formatCount, formatDay } from './dashboard-tables.ts'

// Kept from re-rendering as the pointer moves over the chart: it can have 366 rows.
export const DailyTable = memo(function DailyTable({ current, previous }: ChartProps) {
	const { i18n } = useLingui()
	const { locale } = i18n
	return (
		<ScrollBox labelledBy="daily-numbers-caption">
			<table className="stats-table daily">
				{/* Short: the table is wider than a phone, and its caption as wide as the table. */}
				<caption id="daily-numbers-caption">
					<Trans>Day by day</Trans>
				</caption>
				<thead>
					<tr>
						<th scope="col">
							<Trans>Day</Trans>
						</th>
						<th scope="col" className="number">
							<Trans>Visitors</Trans>
						</th>
						<th scope="col" className="number">
							<Trans>Page views</Trans>
						</th>
						<th scope="col" className="number">
							<Trans>Visits</Trans>
						</th>
						<th scope="col">
							<Trans>Previous period</Trans>
						</th>
						<th scope="col" className="number">
							<Trans>Visitors before</Trans>
						</th>
						<th scope="col" className="number">
							<Trans>Page views before</Trans>
						</th>
					</tr>
				</thead>
				<tbody>
					{current.map((day, i) => {
						const before = previous[i]
						return (
							<tr key={day.day}>
								<th scope="row">
									<time dateTime={day.day}>{formatDay(day.day, locale)}</time>
								</th>
								<td className="number">{formatCount(day.visitors, locale)}</td>
								<td className="number">{formatCount(day.views, locale)}</td>
								<td className="number">{formatCount(day.visits, locale)}</td>
								<td>
									{before ? <time dateTime={before.day}>{formatDay(before.day, locale)}</time> : ''}
								</td>
								<td className="number">{before ? formatCount(before.visitors, locale) : ''}</td>
								<td className="number">{before ? formatCount(before.views, locale) : ''}</td>
							</tr>
						)
					})}
				</tbody>
			</table>
		</ScrollBox>
	)
})
