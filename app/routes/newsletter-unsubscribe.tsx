import { msg } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { data, Form, Link } from 'react-router'
import {
	linkProblem,
	subscriberOfLink,
	unsubscribeByLink,
} from '#app/features/newsletter/manage.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/newsletter-unsubscribe'

// Unsubscribing from a mail, without signing in. The mail's List-Unsubscribe header names this
// address and mail programs POST `List-Unsubscribe=One-Click` to it (RFC 8058): that takes effect
// at once. The visible link opens this page, whose one button does the same: a GET never
// unsubscribes, as mail scanners open every link in a mail before the reader does.

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{ title: i18n._(msg({ message: 'Unsubscribe', context: 'the page that stops all mail' })) },
		{ name: 'robots', content: 'noindex' },
	]
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
	const merged = new Headers(loaderHeaders)
	for (const [name, value] of actionHeaders) merged.set(name, value)
	return merged
}

const noStore = { 'Cache-Control': 'no-store' }

export async function loader({ request, context }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const linked = await subscriberOfLink(context.get(servicesContext), token, 'manage')
	if (!linked.ok)
		return data(
			{
				ok: false as const,
				problem: linkProblem(await requestI18n(request, context), linked.reason),
			},
			{ status: linked.reason === 'invalid' ? 400 : 410, headers: noStore },
		)
	const { email, status } = linked.subscriber
	return data({ ok: true as const, email, status, token: linked.token }, { headers: noStore })
}

export async function action({ request, context }: Route.ActionArgs) {
	// The token is in the address (RFC 8058 posts to the List-Unsubscribe URL as it is) or the form.
	let token = new URL(request.url).searchParams.get('token')
	if (!token) {
		const form = await request.formData().catch(() => undefined)
		const posted = form?.get('token')
		token = typeof posted === 'string' ? posted : null
	}
	const done = await unsubscribeByLink(context.get(servicesContext), token)
	if (!done.ok)
		return data(
			{
				done: false as const,
				problem: linkProblem(await requestI18n(request, context), done.reason),
			},
			{ status: done.reason === 'invalid' ? 400 : 410, headers: noStore },
		)
	return data({ done: true as const, email: done.subscriber.email }, { headers: noStore })
}

export default function NewsletterUnsubscribe({
	loaderData,
	actionData,
	matches,
}: Route.ComponentProps) {
	const { site } = rootData(matches)
	const siteTitle = site.title
	if (actionData?.done) {
		const email = actionData.email
		return (
			<article className="page narrow newsletter-page">
				<h1>
					<Trans>You are unsubscribed</Trans>
				</h1>
				<p role="status">
					<Trans>
						<strong>{email}</strong> will get no more mail from {siteTitle}.
					</Trans>
				</p>
				<p>
					<Trans>
						Changed your mind? <Link to="/newsletter">Subscribe again</Link>.
					</Trans>
				</p>
			</article>
		)
	}
	const problem =
		actionData?.done === false ? actionData.problem : loaderData.ok ? null : loaderData.problem
	if (problem || !loaderData.ok)
		return (
			<article className="page narrow newsletter-page">
				<h1>
					<Trans>This link did not work</Trans>
				</h1>
				<p>{problem}</p>
			</article>
		)
	const email = loaderData.email
	if (loaderData.status === 'unsubscribed')
		return (
			<article className="page narrow newsletter-page">
				<h1>
					<Trans>You are unsubscribed</Trans>
				</h1>
				<p>
					<Trans>
						<strong>{email}</strong> gets no mail from {siteTitle}.{' '}
						<Link to="/newsletter">Subscribe again</Link>
					</Trans>
				</p>
			</article>
		)
	return (
		<article className="page narrow newsletter-page">
			<h1>
				<Trans context="the page that stops all mail">Unsubscribe</Trans>
			</h1>
			<p>
				<Trans>
					Stop all mail from {siteTitle} to <strong>{email}</strong>?
				</Trans>
			</p>
			<Form method="post" className="newsletter-actions">
				<input type="hidden" name="token" value={loaderData.token} />
				<button type="submit" className="newsletter-button">
					<Trans context="the button that stops all mail">Unsubscribe</Trans>
				</button>
			</Form>
			<p className="hint">
				<Trans>
					Rather get less mail?{' '}
					<Link to={`/newsletter/preferences?token=${encodeURIComponent(loaderData.token)}`}>
						Switch to the weekly digest or follow only some topics
					</Link>
					.
				</Trans>
			</p>
		</article>
	)
}
