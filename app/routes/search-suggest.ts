// /search/suggest?q=: the titles offered under the search field as a reader types (JSON for the
// field's script; the plain form works without it). Published articles and pages only.
import { suggestTitles } from '#app/features/search/search.server.ts'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/search-suggest'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const params = new URL(request.url).searchParams
	const found = await suggestTitles(storage, params, context.get(clientIpContext))
	if (found.state === 'limited')
		return Response.json(
			{ suggestions: [], problem: 'Too many searches in a minute.' },
			{
				status: 429,
				headers: { 'Retry-After': String(found.retryAfterSeconds), 'Cache-Control': 'no-store' },
			},
		)
	// A moment in the reader's own cache: typing back over a word asks nothing again.
	return Response.json(
		{ suggestions: found.suggestions },
		{ headers: { 'Cache-Control': 'private, max-age=30' } },
	)
}
