import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, redirect, useNavigation, useRouteError } from 'react-router'
import { DatabaseUnavailable, isDatabaseOutage } from '#app/components/ui/database-unavailable.tsx'
import { DeleteConfirmation } from '#app/components/ui/delete-confirmation.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import {
	applyInboxAction,
	type InboxBox,
	openMessage,
	parseMessageId,
} from '#app/features/contact/inbox.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import inboxStyles from '#app/styles/admin-inbox.css?url'
import type { Route } from './+types/message'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: inboxStyles }]

const missing = 'There is no message here; it may have been deleted.'

function messageId(raw: string): number {
	const id = parseMessageId(raw)
	if (id === null) throw data(missing, 404)
	return id
}

function listOf(box: InboxBox, done?: string): string {
	const query = new URLSearchParams()
	if (box === 'archived') query.set('box', box)
	if (done) query.set('done', done)
	const search = query.toString()
	return `/admin/messages${search ? `?${search}` : ''}`
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const subject = loaderData?.message.subject
	return [
		{
			title: subject
				? i18n._(msg`${subject} · Inbox · Editor · Canopy`)
				: i18n._(msg`Message · Inbox · Editor · Canopy`),
		},
		{ name: 'robots', content: 'noindex' },
	]
}

/**
 * Opening a message marks it read before any loader runs, so the navigation's unread count (the
 * layout's loader, which runs beside this page's) already counts it, with or without JavaScript.
 */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request, params, context }, next) => {
		const id = request.method === 'GET' ? parseMessageId(params.id) : null
		if (id !== null) await context.get(servicesContext).storage.messages.setRead(id, true)
		return next()
	},
]

export async function loader({ params, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	// Opening a message marks it read for the whole team.
	const message = await openMessage(storage, messageId(params.id))
	if (!message) throw data(missing, 404)
	return { message }
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const form = Object.fromEntries(await readForm(request))
	const result = await applyInboxAction(storage, messageId(params.id), form)
	if (!result.ok) {
		if (result.status === 404) throw data(result.message, 404)
		return data({ error: result.message }, 400)
	}
	// Marking unread leaves the page: staying would show it, and so read it, again.
	if (result.intent === 'unread' || result.intent === 'delete')
		return redirect(listOf(result.box, result.intent))
	if (result.intent === 'archive' || result.intent === 'unarchive')
		return redirect(listOf('inbox', result.intent))
	return { error: null }
}

export default function MessagePage({ loaderData, actionData }: Route.ComponentProps) {
	const { message } = loaderData
	const busy = useNavigation().state === 'submitting'
	const archived = message.archivedAt !== null
	const { t } = useLingui()
	const name = message.name
	return (
		<article className="message" aria-labelledby="message-heading">
			<p className="breadcrumb">
				<Link to={listOf(archived ? 'archived' : 'inbox')}>
					{archived ? t`Back to archived messages` : t`Back to the inbox`}
				</Link>
			</p>
			<h1 id="message-heading">{message.subject || t`Message from ${name}`}</h1>
			{actionData?.error ? (
				<p role="alert" className="form-error">
					{actionData.error}
				</p>
			) : null}
			<dl className="message-meta">
				<dt>
					<Trans>From</Trans>
				</dt>
				<dd>
					{message.name} <span className="inbox-email">{message.email}</span>
				</dd>
				<dt>
					<Trans>Received</Trans>
				</dt>
				<dd>
					<LocalTime iso={message.createdAt} time />
				</dd>
				{message.archivedAt ? (
					<>
						<dt>
							<Trans>Archived</Trans>
						</dt>
						<dd>
							<LocalTime iso={message.archivedAt} time />
						</dd>
					</>
				) : null}
			</dl>
			{/* Text as the sender typed it: React escapes it, so markup in it shows as markup. */}
			<p className="message-text">{message.message}</p>
			<div className="message-actions">
				{message.replyHref ? (
					<a className="button" href={message.replyHref}>
						<Trans>Reply by email</Trans>
					</a>
				) : (
					<p className="hint">
						<Trans>
							This address cannot be answered from a link; copy it into your mail program.
						</Trans>
					</p>
				)}
				<Form method="post">
					<button type="submit" name="intent" value="unread" disabled={busy}>
						<Trans>Mark as unread</Trans>
					</button>
				</Form>
				<Form method="post">
					<button
						type="submit"
						name="intent"
						value={archived ? 'unarchive' : 'archive'}
						disabled={busy}
					>
						{archived ? t`Move back to the inbox` : t`Archive`}
					</button>
				</Form>
			</div>
			<section className="danger" aria-labelledby="delete-heading">
				<h2 id="delete-heading">
					<Trans>Delete</Trans>
				</h2>
				<DeleteConfirmation summary={t`Delete this message…`} busy={busy}>
					<Trans>
						The message from {name} will be deleted for good, for everyone on the team. This cannot
						be undone.
					</Trans>
				</DeleteConfirmation>
			</section>
		</article>
	)
}

export function ErrorBoundary() {
	if (isDatabaseOutage(useRouteError())) return <DatabaseUnavailable />
	return (
		<>
			<h1>
				<Trans>Message not found</Trans>
			</h1>
			<p>
				<Trans>
					It may have been deleted. <Link to="/admin/messages">Go to the inbox</Link>.
				</Trans>
			</p>
		</>
	)
}
