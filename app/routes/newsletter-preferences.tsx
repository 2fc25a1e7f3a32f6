import { data, Form, Link } from 'react-router'
import {
	linkProblem,
	savePreferences,
	subscriberOfLink,
} from '#app/features/newsletter/manage.server.ts'
import { describeSchedule } from '#app/features/newsletter/newsletter-settings.ts'
import { getDigestSchedule } from '#app/features/newsletter/newsletter-settings.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import type { Route } from './+types/newsletter-preferences'

// What a reader receives, changed from the link in any mail without signing in: every article or
// the weekly digest, and the topics (tags) followed.

export function meta() {
	return [{ title: 'Newsletter preferences' }, { name: 'robots', content: 'noindex' }]
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
			{ ok: false as const, problem: linkProblem(linked.reason) },
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
			schedule: describeSchedule(schedule),
		},
		{ headers: noStore },
	)
}

export async function action({ request, context }: Route.ActionArgs) {
	const form = await request.formData().catch(() => undefined)
	if (!form)
		return data(
			{ saved: false as const, problem: 'The form could not be read. Please send it again.' },
			400,
		)
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
			{ saved: false as const, problem: linkProblem(saved.reason) },
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
	if (!loaderData.ok)
		return (
			<article className="page narrow newsletter-page">
				<h1>This link did not work</h1>
				<p>{loaderData.problem}</p>
			</article>
		)
	const { token, email, status, cadence, tagIds, tags, schedule } = loaderData
	const manage = `?token=${encodeURIComponent(token)}`
	return (
		<article className="page narrow newsletter-page">
			<h1>Newsletter preferences</h1>
			<p>
				What {site.title} sends to <strong>{email}</strong>.
			</p>
			{status !== 'confirmed' ? (
				<p className="notice">
					This address receives nothing at the moment (
					{status === 'pending' ? 'not confirmed yet' : status}
					). <Link to="/newsletter">Subscribe again</Link> to receive the newsletter.
				</p>
			) : null}
			{actionData?.saved ? (
				<p className="notice" role="status">
					Saved. Your next mail follows these choices.
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
					<legend>How often</legend>
					<div className="checkbox-row">
						<input
							type="radio"
							id="cadence-each"
							name="cadence"
							value="each"
							defaultChecked={cadence === 'each'}
						/>
						<label htmlFor="cadence-each">Every new article, as it is published</label>
					</div>
					<div className="checkbox-row">
						<input
							type="radio"
							id="cadence-digest"
							name="cadence"
							value="digest"
							defaultChecked={cadence === 'digest'}
						/>
						<label htmlFor="cadence-digest">One weekly digest, {schedule}</label>
					</div>
				</fieldset>
				{tags.length > 0 ? (
					<fieldset>
						<legend>Topics</legend>
						<p className="hint">Tick none to get every article; tick some to get only those.</p>
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
					Save preferences
				</button>
			</Form>
			<p>
				<Link to={`/newsletter/unsubscribe${manage}`}>Unsubscribe from all mail</Link>
			</p>
		</article>
	)
}
