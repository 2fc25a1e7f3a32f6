import { buildSitemap } from '#app/features/articles/feeds.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/sitemap'

export async function loader({ context }: Route.LoaderArgs) {
	const { storage, siteUrl } = context.get(servicesContext)
	return new Response(await buildSitemap(storage, siteUrl), {
		headers: {
			'Content-Type': 'application/xml; charset=utf-8',
			'Cache-Control': 'public, max-age=300',
		},
	})
}
