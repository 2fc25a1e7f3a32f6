import { buildFeed } from '#app/features/articles/feeds.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/feed-rss'

export async function loader({ context }: Route.LoaderArgs) {
	const { storage, siteUrl } = context.get(servicesContext)
	const feed = await buildFeed(storage, siteUrl)
	return new Response(feed.rss2(), {
		headers: {
			'Content-Type': 'application/rss+xml; charset=utf-8',
			'Cache-Control': 'public, max-age=300',
		},
	})
}
