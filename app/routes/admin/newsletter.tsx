import { data, Form, Link, useNavigation } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { recentArticles, sendTestMail } from '#app/features/newsletter/newsletter-admin.server.ts'
import {
	describeSchedule,
	digestScheduleSchema,
	weekdays,
} from '#app/features/newsletter/newsletter-settings.ts'
import {
	getDigestSchedule,
	saveDigestSchedule,
} from '#app/features/newsletter/newsletter-settings.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import type { MailFigures } from '#storage/port/newsletter.ts'
import type { Route } from './+types/newsletter'

// The newsletter for staff: who is subscribed (counts; the list is the admins'), each mail's
// figures, a preview and a test send to oneself; admins set the weekly digest's hour.

export function meta() {
	return [{ title: 'Newsletter · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ context }: Route.LoaderArgs) {
	const services = context.get(servicesContext)
	const { storage } = services
	const [counts, figures, schedule, articles] = await Promise.all([
		storage.newsletter.countsByStatus(),
		storage.newsletter.figures(20),
		getDigestSchedule(storage),
		recentArticles(storage),
	])
	return {
		counts,
		figures,
		schedule,
		articles,
		mailConfigured: Boolean(services.smtpUrl),
		admin: context.get(editorContext).role === 'admin',
		me: context.get(editorContext).email,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const services = context.get(servicesContext)
	const editor = context.get(editorContext)
	const form = Object.fromEntries(await readForm(request)) as Record<string, string>
	if (form.intent === 'schedule') {
		if (editor.role !== 'admin')
			return data(
				{ errors: { form: ['Only an admin can change when the digest goes out.'] } as FieldErrors },
				403,
			)
		const parsed = digestScheduleSchema.safeParse(form)
		if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, 400)
		await saveDigestSchedule(services.storage, parsed.data)
		return { done: `The weekly digest now goes out on ${describeSchedule(parsed.data)}.` }
	}
	if (form.intent === 'test') {
		const id = Number(form.article)
		const what =
			form.article === 'digest'
				? ({ kind: 'digest' } as const)
				: ({
						kind: 'article',
						articleId: Number.isSafeInteger(id) && id > 0 ? id : undefined,
					} as const)
		const sent = await sendTestMail(services, editor.email, what)
		if (!sent)
			return data(
				{
					errors: {
						article: ['There is nothing to send yet: publish an article first.'],
					} as FieldErrors,
				},
				400,
			)
		return {
			done: services.smtpUrl
				? `A test mail is on its way to ${editor.email}.`
				: `A test mail to ${editor.email} is queued; it goes out once SMTP_URL is set.`,
		}
	}
	return data(
		{
			errors: {
				form: ['The form could not be read. Reload the page and try again.'],
			} as FieldErrors,
		},
		400,
	)
}

const hours = Array.from({ length: 24 }, (_, hour) => hour)

function figureTitle(figure: MailFigures) {
	return figure.kind === 'digest'
		? `Weekly digest (${figure.title.replace('T', ' ')}:00)`
		: figure.title
}

export default function Newsletter({ loaderData, actionData }: Route.ComponentProps) {
	const { counts, figures, schedule, articles, mailConfigured, admin, me } = loaderData
	const busy = useNavigation().state === 'submitting'
	const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {}
	return (
		<>
			<h1>Newsletter</h1>
			<p>
				Readers subscribe with the form at the foot of every page and confirm by mail. Each new
				article is mailed to them when it is first published, unless its editor unticks “Email
				subscribers”; digest readers get one mail a week, {describeSchedule(schedule)}.
			</p>
			{mailConfigured ? null : (
				<p className="notice">
					Mail is not set up: nothing is sent until SMTP_URL is set. Mail queued meanwhile waits.
				</p>
			)}
			{actionData && 'done' in actionData ? (
				<p role="status" className="notice">
					{actionData.done}
				</p>
			) : null}
			{errors.form ? (
				<p role="alert" className="form-error">
					{errors.form.join(' ')}
				</p>
			) : null}

			<h2>Subscribers</h2>
			<ul className="newsletter-counts">
				<li>
					<strong>{counts.confirmed.toLocaleString('en')}</strong> confirmed
				</li>
				<li>
					<strong>{counts.pending.toLocaleString('en')}</strong> waiting to confirm
				</li>
				<li>
					<strong>{counts.unsubscribed.toLocaleString('en')}</strong> unsubscribed
				</li>
				<li>
					<strong>{counts.suspended.toLocaleString('en')}</strong> suspended (refused by their mail
					server)
				</li>
			</ul>
			{admin ? (
				<p>
					<Link to="/admin/subscribers">See, import and export subscribers</Link>
				</p>
			) : null}

			<h2>Mails sent</h2>
			{figures.length === 0 ? (
				<p>No newsletter mail yet. The next article published goes to every confirmed reader.</p>
			) : (
				<div className="table-wrap">
					<table className="article-table stacked-table">
						<caption>The newest mails first</caption>
						<thead>
							<tr>
								<th scope="col">Mail</th>
								<th scope="col">Queued</th>
								<th scope="col">Sent</th>
								<th scope="col">Waiting</th>
								<th scope="col">Failed</th>
								<th scope="col">Suspended</th>
								<th scope="col">Cancelled</th>
							</tr>
						</thead>
						<tbody>
							{figures.map((figure) => {
								const { counts: c } = figure
								const queued = Object.values(c).reduce((sum, n) => sum + n, 0)
								return (
									<tr key={`${figure.kind}-${figure.articleId ?? figure.digestId}`}>
										<td>
											{figureTitle(figure)}
											<br />
											<span className="hint">
												<LocalTime iso={figure.createdAt} time />
											</span>
										</td>
										<td data-label="Queued">{queued.toLocaleString('en')}</td>
										<td data-label="Sent">{c.sent.toLocaleString('en')}</td>
										<td data-label="Waiting">{c.pending.toLocaleString('en')}</td>
										<td data-label="Failed">{(c.failed + c.refused).toLocaleString('en')}</td>
										<td data-label="Suspended">{c.suspended.toLocaleString('en')}</td>
										<td data-label="Cancelled">{c.cancelled.toLocaleString('en')}</td>
									</tr>
								)
							})}
						</tbody>
					</table>
				</div>
			)}

			<h2>Preview and test</h2>
			<Form method="post" className="form">
				<input type="hidden" name="intent" value="test" />
				<label htmlFor="test-article">Mail</label>
				<select
					id="test-article"
					name="article"
					aria-invalid={errors.article ? true : undefined}
					aria-describedby={errors.article ? 'test-article-error' : undefined}
				>
					{articles.map((article) => (
						<option key={article.id} value={article.id}>
							Article: {article.title}
						</option>
					))}
					<option value="digest">The weekly digest (last seven days)</option>
				</select>
				{errors.article ? (
					<p id="test-article-error" className="field-error">
						{errors.article.join(' ')}
					</p>
				) : null}
				<p className="hint">
					Preview:{' '}
					{articles[0] ? (
						<a
							href={`/admin/newsletter/preview?article=${articles[0].id}`}
							target="_blank"
							rel="noreferrer"
						>
							newest article’s mail
						</a>
					) : (
						'publish an article to see its mail'
					)}
					{' · '}
					<a href="/admin/newsletter/preview?digest" target="_blank" rel="noreferrer">
						weekly digest
					</a>
				</p>
				<button type="submit" disabled={busy}>
					Send a test to {me}
				</button>
			</Form>

			{admin ? (
				<>
					<h2>Weekly digest</h2>
					<Form method="post" className="form digest-schedule">
						<input type="hidden" name="intent" value="schedule" />
						<label htmlFor="digest-day">Day</label>
						<select id="digest-day" name="day" defaultValue={schedule.day}>
							{weekdays.map((day, index) => (
								<option key={day} value={index}>
									{day}
								</option>
							))}
						</select>
						<label htmlFor="digest-hour">Hour</label>
						<select id="digest-hour" name="hour" defaultValue={schedule.hour}>
							{hours.map((hour) => (
								<option key={hour} value={hour}>
									{String(hour).padStart(2, '0')}:00
								</option>
							))}
						</select>
						<label htmlFor="digest-zone">Time zone</label>
						<input
							id="digest-zone"
							name="timeZone"
							defaultValue={schedule.timeZone}
							list="time-zones"
							aria-invalid={errors.timeZone ? true : undefined}
							aria-describedby={errors.timeZone ? 'digest-zone-error' : 'digest-zone-hint'}
						/>
						<p id="digest-zone-hint" className="hint">
							The site’s time zone, e.g. Europe/Berlin or America/New_York.
						</p>
						{errors.timeZone ? (
							<p id="digest-zone-error" className="field-error">
								{errors.timeZone.join(' ')}
							</p>
						) : null}
						<datalist id="time-zones">
							{Intl.supportedValuesOf('timeZone').map((zone) => (
								<option key={zone} value={zone} />
							))}
						</datalist>
						<button type="submit" disabled={busy}>
							Save the digest’s time
						</button>
					</Form>
				</>
			) : null}
		</>
	)
}
