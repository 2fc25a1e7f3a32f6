import { data } from 'react-router'
import { ArticleCard } from '#app/features/articles/article-card.tsx'
import { periodLabel } from '#app/features/newsletter/newsletter-content.server.ts'
import { getDigestSchedule } from '#app/features/newsletter/newsletter-settings.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/newsletter-digest'

// A weekly digest on the site: what its mail's "View in browser" opens. The articles still
// public, in the digest's order; nothing in it is personal.

export async function loader({ params, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const id = Number(params.id)
	const digest =
		Number.isSafeInteger(id) && id > 0 ? await storage.newsletter.findDigest(id) : undefined
	if (!digest || digest.articleIds.length === 0)
		throw data('This digest does not exist.', { status: 404 })
	const [cards, schedule] = await Promise.all([
		storage.articles.listPublishedByIds(digest.articleIds),
		getDigestSchedule(storage),
	])
	const order = new Map(digest.articleIds.map((articleId, index) => [articleId, index]))
	cards.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
	return {
		id: digest.id,
		period: periodLabel(digest.periodStart, digest.periodEnd, schedule.timeZone),
		cards,
	}
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	if (!loaderData) return [{ title: `Digest not found · ${site.title}` }]
	return [
		...pageMeta({
			title: `The week’s articles, ${loaderData.period}`,
			description: `${site.title}’s weekly digest.`,
			url: absoluteUrl(siteUrl, `/newsletter/digests/${loaderData.id}`),
			siteTitle: site.title,
		}),
		{ name: 'robots', content: 'noindex, follow' },
	]
}

export default function NewsletterDigest({ loaderData }: Route.ComponentProps) {
	return (
		<div className="page articles">
			<header className="list-header">
				<h1>The week’s articles</h1>
				<p className="hint">{loaderData.period}</p>
			</header>
			{loaderData.cards.length === 0 ? (
				<p>The articles of this digest are no longer published.</p>
			) : (
				<div className="article-list">
					{loaderData.cards.map((card) => (
						<ArticleCard key={card.id} article={card} />
					))}
				</div>
			)}
		</div>
	)
}
