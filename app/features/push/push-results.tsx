// The editor area's view of push notices: the subscriber count, a one-line result per article
// for lists, and the full breakdown for an article's page. Admin pages only.

import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import type { PushDeliveryCounts, PushDeliveryState } from '#storage/port/push.ts'

/** What decides an article's line: its switch, whether it was announced, whether it is public. */
export interface AnnouncedArticle {
	published: boolean
	notify: boolean
	notifiedAt: string | null
}

/** "3 readers subscribed to notices of new articles", in the interface's language. */
export function subscriberText(count: number, i18n: I18n): string {
	return i18n._(
		msg`${plural(count, { one: '# reader', other: '# readers' })} subscribed to notices of new articles`,
	)
}

// One number format per interface language: making one costs about a hundred times using one.
const numberFormats = new Map<string, Intl.NumberFormat>()

function formatNumber(n: number, locale: string): string {
	let format = numberFormats.get(locale)
	if (!format) {
		format = new Intl.NumberFormat(locale)
		numberFormats.set(locale, format)
	}
	return format.format(n)
}

const total = (counts: PushDeliveryCounts) =>
	counts.pending + counts.sent + counts.gone + counts.failed + counts.cancelled

/** "Sent to 118 of 120 · 2 waiting", "Published without notifying", "Not announced"… */
export function pushSummary(
	article: AnnouncedArticle,
	counts: PushDeliveryCounts,
	i18n: I18n,
): string {
	if (!article.notifiedAt) {
		if (!article.notify)
			return i18n._(
				article.published ? msg`Published without notifying` : msg`Will publish without notifying`,
			)
		return i18n._(article.published ? msg`Not announced` : msg`Not announced yet`)
	}
	const all = total(counts)
	if (all === 0) return i18n._(msg`Announced to no one: there were no subscribers`)
	const { pending, gone, failed, cancelled } = counts
	const sentCount = formatNumber(counts.sent, i18n.locale)
	const allCount = formatNumber(all, i18n.locale)
	const parts = [i18n._(msg`Sent to ${sentCount} of ${allCount}`)]
	if (pending) parts.push(i18n._(msg`${plural(pending, { one: '# waiting', other: '# waiting' })}`))
	if (gone) parts.push(i18n._(msg`${plural(gone, { one: '# gone', other: '# gone' })}`))
	if (failed) parts.push(i18n._(msg`${plural(failed, { one: '# failed', other: '# failed' })}`))
	if (cancelled)
		parts.push(i18n._(msg`${plural(cancelled, { one: '# cancelled', other: '# cancelled' })}`))
	return parts.join(' · ')
}

const meanings: {
	state: PushDeliveryState
	label: MessageDescriptor
	meaning: MessageDescriptor
}[] = [
	{
		state: 'sent',
		label: msg`Sent`,
		meaning: msg`The reader's push service took the notice and passes it on to their browser.`,
	},
	{
		state: 'pending',
		label: msg`Waiting`,
		meaning: msg`Not sent yet, or being tried again after the push service asked to wait.`,
	},
	{
		state: 'gone',
		label: msg`Gone`,
		meaning: msg`The subscription had expired or been withdrawn in the browser; it was removed.`,
	},
	{
		state: 'failed',
		label: msg`Failed`,
		meaning: msg`The push service refused the notice for good, or kept failing for a day.`,
	},
	{
		state: 'cancelled',
		label: msg`Cancelled`,
		meaning: msg`Not sent: the article was unpublished, or the reader unsubscribed, before it went out.`,
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
	const { i18n } = useLingui()
	const summary = pushSummary(article, counts, i18n)
	return (
		<section className="push-results" aria-labelledby="push-results-heading">
			<h2 id="push-results-heading">
				<Trans>Push notices</Trans>
			</h2>
			<p>
				{notifiedAt ? (
					<Trans>
						<strong>{summary}</strong> (announced <LocalTime iso={notifiedAt} time />
						).
					</Trans>
				) : (
					<Trans>
						<strong>{summary}</strong>.
					</Trans>
				)}{' '}
				<Plural
					value={subscribers}
					one="# reader subscribed to notices of new articles now."
					other="# readers subscribed to notices of new articles now."
				/>
			</p>
			{notifiedAt && total(counts) > 0 ? (
				<dl className="push-states">
					{meanings.map(({ state, label, meaning }) => (
						<div key={state}>
							<dt>{i18n._(label)}</dt>
							<dd className="push-count">{formatNumber(counts[state], i18n.locale)}</dd>
							<dd className="hint">{i18n._(meaning)}</dd>
						</div>
					))}
				</dl>
			) : null}
		</section>
	)
}
