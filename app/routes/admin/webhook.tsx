import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { ActionNotice } from '#app/components/ui/action-notice.tsx'
import { DeleteConfirmation } from '#app/components/ui/delete-confirmation.tsx'
import { ErrorSummary } from '#app/components/ui/error-summary.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import {
	deliveryIdSchema,
	endpointFormSchema,
	endpointFormValues,
} from '#app/features/webhooks/webhook-admin.schema.ts'
import {
	newWebhookSecret,
	saveWebhookEndpoint,
	sendTestEvent,
} from '#app/features/webhooks/webhook-admin.server.ts'
import { EventChoices } from '#app/features/webhooks/webhook-admin-forms.tsx'
import { eventLabels } from '#app/features/webhooks/webhook-admin-labels.ts'
import { actionAnswer } from '#app/lib/action-answer.ts'
import { keepDataWhenNoticeLeaves, useArrivalNotice } from '#app/lib/arrival-notice.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import stylesheet from '#app/styles/admin-webhooks.css?url'
import type { WebhookDelivery } from '#storage/port/webhooks.ts'
import type { Route } from './+types/webhook'

// One webhook endpoint (admins only): what it gets and where, its signing secret, a test event,
// and its delivery log, newest first, with failed deliveries sent again on request.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const url = loaderData?.endpoint.url
	return [
		{ title: url ? i18n._(msg`${url} · Webhooks · Canopy`) : i18n._(msg`Webhooks · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

// The secret is in the page: no cache may keep a copy of it.
export function headers() {
	return { 'Cache-Control': 'no-store' }
}

/**
 * How long the secret before a new one keeps signing beside it: time to put the new one in the
 * receiver, which accepts an event carrying either signature.
 */
const secretOverlapMs = 24 * 60 * 60 * 1000

/** Deliveries on one page of the log. */
const logPage = 50

/** A row id from the address: a positive whole number a database takes, else undefined. */
function idFrom(text: string | null | undefined): number | undefined {
	const id = Number(text)
	return Number.isSafeInteger(id) && id > 0 ? id : undefined
}

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts).
export const shouldRevalidate = keepDataWhenNoticeLeaves

export async function loader({ context, params, request }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const id = idFrom(params.id)
	const endpoint = id === undefined ? undefined : await storage.webhooks.findEndpoint(id)
	if (!endpoint || id === undefined) throw data(null, { status: 404 })
	const search = new URL(request.url).searchParams
	const before = idFrom(search.get('before'))
	const deliveries = await storage.webhooks.deliveries(id, { limit: logPage + 1, before })
	// The old secret is never shown: only until when it still signs.
	const { previousSecret: _, ...shown } = endpoint
	return {
		endpoint: shown,
		deliveries: deliveries.slice(0, logPage),
		older: deliveries.length > logPage ? deliveries[logPage - 1]?.id : undefined,
		paged: before !== undefined,
	}
}

export async function action({ context, params, request }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const i18n = await requestI18n(request, context)
	const id = idFrom(params.id)
	const endpoint = id === undefined ? undefined : await storage.webhooks.findEndpoint(id)
	if (!endpoint) throw data(null, { status: 404 })
	const posted = await readForm(request)
	const intent = posted.get('intent')
	if (intent === 'delete') {
		await storage.webhooks.deleteEndpoint(endpoint.id)
		// Its host only: an endpoint's whole address may carry its secret (a catch hook's token),
		// which must not reach access logs or the browser's history.
		return redirect(
			`/admin/webhooks?${new URLSearchParams({ deleted: new URL(endpoint.url).host })}`,
		)
	}
	if (intent === 'test') {
		if (!endpoint.enabled)
			return data(
				{
					errors: {
						form: [
							i18n._(
								msg`Turn the endpoint on first: events, tests too, go only to endpoints that are on.`,
							),
						],
					} as FieldErrors,
				},
				409,
			)
		await sendTestEvent(storage, endpoint)
		return {
			done: i18n._(msg`A test event is on its way: it appears in the log below within seconds.`),
		}
	}
	if (intent === 'rotate') {
		const now = new Date()
		await storage.webhooks.rotateSecret(
			endpoint.id,
			newWebhookSecret(),
			now,
			new Date(now.getTime() + secretOverlapMs),
		)
		return {
			done: i18n._(
				msg`A new secret is in place. For a day, events are signed with both the new and the old secret: give the new one to the receiver meanwhile.`,
			),
		}
	}
	if (intent === 'retire') {
		await storage.webhooks.retirePreviousSecret(endpoint.id, new Date())
		return { done: i18n._(msg`The old secret signs no more events.`) }
	}
	if (intent === 'resend') {
		const parsed = deliveryIdSchema.safeParse(Object.fromEntries(posted))
		if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, 400)
		const resent = await storage.webhooks.resend(endpoint.id, parsed.data.delivery, new Date())
		if (!resent)
			return data(
				{
					errors: {
						form: [i18n._(msg`That delivery is no longer failed: it was sent again already.`)],
					} as FieldErrors,
				},
				409,
			)
		return { done: i18n._(msg`The event is queued again, with its first webhook-id.`) }
	}
	const values = endpointFormValues(posted)
	const parsed = endpointFormSchema.safeParse(values)
	if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values }, 400)
	const saved = await saveWebhookEndpoint(storage, parsed.data, endpoint.id)
	if (!saved.ok) {
		if (saved.missing) throw data(null, { status: 404 })
		return data({ errors: saved.errors, values }, 400)
	}
	return { done: i18n._(msg`Saved.`) }
}

export default function Webhook({ loaderData, actionData }: Route.ComponentProps) {
	const { endpoint, deliveries, older, paged } = loaderData
	const created = useArrivalNotice('created') !== null
	const busy = useNavigation().state === 'submitting'
	const { errors, values, value, done, refusal } = actionAnswer(actionData)
	const guard = useFormLeaveGuard(refusal('save'))
	const { t } = useLingui()
	const posted = Array.isArray(values.events) ? values.events.map(String) : undefined
	const enabled = values.url === undefined ? endpoint.enabled : values.enabled === true
	const url = endpoint.url
	return (
		<>
			<p className="breadcrumb">
				<Link to="/admin/webhooks">
					<Trans>Webhooks</Trans>
				</Link>
			</p>
			<h1 className="webhook-title">{endpoint.url}</h1>
			{created ? (
				<p role="status" className="notice">
					<Trans>
						The endpoint is added. Give its signing secret, below, to the receiver, then send a test
						event.
					</Trans>
				</p>
			) : null}
			{done ? <ActionNotice answer={actionData}>{done}</ActionNotice> : null}
			{errors.form ? (
				<p role="alert" className="form-error">
					{errors.form.join(' ')}
				</p>
			) : null}
			{endpoint.disabledReason ? (
				<p role="alert" className="form-error">
					<Trans>
						Canopy turned this endpoint off: the receiver answered 410 Gone, which asks for no more
						events. Turn it on again below once the receiver wants them.
					</Trans>
				</p>
			) : null}

			<section aria-labelledby="secret-heading" className="webhook-secret">
				<h2 id="secret-heading">
					<Trans>Signing secret</Trans>
				</h2>
				<p>
					<Trans>
						Every event carries the headers <code>webhook-id</code>, <code>webhook-timestamp</code>{' '}
						and <code>webhook-signature</code>. The receiver checks them with this secret, using a
						Standard Webhooks library, and drops an event whose webhook-id it has seen: an event may
						arrive twice.
					</Trans>
				</p>
				<details>
					<summary>
						<Trans>Show the secret</Trans>
					</summary>
					<div className="form">
						<Field
							name="secret"
							label={t`Secret`}
							hint={t`Keep it like a password: whoever has it can sign events as this site.`}
							readOnly
							value={endpoint.secret}
							autoComplete="off"
							spellCheck={false}
						/>
					</div>
					<p className="hint" id="rotate-hint">
						<Trans>
							A new secret does not cut the receiver off: for a day, events carry a signature made
							with each secret.
						</Trans>
					</p>
					<Form method="post" className="webhook-actions">
						<button
							type="submit"
							name="intent"
							value="rotate"
							disabled={busy}
							aria-describedby="rotate-hint"
						>
							<Trans>Make a new secret</Trans>
						</button>
					</Form>
				</details>
				{endpoint.previousSecretUntil ? (
					<div className="webhook-previous-secret">
						<p>
							<Trans>
								The old secret also signs events until{' '}
								<LocalTime iso={endpoint.previousSecretUntil} time />. If it may have leaked, stop
								it now: a receiver that does not have the new secret yet will then refuse events.
							</Trans>
						</p>
						<Form method="post" className="webhook-actions">
							<button type="submit" name="intent" value="retire" disabled={busy}>
								<Trans>Stop the old secret now</Trans>
							</button>
						</Form>
					</div>
				) : null}
				<Form method="post" className="webhook-actions">
					<button type="submit" name="intent" value="test" disabled={busy}>
						<Trans>Send a test event</Trans>
					</button>
				</Form>
			</section>

			<h2>
				<Trans>Delivery log</Trans>
			</h2>
			<DeliveryLog deliveries={deliveries} busy={busy} />
			{paged || older ? (
				<nav aria-label={t`Pages`} className="pager">
					{paged ? (
						<Link to="?">
							<Trans>Newest</Trans>
						</Link>
					) : null}
					{older ? (
						<Link to={`?before=${older}`}>
							<Trans context="a list's page of older items">Older</Trans>
						</Link>
					) : null}
				</nav>
			) : null}

			<h2>
				<Trans>Settings</Trans>
			</h2>
			<Form
				method="post"
				className="form"
				key={endpoint.updatedAt}
				aria-label={t`Settings`}
				{...guard.form}
			>
				{/* The page's other buttons answer with a form-wide message, shown at its top. */}
				{errors.form ? null : (
					<ErrorSummary
						errors={errors}
						labels={{ url: t`Address`, description: t`Description`, events: t`Events` }}
						title={t`The endpoint was not saved`}
					/>
				)}
				<Field
					name="url"
					type="url"
					label={t`Address`}
					required
					maxLength={2_000}
					defaultValue={value('url', endpoint.url)}
					error={errors.url}
					autoComplete="off"
					spellCheck={false}
				/>
				<Field
					name="description"
					label={t`Description`}
					maxLength={200}
					defaultValue={value('description', endpoint.description)}
					error={errors.description}
				/>
				<EventChoices chosen={posted ?? endpoint.events} error={errors.events} />
				<div className="checkbox-row">
					<input type="checkbox" id="webhook-enabled" name="enabled" defaultChecked={enabled} />
					<label htmlFor="webhook-enabled">
						<Trans>On: send events to this endpoint</Trans>
					</label>
				</div>
				<button type="submit" name="intent" value="save" disabled={busy}>
					<Trans>Save the endpoint</Trans>
				</button>
			</Form>

			<DeleteConfirmation summary={t`Delete this endpoint…`} busy={busy}>
				<Trans>Events stop going to {url} at once, and its delivery log is deleted with it.</Trans>
			</DeleteConfirmation>
			{guard.dialog}
		</>
	)
}

function DeliveryLog({ deliveries, busy }: { deliveries: WebhookDelivery[]; busy: boolean }) {
	const { t, i18n } = useLingui()
	if (deliveries.length === 0)
		return (
			<p>
				<Trans>Nothing sent yet. Events appear here as they happen.</Trans>
			</p>
		)
	const label = { event: t`Event`, when: t`When`, result: t`Result`, time: t`Time` }
	return (
		<div className="webhook-log-scroll">
			<table className="webhook-log stacked-table">
				<thead>
					<tr>
						<th scope="col">{label.event}</th>
						<th scope="col">{label.when}</th>
						<th scope="col">{label.result}</th>
						<th scope="col">{label.time}</th>
					</tr>
				</thead>
				<tbody>
					{deliveries.map((delivery) => {
						const type = delivery.eventType
						const known = type === 'webhook.test' ? null : eventLabels[type]
						const status = delivery.lastStatus
						const attempts = delivery.attempts
						const ms = delivery.lastDurationMs
						return (
							<tr key={delivery.id}>
								<th scope="row">
									{known ? i18n._(known.name) : t`Test event`}
									<details className="webhook-payload">
										<summary>
											<code>{type}</code>
										</summary>
										<pre>{JSON.stringify(JSON.parse(delivery.payload), null, 2)}</pre>
										<p>
											<code>webhook-id: {delivery.messageId}</code>
										</p>
									</details>
								</th>
								<td data-label={label.when}>
									<LocalTime iso={delivery.createdAt} time />
								</td>
								<td data-label={label.result}>
									<span className={`webhook-result ${delivery.state}`}>
										{delivery.state === 'delivered'
											? t`Delivered`
											: delivery.state === 'failed'
												? t`Failed`
												: attempts === 0
													? t`Waiting`
													: t`Retrying`}
									</span>{' '}
									{status !== null ? <code>{status}</code> : null}
									{attempts > 1 ? (
										<span>
											{' '}
											· <Plural value={attempts} one="# attempt" other="# attempts" />
										</span>
									) : null}
									{delivery.state === 'pending' && attempts > 0 ? (
										<span className="webhook-next">
											{' '}
											· <Trans>next</Trans> <LocalTime iso={delivery.nextAttemptAt} time />
										</span>
									) : null}
									{delivery.lastError && delivery.state !== 'delivered' ? (
										<span className="webhook-error">{delivery.lastError}</span>
									) : null}
									{delivery.state === 'failed' ? (
										<Form method="post" className="webhook-resend">
											<input type="hidden" name="delivery" value={delivery.id} />
											<button type="submit" name="intent" value="resend" disabled={busy}>
												<Trans>Send again</Trans>
											</button>
										</Form>
									) : null}
								</td>
								<td data-label={label.time}>{ms === null ? '—' : t`${ms} ms`}</td>
							</tr>
						)
					})}
				</tbody>
			</table>
		</div>
	)
}
