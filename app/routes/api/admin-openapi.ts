// GET /api/admin/openapi.json: the admin API's OpenAPI 3.1 description, generated from the schemas
// its handlers use (app/features/api-keys/openapi.ts), for an API key's holder or a signed-in editor.
import { methodNotAllowed, withApiCaller } from '#app/features/api-keys/api-http.server.ts'
import { adminApiDescription } from '#app/features/api-keys/openapi.ts'
import type { Route } from './+types/admin-openapi'

const allow = ['GET', 'HEAD']

export function loader({ context, request }: Route.LoaderArgs) {
	return withApiCaller(context, request, ({ siteUrl }) =>
		Response.json(adminApiDescription(siteUrl), {
			headers: { 'Cache-Control': 'private, max-age=300' },
		}),
	)
}

export function action({ context, request }: Route.ActionArgs) {
	return withApiCaller(context, request, () => methodNotAllowed(request, allow))
}
