import { data, Link } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { ArticleMeta } from '#app/features/articles/article-card.tsx'
import { getPublishedArticle } from '#app/features/articles/articles.server.ts'
import { NotifySlot } from '#app/features/push/notify-slot.tsx'
import { movedAddress } from '#app/features/redirects/redirects.server.ts'
import { articleImageSizes, Cover } from '#app/features/uploads/picture.tsx'
import { readerBodyHtml } from '#app/features/uploads/responsive-body.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/article'

export const handle = { screen: 'article' } satisfies ScreenHandle

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const article = await getPublishedArticle(storage, params.slug)
	// Not here: renamed (its old address answers 301), or no such article.
	if (!article?.publishedAt)
		throw (await movedAddress(storage, request)) ?? data(null, { status: 404 })
	const { bodyMarkdown: _, ...shown } = article
	const [bodyHtml, onward] = await Promise.all([
		readerBodyHtml(storage, article.bodyHtml),
		// Reading on: the articles published just after and just before this one.
		storage.articles.neighbours({ publishedAt: article.publishedAt, id: article.id }),
	])
	const link = (card: { slug: string; title: string } | null) =>
		card && { slug: card.slug, title: card.title }
	return {
		article: { ...shown, bodyHtml, publishedAt: article.publishedAt },
		onward: { newer: link(onward.newer), older: link(onward.older) },
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
				author: article.authorName ? { '@type': 'Person', name: article.authorName } : undefined,
				publisher: { '@type': 'Organization', name: site.title },
				mainEntityOfPage: url,
				keywords: article.tags.join(', ') || undefined,
				image: image?.url,
			},
		}),
		{ property: 'article:published_time', content: article.publishedAt },
		{ property: 'article:modified_time', content: article.updatedAt },
		...article.tags.map((tag) => ({ property: 'article:tag', content: tag })),
	]
}

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
	const { article, onward } = loaderData
	return (
		<article className="page narrow article">
			<header className="article-header">
				<p className="breadcrumb">
					<Link to="/articles">Articles</Link>
				</p>
				<h1>{article.title}</h1>
				{article.summary ? <p className="lede">{article.summary}</p> : null}
				<ArticleMeta article={article} />
				{article.tags.length > 0 ? (
					<ul className="tags" aria-label="Tags">
						{article.tags.map((tag) => (
							<li key={tag}>{tag}</li>
						))}
					</ul>
				) : null}
			</header>
			{/* The page's largest image, above the fold: fetched first; its size keeps the text still. */}
			<Cover of={article} className="cover" sizes={articleImageSizes} priority />
			{/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown and sanitised with an allow-list when saved (markdown.server.ts); its images made responsive by responsive-html.ts */}
			<div className="prose" dangerouslySetInnerHTML={{ __html: article.bodyHtml }} />
			<footer className="article-footer">
				<NotifySlot />
				{onward.newer || onward.older ? (
					<nav className="read-on" aria-label="More articles">
						{onward.older ? (
							<Link
								className="read-on-older"
								to={`/articles/${onward.older.slug}`}
								prefetch="intent"
							>
								<span className="read-on-label">Older</span> {onward.older.title}
							</Link>
						) : null}
						{onward.newer ? (
							<Link
								className="read-on-newer"
								to={`/articles/${onward.newer.slug}`}
								prefetch="intent"
							>
								<span className="read-on-label">Newer</span> {onward.newer.title}
							</Link>
						) : null}
					</nav>
				) : null}
			</footer>
		</article>
	)
}
