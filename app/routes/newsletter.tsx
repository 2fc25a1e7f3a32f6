import { data } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { confirmValidDays } from '#app/features/newsletter/newsletter-links.server.ts'
import { SubscribeForm } from '#app/features/newsletter/subscribe-form.tsx'
import { requestSubscription } from '#app/features/newsletter/subscribe.server.ts'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/newsletter'

// The newsletter's own page: what subscribing means, and the answer to the form posted from the
// foot of any page (docs/decisions/032-newsletter.md).

export const handle = { screen: 'newsletter' } satisfies ScreenHandle

export function meta({ matches }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	return pageMeta({
		title: 'Newsletter',
		description: `New articles from ${site.title} by email: every one, or a weekly digest.`,
		url: absoluteUrl(siteUrl, '/newsletter'),
		siteTitle: site.title,
	})
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
	return actionHeaders
}

export async function action({ request, context }: Route.ActionArgs) {
	const form = await readForm(request)
	const input: Record<string, string> = {}
	for (const [name, value] of form) if (typeof value === 'string') input[name] = value
	const services = context.get(servicesContext)
	const result = await requestSubscription(services, context.get(clientIpContext), input)
	const email = (input.email ?? '').slice(0, 254)
	switch (result.outcome) {
		case 'invalid':
			return data(
				{
					outcome: 'invalid' as const,
					email,
					error: (result.errors.email ?? result.errors.form ?? []).join(' '),
				},
				400,
			)
		case 'limited':
			return data(
				{ outcome: 'invalid' as const, email, error: result.error },
				{ status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
			)
		case 'asked':
			return { outcome: 'asked' as const, email: result.email, validDays: confirmValidDays }
	}
}

export default function Newsletter({ matches, actionData }: Route.ComponentProps) {
	const { site } = rootData(matches)
	return (
		<article className="page narrow newsletter-page">
			<h1>Newsletter</h1>
			{actionData?.outcome === 'asked' ? (
				<div className="newsletter-answer" role="status">
					<h2>Check your inbox</h2>
					<p>
						If <strong>{actionData.email}</strong> can receive mail from {site.title}, a message to
						confirm your subscription is on its way. Follow the link in it within{' '}
						{actionData.validDays} days. Nothing else is sent until you do.
					</p>
					<p className="hint">
						No mail after a few minutes? Look in your spam folder, or try again below.
					</p>
				</div>
			) : (
				<p className="lead">
					Get every new article from {site.title} in your inbox, or one digest a week. Each mail has
					a link to change what you receive or to unsubscribe in one click.
				</p>
			)}
			<SubscribeForm
				id="newsletter-page"
				title="Your email address"
				email={actionData?.outcome === 'invalid' ? actionData.email : ''}
				error={actionData?.outcome === 'invalid' ? actionData.error : undefined}
			/>
			<p className="hint">
				We use your address only to send {site.title}'s articles. Unconfirmed addresses are deleted
				after a week.
			</p>
		</article>
	)
}
