// The editor area's view of push notices: the subscriber count, a one-line result per article
// for lists, and the full breakdown for an article's page. Admin pages only.

import { LocalTime } from '#app/components/ui/local-time.tsx'
import type { PushDeliveryCounts, PushDeliveryState } from '#storage/port/push.ts'

/** What decides an article's line: its switch, whether it was announced, whether it is public. */
export interface AnnouncedArticle {
	published: boolean
	notify: boolean
	notifiedAt: string | null
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

export function subscriberText(count: number): string {
	return `${plural(count, 'reader', 'readers')} subscribed to notices of new articles`
}

const total = (counts: PushDeliveryCounts) =>
	counts.pending + counts.sent + counts.gone + counts.failed + counts.cancelled

/** "Sent to 118 of 120 · 2 waiting", "Published without notifying", "Not announced"… */
export function pushSummary(article: AnnouncedArticle, counts: PushDeliveryCounts): string {
	if (!article.notifiedAt) {
		if (!article.notify)
			return article.published ? 'Published without notifying' : 'Will publish without notifying'
		return article.published ? 'Not announced' : 'Not announced yet'
	}
	const all = total(counts)
	if (all === 0) return 'Announced to no one: there were no subscribers'
	const parts = [`Sent to ${counts.sent} of ${all}`]
	if (counts.pending) parts.push(`${counts.pending} waiting`)
	if (counts.gone) parts.push(`${counts.gone} gone`)
	if (counts.failed) parts.push(`${counts.failed} failed`)
	if (counts.cancelled) parts.push(`${counts.cancelled} cancelled`)
	return parts.join(' · ')
}

const meanings: { state: PushDeliveryState; label: string; meaning: string }[] = [
	{
		state: 'sent',
		label: 'Sent',
		meaning: "The reader's push service took the notice and passes it on to their browser.",
	},
	{
		state: 'pending',
		label: 'Waiting',
		meaning: 'Not sent yet, or being tried again after the push service asked to wait.',
	},
	{
		state: 'gone',
		label: 'Gone',
		meaning: 'The subscription had expired or been withdrawn in the browser; it was removed.',
	},
	{
		state: 'failed',
		label: 'Failed',
		meaning: 'The push service refused the notice for good, or kept failing for a day.',
	},
	{
		state: 'cancelled',
		label: 'Cancelled',
		meaning:
			'Not sent: the article was unpublished, or the reader unsubscribed, before it went out.',
	},
]

/** An article's notices, state by state, each with what it means. */
export function PushBreakdown({
	article,
	counts,
	subscribers,
}: {
	article: AnnouncedArticle
	counts: PushDeliveryCounts
	subscribers: number
}) {
	const { notifiedAt } = article
	return (
		<section className="push-results" aria-labelledby="push-results-heading">
			<h2 id="push-results-heading">Push notices</h2>
			<p>
				<strong>{pushSummary(article, counts)}</strong>
				{notifiedAt ? (
					<>
						{' '}
						(announced <LocalTime iso={notifiedAt} time />)
					</>
				) : null}
				. {subscriberText(subscribers)} now.
			</p>
			{notifiedAt && total(counts) > 0 ? (
				<dl className="push-states">
					{meanings.map(({ state, label, meaning }) => (
						<div key={state}>
							<dt>{label}</dt>
							<dd className="push-count">{counts[state]}</dd>
							<dd className="hint">{meaning}</dd>
						</div>
					))}
				</dl>
			) : null}
		</section>
	)
}
