// Visitors and page views per day, with the previous period dashed: a uPlot canvas drawn in the
// browser (the library loads with the chart, never with any other page), a summary in words and
// the same numbers as a table for anyone who cannot see the chart.
import { useEffect, useRef, useState } from 'react'
import type uPlot from 'uplot'
import type { AnalyticsDay } from '#storage/port/analytics.ts'
import { DailyTable } from './dashboard-daily-table.tsx'
import { type ChartProps, formatCount, formatDay, previousPeriodName } from './dashboard-tables.ts'

const chartHeight = 300
const dayTick = new Intl.DateTimeFormat('en-GB', {
	day: 'numeric',
	month: 'short',
	timeZone: 'UTC',
})
const monthTick = new Intl.DateTimeFormat('en-GB', {
	month: 'short',
	year: 'numeric',
	timeZone: 'UTC',
})
const dash = [6, 5]

function sum(days: AnalyticsDay[], key: 'visitors' | 'views') {
	return days.reduce((total, day) => total + day[key], 0)
}

/** The figure in words: the totals, the busiest day and what the dashed lines are. */
export function chartSummary({ current, previous }: ChartProps): string {
	const first = current[0]
	const last = current[current.length - 1]
	if (!first || !last) return 'No days to show.'
	const period = `${formatDay(first.day)} to ${formatDay(last.day)}`
	const visitors = sum(current, 'visitors')
	const views = sum(current, 'views')
	const busiest = current.reduce((best, day) => (day.visitors > best.visitors ? day : best), first)
	const peak =
		visitors === 0
			? 'No views on any day.'
			: `The busiest day was ${formatDay(busiest.day)}, with ${formatCount(busiest.visitors)} visitors.`
	const before = previous[0]
	const dashed = before
		? ` Dashed lines show ${previousPeriodName(current.length)} (from ${formatDay(before.day)}): ${formatCount(sum(previous, 'visitors'))} visitors and ${formatCount(sum(previous, 'views'))} page views.`
		: ''
	return `${period}, UTC days: ${formatCount(visitors)} visitors and ${formatCount(views)} page views in all. ${peak}${dashed}`
}

function colours(element: HTMLElement) {
	const style = getComputedStyle(element)
	const read = (name: string) => style.getPropertyValue(name).trim()
	return {
		visitors: read('--chart-visitors'),
		views: read('--chart-views'),
		text: read('--chart-text'),
		grid: read('--chart-grid'),
		font: `14px ${style.fontFamily}`,
	}
}

function options(
	library: typeof uPlot,
	element: HTMLElement,
	width: number,
	onCursor: (index: number | null) => void,
): uPlot.Options {
	const c = colours(element)
	const axis = {
		stroke: c.text,
		font: c.font,
		labelFont: `600 ${c.font}`,
		grid: { stroke: c.grid, width: 1 },
		ticks: { stroke: c.grid, width: 1 },
	}
	return {
		width,
		height: chartHeight,
		// Days are UTC days: the axis must not shift them into the reader's zone.
		tzDate: (seconds) => library.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
		legend: { show: false },
		cursor: { drag: { x: false, y: false }, points: { size: 8 } },
		scales: {
			x: { time: true },
			y: { range: (_plot, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
		},
		axes: [
			{
				...axis,
				label: 'Day (UTC)',
				space: 60,
				// Days as "3 Nov"; months as "Nov 2026" when the ticks are a month or more apart.
				values: (_plot, splits, _axis, _space, step) =>
					splits.map((seconds) =>
						(step >= 28 * 86_400 ? monthTick : dayTick).format(new Date(seconds * 1000)),
					),
			},
			{
				...axis,
				label: 'Visitors and page views',
				// Whole visitors and views only.
				incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 1e6],
				values: (_plot, splits) => splits.map((n) => formatCount(n)),
				size: 60,
			},
		],
		series: [
			{},
			{ label: 'Visitors', stroke: c.visitors, width: 2.5 },
			{ label: 'Page views', stroke: c.views, width: 2.5 },
			{ label: 'Visitors, previous period', stroke: c.visitors, width: 1.5, dash },
			{ label: 'Page views, previous period', stroke: c.views, width: 1.5, dash },
		],
		hooks: { setCursor: [(plot) => onCursor(plot.cursor.idx ?? null)] },
	}
}

function chartData({ current, previous }: ChartProps): uPlot.AlignedData {
	// The previous period is drawn day for day under the current one: its first day under ours.
	return [
		current.map((day) => Date.parse(`${day.day}T00:00:00Z`) / 1000),
		current.map((day) => day.visitors),
		current.map((day) => day.views),
		current.map((_, i) => previous[i]?.visitors ?? null),
		current.map((_, i) => previous[i]?.views ?? null),
	]
}

/** Draws the chart into `box`, follows its width and the colour scheme; gives a cleanup. */
function useChart(
	box: React.RefObject<HTMLDivElement | null>,
	props: ChartProps,
	onCursor: (index: number | null) => void,
) {
	const { current, previous } = props
	useEffect(() => {
		const element = box.current
		if (!element) return
		let plot: uPlot | undefined
		let cancelled = false
		const scheme = matchMedia('(prefers-color-scheme: dark)')
		const width = () => Math.max(200, Math.floor(element.clientWidth))
		const observer = new ResizeObserver(() =>
			plot?.setSize({ width: width(), height: chartHeight }),
		)
		let library: typeof uPlot | undefined
		const draw = () => {
			if (!library || cancelled) return
			plot?.destroy()
			plot = new library(
				options(library, element, width(), onCursor),
				chartData({ current, previous }),
				element,
			)
		}
		import('uplot')
			.then((module) => {
				library = module.default
				draw()
				observer.observe(element)
				scheme.addEventListener('change', draw)
			})
			.catch(() => {
				// The table under the chart carries the same numbers.
				if (!cancelled) element.dataset.failed = 'true'
			})
		return () => {
			cancelled = true
			observer.disconnect()
			scheme.removeEventListener('change', draw)
			plot?.destroy()
		}
	}, [box, current, previous, onCursor])
}

export function DailyChart(props: ChartProps) {
	const { current, previous } = props
	const box = useRef<HTMLDivElement>(null)
	const [pointed, setPointed] = useState<number | null>(null)
	useChart(box, props, setPointed)
	const day = pointed === null ? undefined : current[pointed]
	const before = pointed === null ? undefined : previous[pointed]
	return (
		<figure className="daily-figure" aria-labelledby="daily-title" aria-describedby="daily-summary">
			<figcaption>
				<h2 id="daily-title">Visitors and page views per day</h2>
				<p id="daily-summary">{chartSummary(props)}</p>
			</figcaption>
			<ul className="chart-key" aria-label="Key">
				<li>
					<span className="swatch visitors" aria-hidden="true" /> Visitors
				</li>
				<li>
					<span className="swatch views" aria-hidden="true" /> Page views
				</li>
				<li>
					<span className="swatch previous" aria-hidden="true" /> Dashed:{' '}
					{previousPeriodName(current.length)}
				</li>
			</ul>
			{/* The canvas says nothing to a screen reader; the summary and the table do. */}
			<div className="chart" ref={box} aria-hidden="true" />
			<p className="chart-readout" aria-hidden="true">
				{day
					? `${formatDay(day.day)}: ${formatCount(day.visitors)} visitors, ${formatCount(day.views)} page views` +
						(before
							? ` (${formatDay(before.day)}: ${formatCount(before.visitors)} visitors, ${formatCount(before.views)} page views)`
							: '')
					: 'Point at the chart, or touch it, to read a day’s numbers.'}
			</p>
			<details className="chart-numbers">
				<summary>Show the numbers</summary>
				<DailyTable current={current} previous={previous} />
			</details>
		</figure>
	)
}
