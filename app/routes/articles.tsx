import { Link } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { ArticleCard } from '#app/features/articles/article-card.tsx'
import { listArticles } from '#app/features/articles/articles.server.ts'
import { useLiveArticles } from '#app/features/articles/use-live-articles.ts'
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
	const { items, announcement, fresh } = useLiveArticles(loaderData.items, loaderData.changeId, {
		acceptsNew: loaderData.isFirstPage,
	})
	return (
		<div className="page articles">
			<h1>Articles</h1>
			<NotifySlot />
			<p
				className="visually-hidden"
				role="status"
				aria-live="polite"
				data-testid="live-announcement"
			>
				{announcement}
			</p>
			{items.length === 0 ? (
				<p>Nothing published yet. New articles appear here as soon as they are published.</p>
			) : (
				<div className="article-list" data-testid="article-list">
					{items.map((article) => (
						<ArticleCard key={article.id} article={article} fresh={fresh.has(article.id)} />
					))}
				</div>
			)}
			<nav className="pager" aria-label="More articles">
				{loaderData.isFirstPage ? null : <Link to="/articles">Newest articles</Link>}
				{loaderData.nextCursor ? (
					<Link to={`/articles?cursor=${encodeURIComponent(loaderData.nextCursor)}`}>
						Older articles
					</Link>
				) : null}
			</nav>
		</div>
	)
}
