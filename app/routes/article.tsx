import { data, Link } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { ArticleMeta, TagLinks } from '#app/features/articles/article-card.tsx'
import { getPublishedArticle } from '#app/features/articles/articles.server.ts'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { NotifySlot } from '#app/features/push/notify-slot.tsx'
import { movedAddress } from '#app/features/redirects/redirects.server.ts'
import { articleImageSizes, Cover } from '#app/features/uploads/picture.tsx'
import { readerBodyHtml } from '#app/features/uploads/responsive-body.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/article'

export const handle = { screen: 'article' } satisfies ScreenHandle

/** How many articles "More on <tag>" offers at an article's end. */
const moreOnTag = 3

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const article = await getPublishedArticle(storage, params.slug)
	// Not here: renamed (its old address answers 301), or no such article.
	if (!article?.publishedAt)
		throw (await movedAddress(storage, request)) ?? data(null, { status: 404 })
	const { bodyMarkdown: _, ...shown } = article
	const firstTag = article.tags[0]
	const [bodyHtml, onward, sameTag] = await Promise.all([
		readerBodyHtml(storage, article.bodyHtml),
		// Reading on: the articles published just after and just before this one…
		storage.articles.neighbours({ publishedAt: article.publishedAt, id: article.id }),
		// …and the latest others with its first tag.
		firstTag
			? storage.articles.listPublished({ limit: moreOnTag + 1, tag: firstTag.slug })
			: Promise.resolve([]),
	])
	const link = (card: { slug: string; title: string } | null) =>
		card && { slug: card.slug, title: card.title }
	const more = sameTag.filter((card) => card.id !== article.id).slice(0, moreOnTag)
	return {
		article: { ...shown, bodyHtml, publishedAt: article.publishedAt },
		onward: { newer: link(onward.newer), older: link(onward.older) },
		moreOn: firstTag && more.length > 0 ? { tag: firstTag, articles: more.map(link) } : null,
	}
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	if (!loaderData) return [{ title: `Page not found · ${site.title}` }]
	const { article } = loaderData
	const url = absoluteUrl(siteUrl, `/articles/${article.slug}`)
	const image = article.coverImageUrl
		? { url: absoluteUrl(siteUrl, article.coverImageUrl), alt: article.coverImageAlt ?? '' }
		: null
	return [
		...pageMeta({
			title: article.title,
			description: article.summary || site.tagline,
			url,
			siteTitle: site.title,
			type: 'article',
			image,
			jsonLd: {
				'@context': 'https://schema.org',
				'@type': 'Article',
				headline: article.title,
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
	]
}

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
	const { article, onward, moreOn } = loaderData
	return (
		<article className="page narrow article">
			<header className="article-header">
				<p className="breadcrumb">
					<Link to="/articles">Articles</Link>
				</p>
				<h1>{article.title}</h1>
				{article.summary ? <p className="lede">{article.summary}</p> : null}
				<ArticleMeta article={article} />
				<TagLinks tags={article.tags} />
			</header>
			{/* The page's largest image, above the fold: fetched first; its size keeps the text still. */}
			<Cover of={article} className="cover" sizes={articleImageSizes} priority />
			{/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown and sanitised with an allow-list when saved (markdown.server.ts); its images made responsive by responsive-html.ts */}
			<div className="prose" dangerouslySetInnerHTML={{ __html: article.bodyHtml }} />
			<footer className="article-footer">
				<NotifySlot />
				{moreOn ? (
					<section className="more-on" aria-labelledby="more-on-title">
						<h2 id="more-on-title">
							More on <Link to={publicPath('tag', moreOn.tag.slug)}>{moreOn.tag.name}</Link>
						</h2>
						<ul>
							{moreOn.articles.map((card) =>
								card ? (
									<li key={card.slug}>
										<Link to={`/articles/${card.slug}`} prefetch="intent">
											{card.title}
										</Link>
									</li>
								) : null,
							)}
						</ul>
					</section>
				) : null}
				{onward.newer || onward.older ? (
					<nav className="read-on" aria-label="More articles">
						{(['older', 'newer'] as const).map((side) => {
							const card = onward[side]
							return card ? (
								<Link
									key={side}
									className={`read-on-${side}`}
									to={`/articles/${card.slug}`}
									prefetch="intent"
								>
									<span className="read-on-label">{side === 'older' ? 'Older' : 'Newer'}</span>{' '}
									{card.title}
								</Link>
							) : null
						})}
					</nav>
				) : null}
			</footer>
		</article>
	)
}
