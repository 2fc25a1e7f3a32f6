// GET, PUT and DELETE /api/admin/articles/:id.

import { methodNotAllowed, parseId, withApiCaller } from '#app/features/api-keys/api-http.server.ts'
import {
	deleteArticleApi,
	getArticleApi,
	notFound,
	updateArticleApi,
} from '#app/features/articles/article-api.server.ts'
import type { Route } from './+types/admin-article'

const allow = ['GET', 'HEAD', 'PUT', 'DELETE']

export function loader({ context, request, params }: Route.LoaderArgs) {
	return withApiCaller(context, request, (api) => {
		const id = parseId(params.id)
		return id === null ? notFound() : getArticleApi(api, id)
	})
}

export function action({ context, request, params }: Route.ActionArgs) {
	return withApiCaller(context, request, (api) => {
		const handle = { PUT: updateArticleApi, DELETE: deleteArticleApi }[request.method]
		if (!handle) return methodNotAllowed(request, allow)
		const id = parseId(params.id)
		return id === null ? notFound() : handle(api, id)
	})
}
