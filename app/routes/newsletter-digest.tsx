import { msg } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { data } from 'react-router'
import { ArticleCard } from '#app/features/articles/article-card.tsx'
import { getDigestSchedule } from '#app/features/newsletter/newsletter-settings.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/newsletter-digest'

// A weekly digest on the site: what its mail's "View in browser" opens. The articles still
// public, in the digest's order; nothing in it is personal.

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const id = Number(params.id)
	const digest =
		Number.isSafeInteger(id) && id > 0 ? await storage.newsletter.findDigest(id) : undefined
	if (!digest || digest.articleIds.length === 0)
		throw data('This digest does not exist.', { status: 404 })
	const [cards, schedule, i18n] = await Promise.all([
		storage.articles.listPublishedByIds(digest.articleIds),
		getDigestSchedule(storage),
		requestI18n(request, context),
	])
	const order = new Map(digest.articleIds.map((articleId, index) => [articleId, index]))
	cards.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
	return {
		id: digest.id,
		// Worded here, once: a browser's dates may differ from the server's by a space.
		period: periodText(i18n.locale, digest.periodStart, digest.periodEnd, schedule.timeZone),
		cards,
	}
}

/**
 * The days a digest covers ("March 3 – 9, 2025", "3–9 mars 2025") in the interface's language, as
 * periodLabel (newsletter-content.server.ts) words them in English for the mail.
 */
function periodText(locale: string, start: string, end: string, timeZone: string): string {
	const format = new Intl.DateTimeFormat(locale, {
		day: 'numeric',
		month: 'long',
		year: 'numeric',
		timeZone,
	})
	// The period ends at the digest's hour: its last day is the one before, unless it has hours in it.
	const last = new Date(new Date(end).getTime() - 1)
	return format.formatRange(new Date(start), last)
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	const i18n = rootI18n(matches)
	const siteTitle = site.title
	if (!loaderData) return [{ title: i18n._(msg`Digest not found · ${siteTitle}`) }]
	const period = loaderData.period
	return [
		...pageMeta({
			title: i18n._(msg`The week’s articles, ${period}`),
			description: i18n._(msg`${siteTitle}’s weekly digest.`),
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
				<h1>
					<Trans>The week’s articles</Trans>
				</h1>
				<p className="hint">{loaderData.period}</p>
			</header>
			{loaderData.cards.length === 0 ? (
				<p>
					<Trans>The articles of this digest are no longer published.</Trans>
				</p>
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
