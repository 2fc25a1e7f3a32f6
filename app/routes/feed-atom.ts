import { buildFeed } from '#app/features/articles/feeds.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/feed-atom'

export async function loader({ context }: Route.LoaderArgs) {
	const { storage, siteUrl } = context.get(servicesContext)
	const feed = await buildFeed(storage, siteUrl)
	return new Response(feed.atom1(), {
		headers: {
			'Content-Type': 'application/atom+xml; charset=utf-8',
			'Cache-Control': 'public, max-age=300',
		},
	})
}
