import { msg } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { data, Link } from 'react-router'
import { confirmSubscription, linkProblem } from '#app/features/newsletter/manage.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/newsletter-confirm'

// The link in the confirmation mail: following it is the consent (double opt-in).

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Subscription confirmed`) }, { name: 'robots', content: 'noindex' }]
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
			{
				ok: false as const,
				problem: linkProblem(await requestI18n(request, context), confirmed.reason),
			},
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
				<h1>
					<Trans>This link did not work</Trans>
				</h1>
				<p>{loaderData.problem}</p>
				<p>
					<Link to="/newsletter">
						<Trans>Subscribe to the newsletter</Trans>
					</Link>
				</p>
			</article>
		)
	const siteTitle = site.title
	const email = loaderData.email
	return (
		<article className="page narrow newsletter-page">
			<h1>
				<Trans>You are subscribed</Trans>
			</h1>
			<p>
				<Trans>
					Thank you. New articles from {siteTitle} will reach <strong>{email}</strong>.
				</Trans>
			</p>
			<p>
				<Trans>
					You get every new article as it is published.{' '}
					<Link to={`/newsletter/preferences${loaderData.preferences}`}>
						Choose a weekly digest or the topics you follow instead
					</Link>
					.
				</Trans>
			</p>
		</article>
	)
}
