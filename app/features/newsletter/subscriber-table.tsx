import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Form } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import type {
	Cadence,
	Subscriber,
	SubscriberSource,
	SubscriberStatus,
} from '#storage/port/newsletter.ts'

export const statusLabel: Record<SubscriberStatus, MessageDescriptor> = {
	pending: msg`Pending`,
	confirmed: msg`Confirmed`,
	unsubscribed: msg`Unsubscribed`,
	suspended: msg`Suspended`,
}
const cadenceLabel: Record<Cadence, MessageDescriptor> = {
	each: msg`Every article`,
	digest: msg`Weekly digest`,
}
const sourceLabel: Record<SubscriberSource, MessageDescriptor> = {
	form: msg`Subscribe form`,
	import: msg`Import`,
	staff: msg`Added by staff`,
}

/** A subscriber as the list shows it: the names of the tags followed instead of their ids. */
export type SubscriberRow = Pick<
	Subscriber,
	'id' | 'email' | 'status' | 'cadence' | 'source' | 'consentAt'
> & { tags: string[] }

/** The list of subscribers, each row with a button deleting that one for good. */
export function SubscriberTable({
	subscribers,
	caption,
	busy,
}: {
	subscribers: SubscriberRow[]
	caption: string
	busy: boolean
}) {
	const { t, i18n } = useLingui()
	const label = {
		status: t`Status`,
		receives: t`Receives`,
		tags: t`Tags followed`,
		source: t`Source`,
		consent: t`Consent given`,
	}
	return (
		<div className="table-wrap">
			<table className="article-table stacked-table subscriber-table">
				<caption>{caption}</caption>
				<thead>
					<tr>
						<th scope="col">
							<Trans>Address</Trans>
						</th>
						<th scope="col">{label.status}</th>
						<th scope="col">{label.receives}</th>
						<th scope="col">{label.tags}</th>
						<th scope="col">{label.source}</th>
						<th scope="col">{label.consent}</th>
						<th scope="col">
							<span className="visually-hidden">
								<Trans>Delete</Trans>
							</span>
						</th>
					</tr>
				</thead>
				<tbody>
					{subscribers.map((subscriber) => {
						const email = subscriber.email
						return (
							<tr key={subscriber.id}>
								<th scope="row">{email}</th>
								<td data-label={label.status}>{i18n._(statusLabel[subscriber.status])}</td>
								<td data-label={label.receives}>{i18n._(cadenceLabel[subscriber.cadence])}</td>
								<td data-label={label.tags}>
									{subscriber.tags.length > 0 ? subscriber.tags.join(', ') : t`All`}
								</td>
								<td data-label={label.source}>{i18n._(sourceLabel[subscriber.source])}</td>
								<td data-label={label.consent}>
									{subscriber.consentAt ? (
										<LocalTime iso={subscriber.consentAt} />
									) : subscriber.status === 'pending' ? (
										t`Not yet: the confirmation link is unused`
									) : (
										// Moved in, or added by hand, without a record of when they agreed.
										t`Not recorded`
									)}
								</td>
								<td>
									<Form
										method="post"
										onSubmit={(event) => {
											if (!window.confirm(t`Delete ${email} and every trace of it?`))
												event.preventDefault()
										}}
									>
										<input type="hidden" name="id" value={subscriber.id} />
										<button
											type="submit"
											name="intent"
											value="delete"
											disabled={busy}
											aria-label={t`Delete ${email}`}
										>
											<Trans>Delete</Trans>
										</button>
									</Form>
								</td>
							</tr>
						)
					})}
				</tbody>
			</table>
		</div>
	)
}
