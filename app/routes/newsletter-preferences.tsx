import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link } from 'react-router'
import {
	linkProblem,
	savePreferences,
	subscriberOfLink,
} from '#app/features/newsletter/manage.server.ts'
import { getDigestSchedule } from '#app/features/newsletter/newsletter-settings.server.ts'
import { scheduleText } from '#app/features/newsletter/schedule-text.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import type { SubscriberStatus } from '#storage/port/newsletter.ts'
import type { Route } from './+types/newsletter-preferences'

// What a reader receives, changed from the link in any mail without signing in: every article or
// the weekly digest, and the topics (tags) followed.

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Newsletter preferences`) }, { name: 'robots', content: 'noindex' }]
}

/** Why an address receives nothing, in the notice at the top of the page. */
const quietStatus: Record<Exclude<SubscriberStatus, 'confirmed'>, MessageDescriptor> = {
	pending: msg({ message: 'not confirmed yet', context: 'an address on the newsletter list' }),
	unsubscribed: msg({ message: 'unsubscribed', context: 'an address on the newsletter list' }),
	suspended: msg({ message: 'suspended', context: 'an address on the newsletter list' }),
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
	return loaderHeaders
}

const noStore = { 'Cache-Control': 'no-store' }

export async function loader({ request, context }: Route.LoaderArgs) {
	const services = context.get(servicesContext)
	const token = new URL(request.url).searchParams.get('token')
	const linked = await subscriberOfLink(services, token, 'manage')
	if (!linked.ok)
		return data(
			{
				ok: false as const,
				problem: linkProblem(await requestI18n(request, context), linked.reason),
			},
			{ status: linked.reason === 'invalid' ? 400 : 410, headers: noStore },
		)
	const [tags, schedule] = await Promise.all([
		services.storage.tags.list(),
		getDigestSchedule(services.storage),
	])
	const { email, status, cadence, tagIds } = linked.subscriber
	return data(
		{
			ok: true as const,
			token: linked.token,
			email,
			status,
			cadence,
			tagIds,
			tags: tags
				.filter((tag) => tag.articles > 0 || tagIds.includes(tag.id))
				.map(({ id, name }) => ({ id, name })),
			schedule: { day: schedule.day, hour: schedule.hour, timeZone: schedule.timeZone },
		},
		{ headers: noStore },
	)
}

export async function action({ request, context }: Route.ActionArgs) {
	const form = await request.formData().catch(() => undefined)
	if (!form) {
		const i18n = await requestI18n(request, context)
		return data(
			{
				saved: false as const,
				problem: i18n._(msg`The form could not be read. Please send it again.`),
			},
			400,
		)
	}
	const token = new URL(request.url).searchParams.get('token') ?? String(form.get('token') ?? '')
	const cadence = form.get('cadence') === 'digest' ? 'digest' : 'each'
	const tagIds = form
		.getAll('tag')
		.map((value) => Number(value))
		.filter((id) => Number.isSafeInteger(id) && id > 0)
		.slice(0, 500)
	const saved = await savePreferences(context.get(servicesContext), token, { cadence, tagIds })
	if (!saved.ok)
		return data(
			{
				saved: false as const,
				problem: linkProblem(await requestI18n(request, context), saved.reason),
			},
			{ status: saved.reason === 'invalid' ? 400 : 410, headers: noStore },
		)
	return data({ saved: true as const }, { headers: noStore })
}

export default function NewsletterPreferences({
	loaderData,
	actionData,
	matches,
}: Route.ComponentProps) {
	const { site } = rootData(matches)
	const { i18n } = useLingui()
	if (!loaderData.ok)
		return (
			<article className="page narrow newsletter-page">
				<h1>
					<Trans>This link did not work</Trans>
				</h1>
				<p>{loaderData.problem}</p>
			</article>
		)
	const { token, email, status, cadence, tagIds, tags } = loaderData
	const manage = `?token=${encodeURIComponent(token)}`
	const siteTitle = site.title
	const schedule = scheduleText(i18n, loaderData.schedule)
	const why = status === 'confirmed' ? '' : i18n._(quietStatus[status])
	return (
		<article className="page narrow newsletter-page">
			<h1>
				<Trans>Newsletter preferences</Trans>
			</h1>
			<p>
				<Trans>
					What {siteTitle} sends to <strong>{email}</strong>.
				</Trans>
			</p>
			{status !== 'confirmed' ? (
				<p className="notice">
					<Trans>
						This address receives nothing at the moment ({why}).{' '}
						<Link to="/newsletter">Subscribe again</Link> to receive the newsletter.
					</Trans>
				</p>
			) : null}
			{actionData?.saved ? (
				<p className="notice" role="status">
					<Trans>Saved. Your next mail follows these choices.</Trans>
				</p>
			) : null}
			{actionData?.saved === false ? (
				<p className="field-error" role="alert">
					{actionData.problem}
				</p>
			) : null}
			<Form method="post" className="newsletter-preferences">
				<input type="hidden" name="token" value={token} />
				<fieldset>
					<legend>
						<Trans>How often</Trans>
					</legend>
					<div className="checkbox-row">
						<input
							type="radio"
							id="cadence-each"
							name="cadence"
							value="each"
							defaultChecked={cadence === 'each'}
						/>
						<label htmlFor="cadence-each">
							<Trans>Every new article, as it is published</Trans>
						</label>
					</div>
					<div className="checkbox-row">
						<input
							type="radio"
							id="cadence-digest"
							name="cadence"
							value="digest"
							defaultChecked={cadence === 'digest'}
						/>
						<label htmlFor="cadence-digest">
							<Trans>One weekly digest, {schedule}</Trans>
						</label>
					</div>
				</fieldset>
				{tags.length > 0 ? (
					<fieldset>
						<legend>
							<Trans>Topics</Trans>
						</legend>
						<p className="hint">
							<Trans>Tick none to get every article; tick some to get only those.</Trans>
						</p>
						<ul className="newsletter-topics">
							{tags.map((tag) => (
								<li key={tag.id} className="checkbox-row">
									<input
										type="checkbox"
										id={`tag-${tag.id}`}
										name="tag"
										value={tag.id}
										defaultChecked={tagIds.includes(tag.id)}
									/>
									<label htmlFor={`tag-${tag.id}`}>{tag.name}</label>
								</li>
							))}
						</ul>
					</fieldset>
				) : null}
				<button type="submit" className="newsletter-button">
					<Trans>Save preferences</Trans>
				</button>
			</Form>
			<p>
				<Link to={`/newsletter/unsubscribe${manage}`}>
					<Trans>Unsubscribe from all mail</Trans>
				</Link>
			</p>
		</article>
	)
}
