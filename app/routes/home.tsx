import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { ArticleCard } from '#app/features/articles/article-card.tsx'
import { listInReaderLanguage } from '#app/features/articles/articles.server.ts'
import { ListLanguageNote } from '#app/features/articles/translations.tsx'
import { useLiveArticles } from '#app/features/articles/use-live-articles.ts'
import { movedShortlink } from '#app/features/redirects/redirects.server.ts'
import { taglineIn } from '#app/features/site/tagline.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readerListLanguage } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/home'

export const handle = { screen: 'home' } satisfies ScreenHandle

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, remoteConfig } = context.get(servicesContext)
	// A link to a site moved in from WordPress (/?p=123): to where that post is now.
	const moved = await movedShortlink(storage, request)
	if (moved) throw moved
	const [{ home_latest_count: count }, language] = await Promise.all([
		remoteConfig.valuesFor(request),
		readerListLanguage(request, context),
	])
	// With the change id it was read at: the list stays live from there, as /articles does. In
	// the reader's language, where the site offers several.
	const { items, changeId, everyLanguage } = await listInReaderLanguage(storage, {
		limit: Math.max(count, 1),
		language: language.filter,
	})
	return {
		latest: count > 0 ? items : [],
		changeId,
		count,
		language: everyLanguage ? undefined : language.filter,
		// Said above the list where the site offers several languages: which, and the way to all.
		listLanguage: language.offered
			? { locale: language.locale, noneInLanguage: everyLanguage && !!language.filter }
			: undefined,
	}
}

export function meta({ matches }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	return pageMeta({
		title: site.title,
		description: taglineIn(rootI18n(matches), site),
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
	const { t, i18n } = useLingui()
	const siteTitle = site.title
	const { items, announcement, fresh } = useLiveArticles(loaderData.latest, loaderData.changeId, {
		acceptsNew: loaderData.count > 0,
		limit: loaderData.count,
		language: loaderData.language,
	})
	return (
		<div className="page home">
			<img
				className="home-logo"
				src={site.logoUrl}
				alt={t`${siteTitle} logo`}
				width={160}
				height={160}
			/>
			<h1 className="home-title">{site.title}</h1>
			<p className="tagline">{taglineIn(i18n, site)}</p>
			<section aria-labelledby="latest-heading" className="latest">
				<h2 id="latest-heading">
					<Trans>Latest articles</Trans>
				</h2>
				{loaderData.listLanguage && loaderData.count > 0 ? (
					<ListLanguageNote
						locale={loaderData.listLanguage.locale}
						all={false}
						noneInLanguage={loaderData.listLanguage.noneInLanguage}
						path="/articles"
					/>
				) : null}
				<p className="visually-hidden" role="status" aria-live="polite">
					{announcement}
				</p>
				{loaderData.count === 0 ? null : items.length === 0 ? (
					<p>
						<Trans>Nothing published yet. Check back soon.</Trans>
					</p>
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
						<Trans>All articles</Trans>
					</Link>
				</p>
			</section>
		</div>
	)
}
