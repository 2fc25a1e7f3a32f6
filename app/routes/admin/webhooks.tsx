import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { ErrorSummary } from '#app/components/ui/error-summary.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import {
	endpointFormSchema,
	endpointFormValues,
} from '#app/features/webhooks/webhook-admin.schema.ts'
import { saveWebhookEndpoint } from '#app/features/webhooks/webhook-admin.server.ts'
import { EventChoices } from '#app/features/webhooks/webhook-admin-forms.tsx'
import {
	allowsPrivateAddresses,
	setAllowsPrivateAddresses,
} from '#app/features/webhooks/webhook-settings.server.ts'
import { actionAnswer } from '#app/lib/action-answer.ts'
import { keepDataWhenNoticeLeaves, useArrivalNotice } from '#app/lib/arrival-notice.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import stylesheet from '#app/styles/admin-webhooks.css?url'
import { webhookEventTypes } from '#storage/port/webhooks.ts'
import type { Route } from './+types/webhooks'

// Webhooks (admins only): the endpoints that get the site's events, signed, and the one setting
// that lets them be on this machine or a private network. Each endpoint's page has its log.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Webhooks · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

export function headers() {
	return { 'Cache-Control': 'no-store' }
}

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts).
export const shouldRevalidate = keepDataWhenNoticeLeaves

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const [endpoints, allowPrivate] = await Promise.all([
		storage.webhooks.listEndpoints(),
		allowsPrivateAddresses(storage),
	])
	// The secrets stay on each endpoint's own page.
	return {
		endpoints: endpoints.map(({ secret: _, previousSecret: __, ...endpoint }) => endpoint),
		allowPrivate,
	}
}

export async function action({ context, request }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const posted = await readForm(request)
	const i18n = await requestI18n(request, context)
	if (posted.get('intent') === 'settings') {
		const allow = posted.get('allowPrivate') === 'on'
		await setAllowsPrivateAddresses(storage, allow)
		return {
			done: allow
				? i18n._(msg`Endpoints may now be on this machine or a private network.`)
				: i18n._(msg`Endpoints must now be public https addresses.`),
		}
	}
	const values = endpointFormValues(posted)
	const parsed = endpointFormSchema.safeParse(values)
	if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values }, 400)
	const saved = await saveWebhookEndpoint(storage, parsed.data)
	if (!saved.ok) return data({ errors: saved.errors, values }, 400)
	return redirect(`/admin/webhooks/${saved.endpoint.id}?created=1`)
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
	const { endpoints, allowPrivate } = loaderData
	const busy = useNavigation().state === 'submitting'
	const { errors, values, value, done, refusal } = actionAnswer(actionData)
	const guard = useFormLeaveGuard(refusal())
	const deleted = useArrivalNotice('deleted')
	const { t } = useLingui()
	const posted = Array.isArray(values.events) ? values.events.map(String) : undefined
	const docs = 'https://www.standardwebhooks.com'
	return (
		<>
			<h1>
				<Trans>Webhooks</Trans>
			</h1>
			<p>
				<Trans>
					Canopy tells other services when something happens: an article published, a message
					received, a new subscriber. Each event is posted as JSON to the endpoints that want it,
					signed by the <a href={docs}>Standard Webhooks</a> scheme so the receiver can check it
					came from this site, and tried again for a day when the receiver is down. Automation tools
					such as n8n, Zapier or Make take these as they are.
				</Trans>
			</p>
			{done ? (
				<p role="status" className="notice">
					{done}
				</p>
			) : deleted ? (
				<p role="status" className="notice">
					<Trans>The endpoint at {deleted} is deleted: no more events go to it.</Trans>
				</p>
			) : null}

			<h2>
				<Trans>Endpoints</Trans>
			</h2>
			{endpoints.length === 0 ? (
				<p>
					<Trans>No endpoint yet: add one below.</Trans>
				</p>
			) : (
				<ul className="webhook-list">
					{endpoints.map((endpoint) => {
						const pending = endpoint.pending
						const failed = endpoint.failed
						const last = endpoint.lastDelivery
						return (
							<li key={endpoint.id}>
								<Link to={`/admin/webhooks/${endpoint.id}`} className="webhook-url">
									{endpoint.url}
								</Link>
								{endpoint.description ? <span> · {endpoint.description}</span> : null}
								<p className="webhook-facts">
									{endpoint.enabled ? (
										<span className="webhook-state on">
											<Trans>On</Trans>
										</span>
									) : (
										<span className="webhook-state off">
											{endpoint.disabledReason ? (
												<Trans>Turned off: the receiver asked for no more</Trans>
											) : (
												<Trans>Off</Trans>
											)}
										</span>
									)}
									<span>{t`${endpoint.events.length} of ${webhookEventTypes.length} events`}</span>
									{last ? (
										<span>
											{last.state === 'delivered' ? (
												<Trans>
													Last delivered <LocalTime iso={last.at} time />
												</Trans>
											) : (
												<Trans>
													Last failed <LocalTime iso={last.at} time />
												</Trans>
											)}
										</span>
									) : null}
									{pending > 0 ? (
										<span>
											<Plural value={pending} one="# waiting" other="# waiting" />
										</span>
									) : null}
									{failed > 0 ? (
										<span className="webhook-failed">
											<Plural value={failed} one="# failed" other="# failed" />
										</span>
									) : null}
								</p>
							</li>
						)
					})}
				</ul>
			)}

			<h2>
				<Trans>Add an endpoint</Trans>
			</h2>
			<Form method="post" className="form" aria-label={t`Add an endpoint`} {...guard.form}>
				<ErrorSummary
					errors={errors}
					labels={{ url: t`Address`, description: t`Description`, events: t`Events` }}
					title={t`The endpoint was not added`}
				/>
				<Field
					name="url"
					type="url"
					label={t`Address`}
					hint={t`Where the events are posted, e.g. https://hooks.example.org/canopy.`}
					required
					maxLength={2_000}
					defaultValue={value('url', '')}
					error={errors.url}
					autoComplete="off"
					spellCheck={false}
				/>
				<Field
					name="description"
					label={t`Description`}
					hint={t`Optional: what it is for, e.g. “Post new articles to Mastodon”.`}
					maxLength={200}
					defaultValue={value('description', '')}
					error={errors.description}
				/>
				<EventChoices chosen={posted ?? [...webhookEventTypes]} error={errors.events} />
				<input type="hidden" name="enabled" value="on" />
				<button type="submit" name="intent" value="create" disabled={busy}>
					<Trans>Add the endpoint</Trans>
				</button>
			</Form>

			<h2>
				<Trans>Where endpoints may be</Trans>
			</h2>
			<Form method="post" className="form" aria-label={t`Where endpoints may be`} {...guard.form}>
				<div className="checkbox-row">
					<input
						type="checkbox"
						id="webhooks-allow-private"
						name="allowPrivate"
						defaultChecked={allowPrivate}
						aria-describedby="webhooks-allow-private-hint"
					/>
					<label htmlFor="webhooks-allow-private">
						<Trans>Allow this machine and private networks</Trans>
					</label>
				</div>
				<p className="hint" id="webhooks-allow-private-hint">
					<Trans>
						Off, endpoints must be https addresses on the public internet. On, they may also be on
						this server or your own network (an n8n beside Canopy, say), over http too. Anyone who
						can add an endpoint can then make the server call those machines: turn it on only if you
						need it. Cloud metadata addresses (169.254.x.x) are never allowed.
					</Trans>
				</p>
				<button type="submit" name="intent" value="settings" disabled={busy}>
					<Trans>Save the setting</Trans>
				</button>
			</Form>
			{guard.dialog}
		</>
	)
}
