import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Form, Link } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { Pager } from '#app/components/ui/pager.tsx'
import { useListLink } from '#app/components/ui/use-list-link.ts'
import { doneMessage, type InboxItem, listInbox } from '#app/features/contact/inbox.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import inboxStyles from '#app/styles/admin-inbox.css?url'
import type { Route } from './+types/messages'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: inboxStyles }]

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const unread = loaderData?.unread ?? 0
	return [
		{
			title:
				unread > 0
					? i18n._(msg`(${unread}) Inbox · Editor · Canopy`)
					: i18n._(msg`Inbox · Editor · Canopy`),
		},
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const params = Object.fromEntries(new URL(request.url).searchParams)
	const list = await listInbox(storage, params)
	// Only fixed words from the server, never the query string itself, are shown as the notice.
	return { ...list, notice: doneMessage(params.done ?? null) }
}

const boxes = [
	{ value: 'inbox', label: msg`Inbox` },
	{ value: 'archived', label: msg`Archived` },
] as const

function Message({ item }: { item: InboxItem }) {
	return (
		<li className={item.unread ? 'inbox-item unread' : 'inbox-item'}>
			<p className="inbox-from">
				{item.unread ? (
					<span className="inbox-new">
						<Trans>
							New<span className="visually-hidden">, not read yet:</span>
						</Trans>
					</span>
				) : null}{' '}
				<strong>{item.name}</strong> <span className="inbox-email">{item.email}</span>
			</p>
			<p className="inbox-subject">
				<Link to={`/admin/messages/${item.id}`}>{item.subject || item.preview}</Link>
			</p>
			{item.subject ? <p className="inbox-preview">{item.preview}</p> : null}
			<p className="hint">
				<Trans>
					Received <LocalTime iso={item.createdAt} time />
				</Trans>
			</p>
		</li>
	)
}

export default function Messages({ loaderData }: Route.ComponentProps) {
	const { items, total, page, pages, query, box, unread, notice } = loaderData
	const link = useListLink(['done'])
	const { t, i18n } = useLingui()
	/** How many are listed, from which box, matching what. */
	const summary =
		box === 'archived'
			? query
				? t`${plural(total, { one: '# archived message', other: '# archived messages' })} matching “${query}”, newest first`
				: t`${plural(total, { one: '# archived message', other: '# archived messages' })}, newest first`
			: query
				? t`${plural(total, { one: '# message', other: '# messages' })} matching “${query}”, newest first`
				: t`${plural(total, { one: '# message', other: '# messages' })}, newest first`
	return (
		<>
			<div className="list-head">
				<h1>
					<Trans>Inbox</Trans>
				</h1>
				<p className="inbox-unread">
					{unread === 0
						? t`No unread messages`
						: t`${plural(unread, { one: '# unread', other: '# unread' })}`}
				</p>
			</div>
			{notice ? (
				<p role="status" className="notice">
					{notice}
				</p>
			) : null}
			<nav aria-label={t`Messages to show`} className="filters">
				<ul>
					{boxes.map((option) => (
						<li key={option.value}>
							<Link
								to={link({ box: option.value === 'inbox' ? null : option.value, page: null })}
								aria-current={box === option.value ? 'page' : undefined}
							>
								{i18n._(option.label)}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			<Form method="get" role="search" className="search">
				{box === 'archived' ? <input type="hidden" name="box" value="archived" /> : null}
				<label htmlFor="q">
					<Trans>Search by sender or text</Trans>
				</label>
				<div className="search-row">
					<input id="q" name="q" type="search" defaultValue={query} maxLength={100} />
					<button type="submit">
						<Trans>Search</Trans>
					</button>
				</div>
			</Form>
			{items.length === 0 ? (
				<p>
					{query
						? t`No message matches. Try other words, or look in the other box.`
						: box === 'archived'
							? t`No archived messages.`
							: t`Nothing in the inbox. What people send through the contact form arrives here; archived messages are under Archived.`}
				</p>
			) : (
				<>
					<p className="hint" id="inbox-summary">
						{summary}
					</p>
					<ul className="inbox-list" aria-labelledby="inbox-summary">
						{items.map((item) => (
							<Message key={item.id} item={item} />
						))}
					</ul>
				</>
			)}
			<Pager page={page} pages={pages} link={link} />
		</>
	)
}
