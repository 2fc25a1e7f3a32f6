import { feedLanguage, renderFeed } from '#app/features/articles/feeds.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/feed-atom'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, siteUrl } = context.get(servicesContext)
	// `?lang=es`: the articles in one language (decision 033).
	const feed = await renderFeed(storage, siteUrl, 'atom', undefined, feedLanguage(request))
	return new Response(feed, {
		headers: {
			'Content-Type': 'application/atom+xml; charset=utf-8',
			'Cache-Control': 'public, max-age=300',
		},
	})
}
