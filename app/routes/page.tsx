import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { slugPattern } from '#app/features/articles/slug-pattern.ts'
import { AlsoIn, languageAlternates } from '#app/features/articles/translations.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { movedAddress } from '#app/features/redirects/redirects.server.ts'
import { taglineIn } from '#app/features/site/tagline.ts'
import { articleImageSizes, Cover } from '#app/features/uploads/picture.tsx'
import { readerBodyHtml } from '#app/features/uploads/responsive-body.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { directionOf } from '#app/lib/i18n.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta, seoOf } from '#app/lib/seo.ts'
import { unknownAddress } from '#app/lib/unknown-address.ts'
import type { Route } from './+types/page'

// A page (About, Donate, Privacy) at its own address. Any other address of one segment is an
// unknown one: home, as before pages.
export const handle = { screen: 'page' } satisfies ScreenHandle

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const find = (slug: string) =>
		slugPattern.test(slug) ? storage.articles.findPublishedBySlug(slug, 'page') : undefined
	const page = await find(params.slug)
	if (!page)
		throw (
			(await movedAddress(storage, request, {
				lowerCase: { slug: params.slug, found: async (slug) => await find(slug) },
			})) ?? unknownAddress(request)
		)
	const [bodyHtml, translations] = await Promise.all([
		readerBodyHtml(storage, page.bodyHtml),
		storage.articles.translations(page.id),
	])
	return {
		page: {
			slug: page.slug,
			title: page.title,
			summary: page.summary,
			coverImageUrl: page.coverImageUrl,
			coverImageAlt: page.coverImageAlt,
			coverImageWidth: page.coverImageWidth,
			coverImageHeight: page.coverImageHeight,
			updatedAt: page.updatedAt,
			seoTitle: page.seoTitle,
			seoDescription: page.seoDescription,
			socialImageUrl: page.socialImageUrl,
			bodyHtml,
		},
		translations,
		// The page's language (root.tsx): empty, the site's.
		contentLanguage: page.language,
	}
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	if (!loaderData) return [{ title: site.title }]
	const { page, translations, contentLanguage } = loaderData
	const url = absoluteUrl(siteUrl, publicPath('page', page.slug))
	const alternates = languageAlternates(
		siteUrl,
		{ ...page, language: contentLanguage, kind: 'page' },
		translations,
		site.language,
	)
	const meta = pageMeta({
		...seoOf(page, siteUrl, taglineIn(rootI18n(matches), site)),
		url,
		siteTitle: site.title,
		jsonLd: {
			'@context': 'https://schema.org',
			'@type': 'WebPage',
			name: page.title,
			description: page.summary || undefined,
			url,
			dateModified: page.updatedAt,
			isPartOf: { '@type': 'WebSite', name: site.title, url: absoluteUrl(siteUrl, '/') },
			inLanguage: contentLanguage || site.language,
		},
	})
	return [...meta, ...alternates]
}

export default function Page({ loaderData, matches }: Route.ComponentProps) {
	const { page, translations } = loaderData
	const { site } = rootData(matches)
	const language = loaderData.contentLanguage || site.language
	return (
		<article className="page narrow site-page" lang={language} dir={directionOf(language)}>
			<header className="article-header">
				<h1>{page.title}</h1>
				<AlsoIn translations={translations} siteLanguage={site.language} />
				{page.summary ? <p className="lede">{page.summary}</p> : null}
			</header>
			<Cover of={page} className="cover" sizes={articleImageSizes} priority />
			{/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown and sanitised with an allow-list when saved (markdown.server.ts); its images made responsive by responsive-html.ts */}
			<div className="prose" dangerouslySetInnerHTML={{ __html: page.bodyHtml }} />
		</article>
	)
}
