// A dashboard table as CSV (being built).
import { data } from 'react-router'
import type { Route } from './+types/analytics-export'

export function loader(_: Route.LoaderArgs) {
	return data({ error: 'There is nothing to export yet.' }, 404)
}
