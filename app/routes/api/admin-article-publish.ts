// POST /api/admin/articles/:id/publish {version}: makes the article public now.
import type { Route } from './+types/admin-article-publish'
import { methodNotAllowed, parseId, withApiCaller } from '#app/features/api-keys/api-http.server.ts'
import { notFound, publishArticleApi } from '#app/features/articles/article-api.server.ts'

const allow = ['POST']

export function loader({ context, request }: Route.LoaderArgs) {
	return withApiCaller(context, request, () => methodNotAllowed(request, allow))
}

export function action({ context, request, params }: Route.ActionArgs) {
	return withApiCaller(context, request, (api) => {
		if (request.method !== 'POST') return methodNotAllowed(request, allow)
		const id = parseId(params.id)
		return id === null ? notFound() : publishArticleApi(api, id)
	})
}
