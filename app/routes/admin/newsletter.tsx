import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, useNavigation } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { MailNotSetUp } from '#app/features/newsletter/mail-admin-notice.tsx'
import { recentArticles, sendTestMail } from '#app/features/newsletter/newsletter-admin.server.ts'
import {
	getDigestSchedule,
	saveDigestSchedule,
} from '#app/features/newsletter/newsletter-settings.server.ts'
import { digestTimeSchema } from '#app/features/newsletter/newsletter-settings.ts'
import { scheduleText } from '#app/features/newsletter/schedule-text.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { MailFigures } from '#storage/port/newsletter.ts'
import type { Route } from './+types/newsletter'

// The newsletter for staff: who is subscribed (counts; the list is the admins'), each mail's
// figures, a preview and a test send to oneself; admins set the weekly digest's hour.

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Newsletter · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

/** The days of the week, 0 Sunday … 6 Saturday, as DigestSchedule counts them. */
const dayNames: MessageDescriptor[] = [
	msg`Sunday`,
	msg`Monday`,
	msg`Tuesday`,
	msg`Wednesday`,
	msg`Thursday`,
	msg`Friday`,
	msg`Saturday`,
]

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
	const i18n = await requestI18n(request, context)
	if (form.intent === 'schedule') {
		if (editor.role !== 'admin')
			return data(
				{
					errors: {
						form: [i18n._(msg`Only an admin can change when the digest goes out.`)],
					} as FieldErrors,
				},
				403,
			)
		const parsed = digestTimeSchema.safeParse(form)
		if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, 400)
		await saveDigestSchedule(services.storage, parsed.data)
		const when = scheduleText(i18n, await getDigestSchedule(services.storage))
		return { done: i18n._(msg`The weekly digest now goes out on ${when}.`) }
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
		const sent = await sendTestMail(services, editor.email, what, i18n)
		if (!sent)
			return data(
				{
					errors: {
						article: [i18n._(msg`There is nothing to send yet: publish an article first.`)],
					} as FieldErrors,
				},
				400,
			)
		const email = editor.email
		return {
			done: services.smtpUrl
				? i18n._(msg`A test mail is on its way to ${email}.`)
				: i18n._(msg`A test mail to ${email} is queued; it goes out once SMTP_URL is set.`),
		}
	}
	return data(
		{
			errors: {
				form: [i18n._(msg`The form could not be read. Reload the page and try again.`)],
			} as FieldErrors,
		},
		400,
	)
}

const hours = Array.from({ length: 24 }, (_, hour) => hour)

function figureTitle(i18n: I18n, figure: MailFigures) {
	if (figure.kind !== 'digest') return figure.title
	const when = `${figure.title.replace('T', ' ')}:00`
	return i18n._(msg`Weekly digest (${when})`)
}

export default function Newsletter({ loaderData, actionData }: Route.ComponentProps) {
	const { counts, figures, schedule, articles, mailConfigured, admin, me } = loaderData
	const busy = useNavigation().state === 'submitting'
	const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {}
	const { t, i18n } = useLingui()
	const when = scheduleText(i18n, schedule)
	const zone = schedule.timeZone
	const { confirmed, pending, unsubscribed, suspended } = counts
	const newest = articles[0]
	const label = {
		queued: t`Queued`,
		sent: t`Sent`,
		waiting: t`Waiting`,
		failed: t`Failed`,
		suspended: t`Suspended`,
		cancelled: t`Cancelled`,
	}
	return (
		<>
			<h1>
				<Trans>Newsletter</Trans>
			</h1>
			<p>
				<Trans>
					Readers subscribe with the form at the foot of every page and confirm by mail. Each new
					article is mailed to them when it is first published, unless its editor unticks “Email
					subscribers”; digest readers get one mail a week, {when}.
				</Trans>
			</p>
			{mailConfigured ? null : <MailNotSetUp />}
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

			<h2>
				<Trans>Subscribers</Trans>
			</h2>
			<ul className="newsletter-counts">
				<li>
					<Plural
						value={confirmed}
						one={
							<Trans>
								<strong>#</strong> confirmed
							</Trans>
						}
						other={
							<Trans>
								<strong>#</strong> confirmed
							</Trans>
						}
					/>
				</li>
				<li>
					<Plural
						value={pending}
						one={
							<Trans>
								<strong>#</strong> waiting to confirm
							</Trans>
						}
						other={
							<Trans>
								<strong>#</strong> waiting to confirm
							</Trans>
						}
					/>
				</li>
				<li>
					<Plural
						value={unsubscribed}
						one={
							<Trans>
								<strong>#</strong> unsubscribed
							</Trans>
						}
						other={
							<Trans>
								<strong>#</strong> unsubscribed
							</Trans>
						}
					/>
				</li>
				<li>
					<Plural
						value={suspended}
						one={
							<Trans>
								<strong>#</strong> suspended (refused by their mail server)
							</Trans>
						}
						other={
							<Trans>
								<strong>#</strong> suspended (refused by their mail server)
							</Trans>
						}
					/>
				</li>
			</ul>
			{admin ? (
				<p>
					<Link to="/admin/subscribers">
						<Trans>See, import and export subscribers</Trans>
					</Link>
				</p>
			) : null}

			<h2>
				<Trans>Mails sent</Trans>
			</h2>
			{figures.length === 0 ? (
				<p>
					<Trans>
						No newsletter mail yet. The next article published goes to every confirmed reader.
					</Trans>
				</p>
			) : (
				<div className="table-wrap">
					<table className="article-table stacked-table">
						<caption>
							<Trans>The newest mails first</Trans>
						</caption>
						<thead>
							<tr>
								<th scope="col">
									<Trans>Mail</Trans>
								</th>
								<th scope="col">{label.queued}</th>
								<th scope="col">{label.sent}</th>
								<th scope="col">{label.waiting}</th>
								<th scope="col">{label.failed}</th>
								<th scope="col">{label.suspended}</th>
								<th scope="col">{label.cancelled}</th>
							</tr>
						</thead>
						<tbody>
							{figures.map((figure) => {
								const { counts: c } = figure
								const queued = Object.values(c).reduce((sum, n) => sum + n, 0)
								return (
									<tr key={`${figure.kind}-${figure.articleId ?? figure.digestId}`}>
										<td>
											{figureTitle(i18n, figure)}
											<br />
											<span className="hint">
												<LocalTime iso={figure.createdAt} time />
											</span>
										</td>
										<td data-label={label.queued}>{i18n.number(queued)}</td>
										<td data-label={label.sent}>{i18n.number(c.sent)}</td>
										<td data-label={label.waiting}>{i18n.number(c.pending)}</td>
										<td data-label={label.failed}>{i18n.number(c.failed + c.refused)}</td>
										<td data-label={label.suspended}>{i18n.number(c.suspended)}</td>
										<td data-label={label.cancelled}>{i18n.number(c.cancelled)}</td>
									</tr>
								)
							})}
						</tbody>
					</table>
				</div>
			)}

			<h2>
				<Trans>Preview and test</Trans>
			</h2>
			<Form method="post" className="form">
				<input type="hidden" name="intent" value="test" />
				<label htmlFor="test-article">
					<Trans>Mail</Trans>
				</label>
				<select
					id="test-article"
					name="article"
					aria-invalid={errors.article ? true : undefined}
					aria-describedby={errors.article ? 'test-article-error' : undefined}
				>
					{articles.map((article) => {
						const title = article.title
						return (
							<option key={article.id} value={article.id}>
								{t`Article: ${title}`}
							</option>
						)
					})}
					<option value="digest">{t`The weekly digest (last seven days)`}</option>
				</select>
				{errors.article ? (
					<p id="test-article-error" className="field-error">
						{errors.article.join(' ')}
					</p>
				) : null}
				<p className="hint">
					{newest ? (
						<Trans>
							Preview:{' '}
							<a
								href={`/admin/newsletter/preview?article=${newest.id}`}
								target="_blank"
								rel="noreferrer"
							>
								newest article’s mail
							</a>
							{' · '}
							<a href="/admin/newsletter/preview?digest" target="_blank" rel="noreferrer">
								weekly digest
							</a>
						</Trans>
					) : (
						<Trans>
							Preview: publish an article to see its mail
							{' · '}
							<a href="/admin/newsletter/preview?digest" target="_blank" rel="noreferrer">
								weekly digest
							</a>
						</Trans>
					)}
				</p>
				<button type="submit" disabled={busy}>
					<Trans>Send a test to {me}</Trans>
				</button>
			</Form>

			{admin ? (
				<>
					<h2>
						<Trans>Weekly digest</Trans>
					</h2>
					<Form method="post" className="form digest-schedule">
						<input type="hidden" name="intent" value="schedule" />
						<label htmlFor="digest-day">
							<Trans>Day</Trans>
						</label>
						<select id="digest-day" name="day" defaultValue={schedule.day}>
							{dayNames.map((day, index) => (
								<option key={day.id} value={index}>
									{i18n._(day)}
								</option>
							))}
						</select>
						<label htmlFor="digest-hour">
							<Trans>Hour</Trans>
						</label>
						<select id="digest-hour" name="hour" defaultValue={schedule.hour}>
							{hours.map((hour) => (
								<option key={hour} value={hour}>
									{String(hour).padStart(2, '0')}:00
								</option>
							))}
						</select>
						<p className="hint">
							<Trans>
								In the site’s time zone, {zone}, which dates on the site are shown in too. Change it
								under <Link to="/admin/settings">Site settings</Link>.
							</Trans>
						</p>
						<button type="submit" disabled={busy}>
							<Trans>Save the digest’s time</Trans>
						</button>
					</Form>
				</>
			) : null}
		</>
	)
}
