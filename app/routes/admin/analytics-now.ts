// Visitors right now, for the dashboard's live figure (app/features/analytics/use-dashboard-now.ts).
// Under the editor layout, so its middleware turns anyone not signed in away before this runs.

import { activeVisitors } from '#app/features/analytics/dashboard.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/analytics-now'

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	return Response.json(await activeVisitors(storage, new Date()), {
		headers: { 'Cache-Control': 'no-store' },
	})
}
