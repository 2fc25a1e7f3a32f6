import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { LiveArticleList } from '#app/features/articles/live-article-list.tsx'
import { ListLanguageNote } from '#app/features/articles/translations.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { termListing } from '#app/features/tags/term-list.server.ts'
import { Picture } from '#app/features/uploads/picture.tsx'
import { imageSize } from '#app/features/uploads/uploads.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { listLanguage, readerListLanguage } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/author'

export const handle = { screen: 'author' } satisfies ScreenHandle

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const services = context.get(servicesContext)
	const language = await readerListLanguage(request, context)
	const { term, everyLanguage, ...page } = await termListing(
		services,
		request,
		params.slug,
		(slug) => services.storage.authors.findBySlug(slug),
		(author) => ({ author: author.slug }),
		language.filter,
	)
	// What a reader sees of a profile: never which account it belongs to.
	const { userId: _, ...author } = term
	const avatar = author.avatarUrl ? await imageSize(services.storage, author.avatarUrl) : undefined
	return {
		author,
		avatar: avatar ?? null,
		...page,
		language: listLanguage(language, everyLanguage),
	}
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	const i18n = rootI18n(matches)
	const siteTitle = site.title
	if (!loaderData) return [{ title: i18n._(msg`Page not found · ${siteTitle}`) }]
	const { author } = loaderData
	const url = absoluteUrl(siteUrl, publicPath('author', author.slug))
	const authorName = author.name
	const description = author.bio || i18n._(msg`Articles by ${authorName} on ${siteTitle}.`)
	return [
		...pageMeta({
			title: author.name,
			description,
			url,
			siteTitle: site.title,
			type: 'website',
			image: author.avatarUrl
				? { url: absoluteUrl(siteUrl, author.avatarUrl), alt: author.name }
				: null,
			jsonLd: {
				'@context': 'https://schema.org',
				'@type': 'ProfilePage',
				url,
				mainEntity: {
					'@type': 'Person',
					name: author.name,
					url,
					description: author.bio || undefined,
					image: author.avatarUrl ? absoluteUrl(siteUrl, author.avatarUrl) : undefined,
					sameAs: author.website ? [author.website] : undefined,
				},
			},
		}),
		{
			tagName: 'link',
			rel: 'alternate',
			type: 'application/rss+xml',
			title: `${author.name} · ${site.title}`,
			href: `${url}/feed.xml`,
		},
		{
			tagName: 'link',
			rel: 'alternate',
			type: 'application/atom+xml',
			title: `${author.name} · ${site.title} (Atom)`,
			href: `${url}/atom.xml`,
		},
		...(loaderData.isFirstPage ? [] : [{ name: 'robots', content: 'noindex, follow' }]),
	]
}

export default function AuthorPage({ loaderData }: Route.ComponentProps) {
	const { author, avatar } = loaderData
	const path = publicPath('author', author.slug)
	const { t } = useLingui()
	const authorName = author.name
	return (
		<div className="page articles term-page">
			<header className="list-header author-header">
				{author.avatarUrl ? (
					<Picture
						image={{
							url: author.avatarUrl,
							width: avatar?.width ?? null,
							height: avatar?.height ?? null,
						}}
						alt=""
						className="avatar"
						sizes="6rem"
					/>
				) : null}
				<div>
					<p className="breadcrumb">
						<Trans>Author</Trans>
					</p>
					<h1>{author.name}</h1>
					{author.bio ? <p className="lede">{author.bio}</p> : null}
					<p className="term-facts">
						{author.website ? (
							<a href={author.website} rel="me noopener">
								<Trans>Website</Trans>
							</a>
						) : null}
						<a href={`${path}/feed.xml`}>
							<Trans>RSS feed</Trans>
						</a>
					</p>
				</div>
			</header>
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
				author={author.slug}
				language={loaderData.language.filter}
				empty={t`Nothing by ${authorName} published yet.`}
			/>
		</div>
	)
}
