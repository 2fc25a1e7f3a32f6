// The editors' analytics dashboard: a period chosen with a plain GET form, its figures against
// the period before, the daily chart, the top rows of each table and the visitors right now.

import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data } from 'react-router'
import uplotStyles from 'uplot/dist/uPlot.min.css?url'
import {
	activeVisitors,
	loadDashboard,
	parseDashboardRange,
} from '#app/features/analytics/dashboard.server.ts'
import { DailyChart } from '#app/features/analytics/dashboard-chart.tsx'
import { RangeForm } from '#app/features/analytics/dashboard-range-form.tsx'
import {
	DashboardTableSection,
	NowSection,
	SummaryFigures,
} from '#app/features/analytics/dashboard-sections.tsx'
import { formatDay } from '#app/features/analytics/dashboard-tables.ts'
import { siteDay } from '#app/features/site/site-settings.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n, useSiteTimeZone } from '#app/lib/root-data.ts'
import analyticsStyles from '#app/styles/admin-analytics.css?url'
import type { Route } from './+types/analytics'

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: uplotStyles },
	{ rel: 'stylesheet', href: analyticsStyles },
]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{ title: i18n._(msg`Analytics · Editor · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

export function headers() {
	return { 'Cache-Control': 'no-store' }
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const now = new Date()
	const today = await siteDay(storage, now)
	const parsed = parseDashboardRange(new URL(request.url).searchParams, today)
	if (!parsed.ok) {
		const nowFigure = await activeVisitors(storage, now)
		return data(
			{ ok: false as const, today, errors: parsed.errors, input: parsed.input, now: nowFigure },
			400,
		)
	}
	const dashboard = await loadDashboard(
		storage,
		parsed.range,
		now,
		await requestI18n(request, context),
	)
	return { ok: true as const, today, range: parsed.range, ...dashboard }
}

/** "1 Nov 2026 to 30 Nov 2026". */
function PeriodTitle({ first, last }: { first: string; last: string }) {
	return (
		<Trans>
			{first} to {last}
		</Trans>
	)
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
	const { today, now } = loaderData
	const { i18n } = useLingui()
	const zone = useSiteTimeZone() ?? 'UTC'
	const { locale } = i18n
	return (
		<div className="analytics">
			<h1>
				<Trans>Analytics</Trans>
			</h1>
			<p className="hint">
				<Trans>
					Counted without cookies or stored addresses. Days run from midnight to midnight in the
					site’s time zone, {zone}; today counts until midnight there.
				</Trans>
			</p>
			<NowSection initial={now} />
			{loaderData.ok ? (
				<>
					<RangeForm
						today={today}
						choice={loaderData.range.choice}
						from={loaderData.range.current.from}
						to={loaderData.range.current.to}
						errors={{}}
					/>
					<section aria-labelledby="period-title" className="period">
						<h2 id="period-title">
							<PeriodTitle
								first={formatDay(loaderData.range.current.from, locale)}
								last={formatDay(loaderData.range.current.to, locale)}
							/>
						</h2>
						<SummaryFigures
							current={loaderData.totals.current}
							previous={loaderData.totals.previous}
							days={loaderData.range.days}
						/>
					</section>
					<DailyChart current={loaderData.daily.current} previous={loaderData.daily.previous} />
					<div className="stats-grid">
						{loaderData.tables.map((table) => (
							<DashboardTableSection
								key={table.name}
								table={table}
								query={loaderData.range.query}
							/>
						))}
					</div>
				</>
			) : (
				<>
					<p role="alert" className="form-error">
						<Trans>These dates cannot be shown. Check the messages in the form below.</Trans>
					</p>
					<RangeForm
						today={today}
						choice={loaderData.input.choice}
						from={loaderData.input.from}
						to={loaderData.input.to}
						errors={loaderData.errors}
					/>
				</>
			)}
		</div>
	)
}
