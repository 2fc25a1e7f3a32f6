import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { data } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { confirmValidDays } from '#app/features/newsletter/newsletter-links.server.ts'
import { requestSubscription } from '#app/features/newsletter/subscribe.server.ts'
import { SubscribeForm } from '#app/features/newsletter/subscribe-form.tsx'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/newsletter'

// The newsletter's own page: what subscribing means, and the answer to the form posted from the
// foot of any page (docs/decisions/032-newsletter.md).

export const handle = { screen: 'newsletter' } satisfies ScreenHandle

export function meta({ matches }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	const i18n = rootI18n(matches)
	const siteTitle = site.title
	return pageMeta({
		title: i18n._(msg`Newsletter`),
		description: i18n._(
			msg`New articles from ${siteTitle} by email: every one, or a weekly digest.`,
		),
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
	const i18n = await requestI18n(request, context)
	const result = await requestSubscription(services, context.get(clientIpContext), input, i18n)
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
	const { t } = useLingui()
	const siteTitle = site.title
	return (
		<article className="page narrow newsletter-page">
			<h1>
				<Trans>Newsletter</Trans>
			</h1>
			{actionData?.outcome === 'asked' ? (
				<Asked email={actionData.email} validDays={actionData.validDays} siteTitle={siteTitle} />
			) : (
				<p className="lead">
					<Trans>
						Get every new article from {siteTitle} in your inbox, or one digest a week. Each mail
						has a link to change what you receive or to unsubscribe in one click.
					</Trans>
				</p>
			)}
			<SubscribeForm
				id="newsletter-page"
				title={t`Your email address`}
				email={actionData?.outcome === 'invalid' ? actionData.email : ''}
				error={actionData?.outcome === 'invalid' ? actionData.error : undefined}
			/>
			<p className="hint">
				<Trans>
					We use your address only to send {siteTitle}'s articles. Unconfirmed addresses are deleted
					after a week.
				</Trans>
			</p>
		</article>
	)
}

/** The answer to a well-formed address, the same whether or not it is known. */
function Asked({
	email,
	validDays,
	siteTitle,
}: {
	email: string
	validDays: number
	siteTitle: string
}) {
	return (
		<div className="newsletter-answer" role="status">
			<h2>
				<Trans>Check your inbox</Trans>
			</h2>
			<p>
				<Trans>
					If <strong>{email}</strong> can receive mail from {siteTitle}, a message to confirm your
					subscription is on its way. Follow the link in it within{' '}
					<Plural value={validDays} one="# day" other="# days" />. Nothing else is sent until you
					do.
				</Trans>
			</p>
			<p className="hint">
				<Trans>No mail after a few minutes? Look in your spam folder, or try again below.</Trans>
			</p>
		</div>
	)
}
