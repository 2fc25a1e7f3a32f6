// An article as readers see it: its header, cover, text, the notice switch and the ways on. The
// public article page (routes/article.tsx) and the editor's preview of a draft
// (routes/admin/preview.tsx) render the same.
import { Link } from 'react-router'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { NotifySlot } from '#app/features/push/notify-slot.tsx'
import { articleImageSizes, Cover } from '#app/features/uploads/picture.tsx'
import type { Term } from '#storage/port/articles.ts'
import { ArticleMeta, TagLinks } from './article-card.tsx'

type ArticleLink = { slug: string; title: string } | null

export interface ArticleViewProps {
	article: Parameters<typeof ArticleMeta>[0]['article'] &
		Parameters<typeof Cover>[0]['of'] & {
			title: string
			summary: string
			tags: Term[]
			bodyHtml: string
		}
	onward: { newer: ArticleLink; older: ArticleLink }
	moreOn: { tag: Term; articles: ArticleLink[] } | null
}

export function ArticleView({ article, onward, moreOn }: ArticleViewProps) {
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
