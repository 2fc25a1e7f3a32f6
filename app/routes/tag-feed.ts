// A tag's own feeds: /tags/<slug>/feed.xml (RSS) and /tags/<slug>/atom.xml, its articles only.
import { data } from 'react-router'
import { feedLanguage, renderFeed } from '#app/features/articles/feeds.server.ts'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { movedAddress } from '#app/features/redirects/redirects.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/tag-feed'

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage, siteUrl } = context.get(servicesContext)
	const atom = new URL(request.url).pathname.endsWith('/atom.xml')
	const tag = await storage.tags.findBySlug(params.slug)
	// A renamed or merged tag's feed goes where the tag went: subscriptions keep working.
	const file = atom ? 'atom.xml' : 'feed.xml'
	if (!tag)
		throw (
			(await movedAddress(storage, request, { base: publicPath('tag', params.slug), file })) ??
			data(null, { status: 404 })
		)
	const feed = await renderFeed(storage, siteUrl, atom ? 'atom' : 'rss', tag, feedLanguage(request))
	return new Response(feed, {
		headers: {
			'Content-Type': atom
				? 'application/atom+xml; charset=utf-8'
				: 'application/rss+xml; charset=utf-8',
			'Cache-Control': 'public, max-age=300',
		},
	})
}
