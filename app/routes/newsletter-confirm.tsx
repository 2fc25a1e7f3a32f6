import { data, Link } from 'react-router'
import { confirmSubscription, linkProblem } from '#app/features/newsletter/manage.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import type { Route } from './+types/newsletter-confirm'

// The link in the confirmation mail: following it is the consent (double opt-in).

export function meta() {
	return [{ title: 'Subscription confirmed' }, { name: 'robots', content: 'noindex' }]
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
	return loaderHeaders
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const confirmed = await confirmSubscription(context.get(servicesContext), token)
	const init = { headers: { 'Cache-Control': 'no-store' } }
	if (!confirmed.ok)
		return data(
			{ ok: false as const, problem: linkProblem(confirmed.reason) },
			{ ...init, status: confirmed.reason === 'invalid' ? 400 : 410 },
		)
	return data(
		{
			ok: true as const,
			email: confirmed.subscriber.email,
			preferences: new URL(confirmed.links.preferences).search,
		},
		init,
	)
}

export default function NewsletterConfirm({ loaderData, matches }: Route.ComponentProps) {
	const { site } = rootData(matches)
	if (!loaderData.ok)
		return (
			<article className="page narrow newsletter-page">
				<h1>This link did not work</h1>
				<p>{loaderData.problem}</p>
				<p>
					<Link to="/newsletter">Subscribe to the newsletter</Link>
				</p>
			</article>
		)
	return (
		<article className="page narrow newsletter-page">
			<h1>You are subscribed</h1>
			<p>
				Thank you. New articles from {site.title} will reach <strong>{loaderData.email}</strong>.
			</p>
			<p>
				You get every new article as it is published.{' '}
				<Link to={`/newsletter/preferences${loaderData.preferences}`}>
					Choose a weekly digest or the topics you follow instead
				</Link>
				.
			</p>
		</article>
	)
}
