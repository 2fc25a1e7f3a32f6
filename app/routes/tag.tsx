import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { LiveArticleList } from '#app/features/articles/live-article-list.tsx'
import { ListLanguageNote } from '#app/features/articles/translations.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { termListing } from '#app/features/tags/term-list.server.ts'
import { Cover } from '#app/features/uploads/picture.tsx'
import { imageSize } from '#app/features/uploads/uploads.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { listLanguage, readerListLanguage } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/tag'

export const handle = { screen: 'tag' } satisfies ScreenHandle

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const services = context.get(servicesContext)
	const language = await readerListLanguage(request, context)
	const { term, everyLanguage, ...page } = await termListing(
		services,
		request,
		params.slug,
		(slug) => services.storage.tags.findBySlug(slug),
		(tag) => ({ tag: tag.slug }),
		language.filter,
	)
	const cover = term.coverImageUrl
		? await imageSize(services.storage, term.coverImageUrl)
		: undefined
	return {
		tag: term,
		cover: cover ?? null,
		...page,
		language: listLanguage(language, everyLanguage),
	}
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	const i18n = rootI18n(matches)
	const siteTitle = site.title
	if (!loaderData) return [{ title: i18n._(msg`Page not found · ${siteTitle}`) }]
	const { tag } = loaderData
	const path = publicPath('tag', tag.slug)
	const url = absoluteUrl(siteUrl, path)
	const tagName = tag.name
	const description = tag.description || i18n._(msg`Articles on ${tagName} from ${siteTitle}.`)
	return [
		...pageMeta({
			title: tag.name,
			description,
			url,
			siteTitle: site.title,
			image: tag.coverImageUrl
				? { url: absoluteUrl(siteUrl, tag.coverImageUrl), alt: tag.coverImageAlt ?? '' }
				: null,
			jsonLd: {
				'@context': 'https://schema.org',
				'@type': 'CollectionPage',
				name: tag.name,
				description,
				url,
				isPartOf: { '@type': 'WebSite', name: site.title, url: absoluteUrl(siteUrl, '/') },
				mainEntity: {
					'@type': 'ItemList',
					itemListElement: loaderData.items.map((article, index) => ({
						'@type': 'ListItem',
						position: index + 1,
						url: absoluteUrl(siteUrl, `/articles/${article.slug}`),
					})),
				},
			},
		}),
		{
			tagName: 'link',
			rel: 'alternate',
			type: 'application/rss+xml',
			title: `${tag.name} · ${site.title}`,
			href: absoluteUrl(siteUrl, `${path}/feed.xml`),
		},
		{
			tagName: 'link',
			rel: 'alternate',
			type: 'application/atom+xml',
			title: `${tag.name} · ${site.title} (Atom)`,
			href: absoluteUrl(siteUrl, `${path}/atom.xml`),
		},
		...(loaderData.isFirstPage ? [] : [{ name: 'robots', content: 'noindex, follow' }]),
	]
}

export default function TagPage({ loaderData }: Route.ComponentProps) {
	const { tag, cover } = loaderData
	const { t } = useLingui()
	const path = publicPath('tag', tag.slug)
	const tagName = tag.name
	return (
		<div className="page articles term-page">
			<header className="list-header">
				<p className="breadcrumb">
					<Trans>Tag</Trans>
				</p>
				<h1>{tag.name}</h1>
				{tag.description ? <p className="lede">{tag.description}</p> : null}
				<p className="term-facts">
					<a href={`${path}/feed.xml`}>
						<Trans>RSS feed</Trans>
					</a>
				</p>
				{/* No "Notify me of new articles" here: it notifies of every article, and beside a tag's
				    own feed a reader would take it for the tag's alone. */}
			</header>
			{tag.coverImageUrl ? (
				<Cover
					of={{
						coverImageUrl: tag.coverImageUrl,
						coverImageAlt: tag.coverImageAlt,
						coverImageWidth: cover?.width ?? null,
						coverImageHeight: cover?.height ?? null,
					}}
					className="cover"
					sizes="(min-width: 60rem) 56rem, 100vw"
				/>
			) : null}
			{loaderData.language.offered ? (
				<ListLanguageNote
					locale={loaderData.language.locale}
					all={!loaderData.language.filter}
					noneInLanguage={loaderData.language.noneInReaderLanguage}
					path={path}
				/>
			) : null}
			<LiveArticleList
				initial={loaderData.items}
				changeId={loaderData.changeId}
				isFirstPage={loaderData.isFirstPage}
				nextCursor={loaderData.nextCursor}
				path={
					loaderData.language.filter || !loaderData.language.offered ? path : `${path}?lang=all`
				}
				tag={tag.slug}
				language={loaderData.language.filter}
				empty={t`Nothing on ${tagName} yet. Articles with this tag appear here as soon as they are published.`}
			/>
		</div>
	)
}
