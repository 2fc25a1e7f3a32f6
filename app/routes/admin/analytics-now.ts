// Visitors right now, for the dashboard's live figure (being built).
import { data } from 'react-router'
import type { Route } from './+types/analytics-now'

export function loader(_: Route.LoaderArgs) {
	return data({ error: 'Not available yet.' }, 404)
}
