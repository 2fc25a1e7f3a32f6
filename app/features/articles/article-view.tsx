// An article as readers see it: its header, cover, text, the notice switch and the ways on. The
// public article page (routes/article.tsx) and the editor's preview of a draft
// (routes/admin/preview.tsx) render the same.
import { Trans, useLingui } from '@lingui/react/macro'
import { PlainLink } from '#app/components/ui/plain-link.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { NotifySlot } from '#app/features/push/notify-slot.tsx'
import { articleImageSizes, Cover } from '#app/features/uploads/picture.tsx'
import { directionOf } from '#app/lib/i18n.ts'
import { textLanguage, useInterfaceLanguage } from '#app/lib/interface-language.ts'
import type { Term } from '#storage/port/articles.ts'
import { ArticleMeta, TagLinks } from './article-card.tsx'
import { AlsoIn, type TranslationLink } from './translations.tsx'

type ArticleLink = { slug: string; title: string } | null

export interface ArticleViewProps {
	article: Parameters<typeof ArticleMeta>[0]['article'] &
		Parameters<typeof Cover>[0]['of'] & {
			title: string
			summary: string
			tags: Term[]
			bodyHtml: string
			/** Its language tag; empty: the site's. */
			language?: string
		}
	onward: { newer: ArticleLink; older: ArticleLink }
	moreOn: { tag: Term; articles: ArticleLink[] } | null
	/** The article in other languages (none in the editor's preview). */
	translations?: readonly TranslationLink[]
	siteLanguage?: string
}

export function ArticleView({
	article,
	onward,
	moreOn,
	translations = [],
	siteLanguage = 'en',
}: ArticleViewProps) {
	const contentLanguage = article.language || siteLanguage
	const { t } = useLingui()
	// The interface's words inside the article say their own language; titles among them, theirs.
	const ui = useInterfaceLanguage(contentLanguage)
	const own = ui.lang ? textLanguage(contentLanguage) : {}
	const tagName = moreOn?.tag.name
	return (
		<article
			className="page narrow article"
			lang={contentLanguage || undefined}
			dir={contentLanguage ? directionOf(contentLanguage) : undefined}
		>
			<header className="article-header">
				<p className="breadcrumb" {...ui}>
					<PlainLink to="/articles">
						<Trans>Articles</Trans>
					</PlainLink>
				</p>
				<h1>{article.title}</h1>
				<AlsoIn translations={translations} siteLanguage={siteLanguage} />
				{article.summary ? <p className="lede">{article.summary}</p> : null}
				<ArticleMeta article={article} language={ui} />
				<TagLinks tags={article.tags} language={ui} />
			</header>
			{/* The page's largest image, above the fold: fetched first; its size keeps the text still. */}
			<Cover of={article} className="cover" sizes={articleImageSizes} priority />
			{/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown and sanitised with an allow-list when saved (markdown.server.ts); its images made responsive by responsive-html.ts */}
			<div className="prose" dangerouslySetInnerHTML={{ __html: article.bodyHtml }} />
			<footer className="article-footer" {...ui}>
				<NotifySlot />
				{moreOn ? (
					<section className="more-on" aria-labelledby="more-on-title">
						<h2 id="more-on-title">
							<Trans>
								More on <PlainLink to={publicPath('tag', moreOn.tag.slug)}>{tagName}</PlainLink>
							</Trans>
						</h2>
						<ul>
							{moreOn.articles.map((card) =>
								card ? (
									<li key={card.slug}>
										<PlainLink to={`/articles/${card.slug}`} prefetch="intent" {...own}>
											{card.title}
										</PlainLink>
									</li>
								) : null,
							)}
						</ul>
					</section>
				) : null}
				{onward.newer || onward.older ? (
					<nav className="read-on" aria-label={t`More articles`}>
						{(['older', 'newer'] as const).map((side) => {
							const card = onward[side]
							return card ? (
								<PlainLink
									key={side}
									className={`read-on-${side}`}
									to={`/articles/${card.slug}`}
									prefetch="intent"
								>
									<span className="read-on-label">
										{side === 'older'
											? t({ message: 'Older', context: 'the article before this one' })
											: t({ message: 'Newer', context: 'the article after this one' })}
									</span>{' '}
									{own.lang ? <span {...own}>{card.title}</span> : card.title}
								</PlainLink>
							) : null
						})}
					</nav>
				) : null}
			</footer>
		</article>
	)
}
