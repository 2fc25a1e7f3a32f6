import { Form } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import type {
	Cadence,
	Subscriber,
	SubscriberSource,
	SubscriberStatus,
} from '#storage/port/newsletter.ts'

export const statusLabel: Record<SubscriberStatus, string> = {
	pending: 'Pending',
	confirmed: 'Confirmed',
	unsubscribed: 'Unsubscribed',
	suspended: 'Suspended',
}
const cadenceLabel: Record<Cadence, string> = { each: 'Every article', digest: 'Weekly digest' }
const sourceLabel: Record<SubscriberSource, string> = {
	form: 'Subscribe form',
	import: 'Import',
	staff: 'Added by staff',
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
	return (
		<div className="table-wrap">
			<table className="article-table stacked-table subscriber-table">
				<caption>{caption}</caption>
				<thead>
					<tr>
						<th scope="col">Address</th>
						<th scope="col">Status</th>
						<th scope="col">Receives</th>
						<th scope="col">Tags followed</th>
						<th scope="col">Source</th>
						<th scope="col">Consent given</th>
						<th scope="col">
							<span className="visually-hidden">Delete</span>
						</th>
					</tr>
				</thead>
				<tbody>
					{subscribers.map((subscriber) => (
						<tr key={subscriber.id}>
							<th scope="row">{subscriber.email}</th>
							<td data-label="Status">{statusLabel[subscriber.status]}</td>
							<td data-label="Receives">{cadenceLabel[subscriber.cadence]}</td>
							<td data-label="Tags followed">
								{subscriber.tags.length > 0 ? subscriber.tags.join(', ') : 'All'}
							</td>
							<td data-label="Source">{sourceLabel[subscriber.source]}</td>
							<td data-label="Consent given">
								{subscriber.consentAt ? <LocalTime iso={subscriber.consentAt} /> : 'Not yet'}
							</td>
							<td>
								<Form
									method="post"
									onSubmit={(event) => {
										if (!window.confirm(`Delete ${subscriber.email} and every trace of it?`))
											event.preventDefault()
									}}
								>
									<input type="hidden" name="id" value={subscriber.id} />
									<button
										type="submit"
										name="intent"
										value="delete"
										disabled={busy}
										aria-label={`Delete ${subscriber.email}`}
									>
										Delete
									</button>
								</Form>
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}
