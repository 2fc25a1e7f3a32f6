// Any other address under /api/admin: callers learn it does not exist only once they are who
// they say, so the API's shape is not mapped by strangers.

import { apiError, withApiCaller } from '#app/features/api-keys/api-http.server.ts'
import type { Route } from './+types/admin-not-found'

const missing = () =>
	apiError(404, 'There is no such admin API endpoint. The articles API is at /api/admin/articles.')

export function loader({ context, request }: Route.LoaderArgs) {
	return withApiCaller(context, request, missing)
}

export function action({ context, request }: Route.ActionArgs) {
	return withApiCaller(context, request, missing)
}
