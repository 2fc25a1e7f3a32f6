// A tag's and an author's own feeds: /tags/<slug>/feed.xml (RSS) and /tags/<slug>/atom.xml, and
// the same under /authors/<slug>/; their articles only.
import { msg } from '@lingui/core/macro'
import { type FeedScope, feedLanguage, renderFeed } from '#app/features/articles/feeds.server.ts'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { movedAddress } from '#app/features/redirects/redirects.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import type { Route } from './+types/term-feed'

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage, siteUrl } = context.get(servicesContext)
	// React Router matches paths in any case: /Authors/x/Atom.xml is this route too.
	const pathname = new URL(request.url).pathname.toLowerCase()
	const atom = pathname.endsWith('/atom.xml')
	const kind = pathname.startsWith('/authors/') ? 'author' : 'tag'
	let scope: FeedScope | undefined
	if (kind === 'tag') {
		const tag = await storage.tags.findBySlug(params.slug)
		scope = tag && { kind, tag }
	} else {
		const author = await storage.authors.findBySlug(params.slug)
		scope = author && { kind, author }
	}
	// A renamed or merged tag's (or profile's) feed goes where it went: subscriptions keep working.
	const file = atom ? 'atom.xml' : 'feed.xml'
	const find = (slug: string) =>
		kind === 'tag' ? storage.tags.findBySlug(slug) : storage.authors.findBySlug(slug)
	if (!scope) {
		const moved = await movedAddress(storage, request, {
			under: { base: publicPath(kind, params.slug), file },
			lowerCase: { slug: params.slug, found: find },
		})
		if (moved) throw moved
		// Read in a browser or by a feed reader: words, in the reader's language.
		const i18n = await requestI18n(request, context)
		throw new Response(
			kind === 'tag'
				? i18n._(msg`There is no tag at this address, so no feed either.`)
				: i18n._(msg`There is no author at this address, so no feed either.`),
			{
				status: 404,
				headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
			},
		)
	}
	const feed = await renderFeed(
		storage,
		siteUrl,
		atom ? 'atom' : 'rss',
		scope,
		feedLanguage(request),
	)
	return new Response(feed, {
		headers: {
			'Content-Type': atom
				? 'application/atom+xml; charset=utf-8'
				: 'application/rss+xml; charset=utf-8',
			'Cache-Control': 'public, max-age=300',
		},
	})
}
