// Visitors and page views per day, with the previous period dashed: a uPlot canvas drawn in the
// browser (the library loads with the chart, never with any other page), a summary in words and
// the same numbers as a table for anyone who cannot see the chart.
import type { I18n } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import type uPlot from 'uplot'
import type { AnalyticsDay } from '#storage/port/analytics.ts'
import { DailyTable } from './dashboard-daily-table.tsx'
import { type ChartProps, formatCount, formatDay, perLocale } from './dashboard-tables.ts'

const chartHeight = 300
const dayTick = perLocale(
	(locale) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
)
const monthTick = perLocale(
	(locale) => new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }),
)
const dash = [6, 5]
const day = 86_400
const month = 30 * day
const year = 365 * day

/**
 * The day axis's steps between ticks, in seconds: whole days, then months and years (uPlot's own
 * steps from a day up). Its defaults go down to hours, and a week on a wide chart was ticked every
 * 12 hours: each day named twice.
 */
export const dayAxisSteps = [
	...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15].map((n) => n * day),
	...[1, 2, 3, 4, 6].map((n) => n * month),
	...[1, 2, 5, 10].map((n) => n * year),
]

/**
 * The day axis's labels: days as "3 Nov"; months as "Nov 2026" when the ticks are a month or
 * more apart. A tick between two days' midnights (UTC, as the chart's days are) has none.
 */
export function dayAxisLabels(splits: number[], step: number, locale: string): string[] {
	const format = (step >= month ? monthTick : dayTick)(locale)
	return splits.map((seconds) =>
		seconds % day === 0 ? format.format(new Date(seconds * 1000)) : '',
	)
}

function sum(days: AnalyticsDay[], key: 'visitors' | 'views') {
	return days.reduce((total, day) => total + day[key], 0)
}

/** The figure in words: the totals, the busiest day and what the dashed lines are. */
export function chartSummary({ current, previous }: ChartProps, i18n: I18n): string {
	const first = current[0]
	const last = current[current.length - 1]
	if (!first || !last) return i18n._(msg`No days to show.`)
	const { locale } = i18n
	const firstDay = formatDay(first.day, locale)
	const lastDay = formatDay(last.day, locale)
	const visitors = sum(current, 'visitors')
	const views = sum(current, 'views')
	const sentences = [
		i18n._(
			msg`${firstDay} to ${lastDay}: ${plural(visitors, { one: '# visitor', other: '# visitors' })} and ${plural(views, { one: '# page view', other: '# page views' })} in all.`,
		),
	]
	const busiest = current.reduce((best, day) => (day.visitors > best.visitors ? day : best), first)
	const busiestDay = formatDay(busiest.day, locale)
	const busiestVisitors = busiest.visitors
	sentences.push(
		visitors === 0
			? i18n._(msg`No views on any day.`)
			: i18n._(
					msg`The busiest day was ${busiestDay}, with ${plural(busiestVisitors, { one: '# visitor', other: '# visitors' })}.`,
				),
	)
	const before = previous[0]
	if (before) {
		const days = current.length
		const beforeDay = formatDay(before.day, locale)
		const previousVisitors = sum(previous, 'visitors')
		const previousViews = sum(previous, 'views')
		sentences.push(
			i18n._(
				msg`Dashed lines show ${plural(days, { one: 'the previous day', other: 'the previous # days' })} (from ${beforeDay}): ${plural(previousVisitors, { one: '# visitor', other: '# visitors' })} and ${plural(previousViews, { one: '# page view', other: '# page views' })}.`,
			),
		)
	}
	return sentences.join(' ')
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
	i18n: I18n,
): uPlot.Options {
	const c = colours(element)
	const { locale } = i18n
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
		// A day is the site's (in its time zone), given as its date: the axis reads the date at UTC
		// midnight, and must not shift it into the reader's zone.
		tzDate: (seconds) => library.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
		legend: { show: false },
		cursor: { drag: { x: false, y: false }, points: { size: 8 } },
		scales: {
			// One day alone is drawn between the days either side of it: uPlot widens a one-value
			// scale by 86,400 of its milliseconds, which in seconds is a thousand days.
			x: {
				time: true,
				range: (plot, min, max) =>
					plot.data[0].length === 1 ? [min - day, min + day] : [min, max],
			},
			y: { range: (_plot, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
		},
		axes: [
			{
				...axis,
				label: i18n._(msg`Day`),
				space: 60,
				incrs: dayAxisSteps,
				values: (_plot, splits, _axis, _space, step) => dayAxisLabels(splits, step, locale),
			},
			{
				...axis,
				label: i18n._(msg`Visitors and page views`),
				// Whole visitors and views only.
				incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 1e6],
				values: (_plot, splits) => splits.map((n) => formatCount(n, locale)),
				size: 60,
			},
		],
		series: [
			{},
			{ label: i18n._(msg`Visitors`), stroke: c.visitors, width: 2.5 },
			{ label: i18n._(msg`Page views`), stroke: c.views, width: 2.5 },
			{
				label: i18n._(msg`Visitors, previous period`),
				stroke: c.visitors,
				width: 1.5,
				dash,
			},
			{ label: i18n._(msg`Page views, previous period`), stroke: c.views, width: 1.5, dash },
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
	i18n: I18n,
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
				options(library, element, width(), onCursor, i18n),
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
	}, [box, current, previous, onCursor, i18n])
}

/** A day's numbers where the pointer is, and the same day of the previous period's. */
function readout(day: AnalyticsDay, before: AnalyticsDay | undefined, i18n: I18n): string {
	const { locale } = i18n
	const dayLabel = formatDay(day.day, locale)
	const { visitors, views } = day
	if (!before)
		return i18n._(
			msg`${dayLabel}: ${plural(visitors, { one: '# visitor', other: '# visitors' })}, ${plural(views, { one: '# page view', other: '# page views' })}`,
		)
	const beforeLabel = formatDay(before.day, locale)
	const visitorsBefore = before.visitors
	const viewsBefore = before.views
	return i18n._(
		msg`${dayLabel}: ${plural(visitors, { one: '# visitor', other: '# visitors' })}, ${plural(views, { one: '# page view', other: '# page views' })} (${beforeLabel}: ${plural(visitorsBefore, { one: '# visitor', other: '# visitors' })}, ${plural(viewsBefore, { one: '# page view', other: '# page views' })})`,
	)
}

export function DailyChart(props: ChartProps) {
	const { current, previous } = props
	const { t, i18n } = useLingui()
	const box = useRef<HTMLDivElement>(null)
	const [pointed, setPointed] = useState<number | null>(null)
	useChart(box, props, setPointed, i18n)
	const day = pointed === null ? undefined : current[pointed]
	const before = pointed === null ? undefined : previous[pointed]
	const days = current.length
	return (
		<figure className="daily-figure" aria-labelledby="daily-title" aria-describedby="daily-summary">
			<figcaption>
				<h2 id="daily-title">
					<Trans>Visitors and page views per day</Trans>
				</h2>
				<p id="daily-summary">{chartSummary(props, i18n)}</p>
			</figcaption>
			<ul className="chart-key" aria-label={t`Key`}>
				<li>
					<span className="swatch visitors" aria-hidden="true" /> <Trans>Visitors</Trans>
				</li>
				<li>
					<span className="swatch views" aria-hidden="true" /> <Trans>Page views</Trans>
				</li>
				<li>
					<span className="swatch previous" aria-hidden="true" />{' '}
					{t`Dashed: ${plural(days, { one: 'the previous day', other: 'the previous # days' })}`}
				</li>
			</ul>
			{/* The canvas says nothing to a screen reader; the summary and the table do. */}
			<div className="chart" ref={box} aria-hidden="true" />
			<p className="chart-readout" aria-hidden="true">
				{day
					? readout(day, before, i18n)
					: t`Point at the chart, or touch it, to read a day’s numbers.`}
			</p>
			<details className="chart-numbers">
				<summary>
					<Trans>Show the numbers</Trans>
				</summary>
				<DailyTable current={current} previous={previous} />
			</details>
		</figure>
	)
}
