import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { listArticles } from '#app/features/articles/articles.server.ts'
import { LiveArticleList } from '#app/features/articles/live-article-list.tsx'
import { NotifySlot } from '#app/features/push/notify-slot.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/articles'

export const handle = { screen: 'articles' } satisfies ScreenHandle

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, remoteConfig } = context.get(servicesContext)
	const cursor = new URL(request.url).searchParams.get('cursor')
	const { articles_page_size: limit } = await remoteConfig.valuesFor(request)
	const page = await listArticles(storage, { cursor, limit })
	return { ...page, isFirstPage: !cursor }
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	return [
		...pageMeta({
			title: 'Articles',
			description: `The latest articles from ${site.title}, newest first.`,
			url: absoluteUrl(siteUrl, '/articles'),
			siteTitle: site.title,
		}),
		// Older pages are reachable by link but the first page is the one to index.
		...(loaderData?.isFirstPage === false ? [{ name: 'robots', content: 'noindex, follow' }] : []),
	]
}

export default function Articles({ loaderData }: Route.ComponentProps) {
	return (
		<div className="page articles">
			<header className="list-header">
				<h1>Articles</h1>
				<NotifySlot />
			</header>
			<LiveArticleList
				initial={loaderData.items}
				changeId={loaderData.changeId}
				isFirstPage={loaderData.isFirstPage}
				nextCursor={loaderData.nextCursor}
				path="/articles"
				empty="Nothing published yet. New articles appear here as soon as they are published."
			/>
		</div>
	)
}
