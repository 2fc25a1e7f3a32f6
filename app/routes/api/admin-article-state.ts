// POST /api/admin/articles/:id/publish {version}: makes the article public now.
// POST /api/admin/articles/:id/unpublish {version}: takes it off the site; it stays as a draft.
// One module for both addresses (app/routes.ts): they differ only in the change they make.

import { methodNotAllowed, parseId, withApiCaller } from '#app/features/api-keys/api-http.server.ts'
import {
	notFound,
	publishArticleApi,
	unpublishArticleApi,
} from '#app/features/articles/article-api.server.ts'
import type { Route } from './+types/admin-article-state'

const allow = ['POST']

export function loader({ context, request }: Route.LoaderArgs) {
	return withApiCaller(context, request, () => methodNotAllowed(request, allow))
}

export function action({ context, request, params }: Route.ActionArgs) {
	return withApiCaller(context, request, (api) => {
		if (request.method !== 'POST') return methodNotAllowed(request, allow)
		const id = parseId(params.id)
		if (id === null) return notFound()
		const change = new URL(request.url).pathname.endsWith('/unpublish')
			? unpublishArticleApi
			: publishArticleApi
		return change(api, id)
	})
}
