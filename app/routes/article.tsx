import { msg } from '@lingui/core/macro'
import { data } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { ArticleView } from '#app/features/articles/article-view.tsx'
import { getPublishedArticle } from '#app/features/articles/articles.server.ts'
import { languageAlternates } from '#app/features/articles/translations.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { movedAddress } from '#app/features/redirects/redirects.server.ts'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { taglineIn } from '#app/features/site/tagline.ts'
import { readerBodyHtml } from '#app/features/uploads/responsive-body.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readingOnLanguage } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta, seoOf } from '#app/lib/seo.ts'
import type { ArticleCard, LanguageFilter, Term } from '#storage/port/articles.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Route } from './+types/article'

export const handle = { screen: 'article' } satisfies ScreenHandle

/** How many articles "More on <tag>" offers at an article's end. */
const moreOnTag = 3

/**
 * The latest articles (but this one) with one of its tags: the first tag that has any, tried in
 * the article's order, so an article whose first tag is its own alone still offers more.
 */
async function moreOnATag(
	storage: Storage,
	id: number,
	tags: readonly Term[],
	language: LanguageFilter,
): Promise<{ tag: Term; articles: ArticleCard[] } | null> {
	for (const tag of tags.slice(0, 3)) {
		const cards = await storage.articles.listPublished({
			limit: moreOnTag + 1,
			tag: tag.slug,
			language,
		})
		const articles = cards.filter((card) => card.id !== id).slice(0, moreOnTag)
		if (articles.length > 0) return { tag, articles }
	}
	return null
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const [article, site] = await Promise.all([
		getPublishedArticle(storage, params.slug),
		getSiteSettings(storage),
	])
	// Not here: renamed (its old address answers 301), or no such article.
	if (!article?.publishedAt)
		throw (
			(await movedAddress(storage, request, {
				lowerCase: {
					slug: params.slug,
					found: async (slug) => Boolean((await getPublishedArticle(storage, slug))?.publishedAt),
				},
			})) ?? data(null, { status: 404 })
		)
	const { bodyMarkdown: _, ...shown } = article
	// Reading on in the list the article is found in (one naming no language is in the site's).
	const language = article.language || site.language
	const sameLanguage = readingOnLanguage(site, language)
	const [bodyHtml, onward, moreOn, translations] = await Promise.all([
		readerBodyHtml(storage, article.bodyHtml),
		// Reading on: the articles published just after and just before this one…
		storage.articles.neighbours({ publishedAt: article.publishedAt, id: article.id }, sameLanguage),
		// …and the latest others with its first tag that has any.
		moreOnATag(storage, article.id, article.tags, sameLanguage),
		// Its other languages, for "Also in" and hreflang.
		storage.articles.translations(article.id),
	])
	const link = (card: { slug: string; title: string } | null) =>
		card && { slug: card.slug, title: card.title }
	return {
		article: { ...shown, bodyHtml, publishedAt: article.publishedAt },
		onward: { newer: link(onward.newer), older: link(onward.older) },
		moreOn: moreOn && { tag: moreOn.tag, articles: moreOn.articles.map(link) },
		translations,
		// The page's language (root.tsx): empty, the site's.
		contentLanguage: article.language,
	}
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	if (!loaderData) {
		const i18n = rootI18n(matches)
		const siteTitle = site.title
		return [{ title: i18n._(msg`Page not found · ${siteTitle}`) }]
	}
	const { article, translations } = loaderData
	const url = absoluteUrl(siteUrl, `/articles/${article.slug}`)
	const language = article.language || site.language
	const seo = seoOf(article, siteUrl, taglineIn(rootI18n(matches), site))
	const image = seo.image
	return [
		...pageMeta({
			...seo,
			url,
			siteTitle: site.title,
			type: 'article',
			jsonLd: {
				'@context': 'https://schema.org',
				'@type': 'Article',
				headline: article.title,
				inLanguage: language,
				description: article.summary,
				datePublished: article.publishedAt,
				dateModified: article.updatedAt,
				author: article.authors.map((author) => ({
					'@type': 'Person',
					name: author.name,
					url: absoluteUrl(siteUrl, publicPath('author', author.slug)),
				})),
				publisher: { '@type': 'Organization', name: site.title },
				mainEntityOfPage: url,
				keywords: article.tags.map((tag) => tag.name).join(', ') || undefined,
				image: image?.url,
			},
		}),
		{ property: 'article:published_time', content: article.publishedAt },
		{ property: 'article:modified_time', content: article.updatedAt },
		...article.tags.map((tag) => ({ property: 'article:tag', content: tag.name })),
		...languageAlternates(siteUrl, { ...article, kind: 'article' }, translations, site.language),
	]
}

export default function ArticlePage({ loaderData, matches }: Route.ComponentProps) {
	const { site } = rootData(matches)
	return <ArticleView {...loaderData} siteLanguage={site.language} />
}
