// GET /api/admin/articles (?q, status, page) and POST /api/admin/articles (a new article).

import { methodNotAllowed, withApiCaller } from '#app/features/api-keys/api-http.server.ts'
import { createArticleApi, listArticlesApi } from '#app/features/articles/article-api.server.ts'
import type { Route } from './+types/admin-articles'

export function loader({ context, request }: Route.LoaderArgs) {
	return withApiCaller(context, request, listArticlesApi)
}

export function action({ context, request }: Route.ActionArgs) {
	return withApiCaller(context, request, (api) =>
		request.method === 'POST' ? createArticleApi(api) : methodNotAllowed(request, allow),
	)
}

const allow = ['GET', 'HEAD', 'POST']
