import { Link } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { ArticleCard } from '#app/features/articles/article-card.tsx'
import { listArticles } from '#app/features/articles/articles.server.ts'
import { useLiveArticles } from '#app/features/articles/use-live-articles.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/home'

export const handle = { screen: 'home' } satisfies ScreenHandle

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, remoteConfig } = context.get(servicesContext)
	const { home_latest_count: count } = await remoteConfig.valuesFor(request)
	// With the change id it was read at: the list stays live from there, as /articles does.
	const { items, changeId } = await listArticles(storage, { limit: Math.max(count, 1) })
	return { latest: count > 0 ? items : [], changeId, count }
}

export function meta({ matches }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	return pageMeta({
		title: site.title,
		description: site.tagline,
		// /home, the address every link on the site uses: a canonical pointing a page at the bare
		// root reads to crawlers (and Lighthouse) as the common all-pages-to-root mistake.
		url: absoluteUrl(siteUrl, '/home'),
		siteTitle: site.title,
		jsonLd: {
			'@context': 'https://schema.org',
			'@type': 'WebSite',
			name: site.title,
			url: absoluteUrl(siteUrl, '/'),
		},
	})
}

export default function Home({ loaderData, matches }: Route.ComponentProps) {
	const { site } = rootData(matches)
	const { items, announcement, fresh } = useLiveArticles(loaderData.latest, loaderData.changeId, {
		acceptsNew: loaderData.count > 0,
		limit: loaderData.count,
	})
	return (
		<div className="page home">
			<img
				className="home-logo"
				src={site.logoUrl}
				alt={`${site.title} logo`}
				width={160}
				height={160}
			/>
			<h1 className="home-title">{site.title}</h1>
			<p className="tagline">{site.tagline}</p>
			<section aria-labelledby="latest-heading" className="latest">
				<h2 id="latest-heading">Latest articles</h2>
				<p className="visually-hidden" role="status" aria-live="polite">
					{announcement}
				</p>
				{loaderData.count === 0 ? null : items.length === 0 ? (
					<p>Nothing published yet. Check back soon.</p>
				) : (
					<div className="article-list" data-testid="latest-list">
						{items.map((article) => (
							<ArticleCard
								key={article.id}
								article={article}
								headingLevel={3}
								fresh={fresh.has(article.id)}
							/>
						))}
					</div>
				)}
				<p>
					<Link to="/articles" className="more-link">
						All articles
					</Link>
				</p>
			</section>
		</div>
	)
}
