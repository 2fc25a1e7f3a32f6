import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { contactFields } from '#app/features/contact/contact.schema.ts'
import { type ReceiveResult, receiveContactMessage } from '#app/features/contact/contact.server.ts'
import { type ContactActionData, ContactForm } from '#app/features/contact/contact-form.tsx'
import { newFormIdentity } from '#app/features/contact/form-token.server.ts'
import { defaultSiteSettings } from '#app/features/site/site-settings.ts'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { i18nFor } from '#app/lib/i18n.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import stylesheet from '#app/styles/contact.css?url'
import type { Route } from './+types/contact'

export const handle = { screen: 'contact' } satisfies ScreenHandle

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ matches }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	const i18n = rootI18n(matches)
	const siteTitle = site.title
	return pageMeta({
		title: i18n._(msg`Contact`),
		description: i18n._(msg`How to reach the people behind ${siteTitle}.`),
		url: absoluteUrl(siteUrl, '/contact'),
		siteTitle: site.title,
	})
}

// Each rendering carries its own key and token, so the page must never come from a shared cache.
// The action's Retry-After (on 429) reaches the document only through this.
export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
	const merged = new Headers(loaderHeaders)
	for (const [name, value] of actionHeaders) merged.set(name, value)
	return merged
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, remoteConfig, contactMinimumFillMs } = context.get(servicesContext)
	// Editors can turn the form off (remote configuration): the page then gives the addresses.
	const { contact_form_enabled: open } = await remoteConfig.valuesFor(request)
	return data(
		{
			form: open ? await newFormIdentity(storage) : null,
			// Sooner than this after the form was drawn, a message is taken for a robot's (decision
			// 007): the page's script holds a quick one back until then rather than have it dropped.
			minimumWaitMs: contactMinimumFillMs,
		},
		{ headers: { 'Cache-Control': 'no-store' } },
	)
}

// The form keeps its key and token after its own post (a retry must reuse the key).
export function shouldRevalidate({
	formAction,
	defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
	return formAction === '/contact' ? false : defaultShouldRevalidate
}

function unreadable(i18n: I18n) {
	return {
		outcome: 'invalid',
		errors: {
			form: [
				i18n._(msg`The form could not be read. Reload the page, then send your message again.`),
			],
		},
		values: {},
	} satisfies ContactActionData
}

/**
 * The request's language, for the answers worded here; read only for those (it reads the site's
 * settings), and English if even that fails: the answer to a database outage must still come.
 */
async function answerI18n(request: Request, context: Route.ActionArgs['context']): Promise<I18n> {
	try {
		return await requestI18n(request, context)
	} catch {
		return i18nFor('en')
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	let form: FormData
	try {
		form = await request.formData()
	} catch {
		return data(unreadable(await answerI18n(request, context)), 400)
	}
	const input: Record<string, string> = {}
	for (const [name, value] of form) if (typeof value === 'string') input[name] = value
	const values = Object.fromEntries(contactFields.map((field) => [field, input[field] ?? '']))
	const posted =
		input.idempotencyKey && input.token
			? { idempotencyKey: input.idempotencyKey, token: input.token }
			: undefined

	const services = context.get(servicesContext)
	const result = await receiveContactMessage(services, request, context.get(clientIpContext), input)
	const i18n =
		result.outcome === 'closed' || result.outcome === 'unavailable'
			? await answerI18n(request, context)
			: undefined
	return answer(result, { values, form: posted }, i18n ?? i18nFor('en'))
}

/** The page again, worded for the outcome; what was typed comes back unless it was sent. */
function answer(
	result: ReceiveResult,
	typed: {
		values: Record<string, string>
		form: { idempotencyKey: string; token: string } | undefined
	},
	i18n: I18n,
) {
	const { values, form: posted } = typed
	switch (result.outcome) {
		case 'closed': {
			// What was typed comes back in the form, so the visitor can copy it into an email.
			const contactEmail = result.contactEmail
			return data<ContactActionData>(
				{
					outcome: 'closed',
					errors: {
						form: [
							i18n._(
								msg`The contact form was closed while you wrote, and your message was not sent. Copy it from below and email it to ${contactEmail}.`,
							),
						],
					},
					values,
					form: posted,
				},
				503,
			)
		}
		case 'unavailable':
			// The form comes back as it was, with its key: sent again, it is stored once even if
			// this try did reach the database just before it went away.
			return data<ContactActionData>(
				{
					outcome: 'unavailable',
					errors: {
						form: [
							i18n._(
								msg`Your message could not be sent just now: the site cannot reach its database. What you wrote is still below; please send it again in a minute. It will not arrive twice.`,
							),
						],
					},
					values,
					form: posted,
				},
				{ status: 503, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
			)
		case 'invalid':
			return data<ContactActionData>(
				{ outcome: 'invalid', errors: result.errors, values, form: posted },
				400,
			)
		case 'limited':
			return data<ContactActionData>(
				{ outcome: 'limited', errors: { form: [result.error] }, values, form: posted },
				{ status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
			)
		case 'accepted':
			return data<ContactActionData>({
				outcome: 'sent',
				name: result.name,
				email: result.email,
			})
	}
}

/** The introduction a new site starts with (site-settings.ts), word for word: readers get it in
 * their language until an admin writes the site's own. */
const startingIntro = msg`We read every message. Write to us with a correction, a story we should follow, or to work with us.`

export default function Contact({ matches, loaderData, actionData }: Route.ComponentProps) {
	const { site } = rootData(matches)
	const { i18n } = useLingui()
	const intro =
		site.contactIntro === defaultSiteSettings.contactIntro
			? i18n._(startingIntro)
			: site.contactIntro
	return (
		<div className="page contact">
			<h1>
				<Trans>Contact</Trans>
			</h1>
			{intro ? (
				<p className="contact-intro" dir="auto">
					{intro}
				</p>
			) : null}
			<div className="contact-layout">
				{loaderData.form ? (
					<ContactForm
						form={loaderData.form}
						minimumWaitMs={loaderData.minimumWaitMs}
						actionData={actionData}
					/>
				) : (
					<p className="contact-closed">
						<Trans>The contact form is closed just now. Write to us by email or by post.</Trans>
					</p>
				)}
				<aside className="contact-other" aria-labelledby="contact-other-title">
					<h2 id="contact-other-title" className="visually-hidden">
						<Trans>Other ways to reach us</Trans>
					</h2>
					<h3>
						<Trans context="a way to reach us">Email</Trans>
					</h3>
					<p>
						<a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
					</p>
					<h3>
						<Trans context="a way to reach us: letters sent by mail">Post</Trans>
					</h3>
					<address className="address" dir="auto">
						{site.contactAddress}
					</address>
				</aside>
			</div>
		</div>
	)
}
