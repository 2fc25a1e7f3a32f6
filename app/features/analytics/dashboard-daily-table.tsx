// The chart's numbers as a table: each UTC day of the period beside the same day of the one before.
import { memo } from 'react'
import { ScrollBox } from './dashboard-sections.tsx'
import { type ChartProps, formatCount, formatDay } from './dashboard-tables.ts'

// Kept from re-rendering as the pointer moves over the chart: it can have 366 rows.
export const DailyTable = memo(function DailyTable({ current, previous }: ChartProps) {
	return (
		<ScrollBox labelledBy="daily-numbers-caption">
			<table className="stats-table daily">
				{/* Short: the table is wider than a phone, and its caption as wide as the table. */}
				<caption id="daily-numbers-caption">Day by day (UTC)</caption>
				<thead>
					<tr>
						<th scope="col">Day</th>
						<th scope="col" className="number">
							Visitors
						</th>
						<th scope="col" className="number">
							Page views
						</th>
						<th scope="col" className="number">
							Visits
						</th>
						<th scope="col">Previous period</th>
						<th scope="col" className="number">
							Visitors before
						</th>
						<th scope="col" className="number">
							Page views before
						</th>
					</tr>
				</thead>
				<tbody>
					{current.map((day, i) => {
						const before = previous[i]
						return (
							<tr key={day.day}>
								<th scope="row">
									<time dateTime={day.day}>{formatDay(day.day)}</time>
								</th>
								<td className="number">{formatCount(day.visitors)}</td>
								<td className="number">{formatCount(day.views)}</td>
								<td className="number">{formatCount(day.visits)}</td>
								<td>{before ? <time dateTime={before.day}>{formatDay(before.day)}</time> : ''}</td>
								<td className="number">{before ? formatCount(before.visitors) : ''}</td>
								<td className="number">{before ? formatCount(before.views) : ''}</td>
							</tr>
						)
					})}
				</tbody>
			</table>
		</ScrollBox>
	)
})
