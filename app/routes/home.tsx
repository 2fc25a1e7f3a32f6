import { Link } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { ArticleCard } from '#app/features/articles/article-card.tsx'
import { latestArticles } from '#app/features/articles/articles.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/home'

export const handle = { screen: 'home' } satisfies ScreenHandle

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, remoteConfig } = context.get(servicesContext)
	const { home_latest_count: count } = await remoteConfig.valuesFor(request)
	return { latest: count > 0 ? await latestArticles(storage, count) : [], count }
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
				{loaderData.count === 0 ? null : loaderData.latest.length === 0 ? (
					<p>Nothing published yet. Check back soon.</p>
				) : (
					<div className="article-list">
						{loaderData.latest.map((article) => (
							<ArticleCard key={article.id} article={article} headingLevel={3} />
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
