// One of the dashboard's tables as a CSV download: ?table=pages|articles|… and the page's range.
// Under the editor layout, so its middleware turns anyone not signed in away before this runs.

import { exportTable } from '#app/features/analytics/dashboard-export.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/analytics-export'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const result = await exportTable(storage, new URL(request.url).searchParams, new Date())
	if (!result.ok) {
		return new Response(`This table cannot be exported.\n${result.message}\n`, {
			status: 400,
			headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
		})
	}
	return new Response(result.csv, {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': `attachment; filename="${result.filename}"`,
			'Cache-Control': 'no-store',
		},
	})
}
