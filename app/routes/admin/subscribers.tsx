import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import { Pager } from '#app/components/ui/pager.tsx'
import { useListLink } from '#app/components/ui/use-list-link.ts'
import { MailNotSetUp } from '#app/features/newsletter/mail-admin-notice.tsx'
import { SubscriberImportForm } from '#app/features/newsletter/subscriber-import-form.tsx'
import { SubscriberTable, statusLabel } from '#app/features/newsletter/subscriber-table.tsx'
import { subscribersAction } from '#app/features/newsletter/subscribers-admin.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import subscribersStyles from '#app/styles/subscribers.css?url'
import type { Route } from './+types/subscribers'

// The newsletter's subscribers (admins only): who they are, what they receive, deleting one for
// good, and importing a list the admin vouches for (docs/decisions/032-newsletter.md).

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: subscribersStyles }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Subscribers · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

const pageSize = 50
const statuses = ['pending', 'confirmed', 'unsubscribed', 'suspended'] as const

// Here rather than in subscribers.schema.ts: the page's browser build drops what only the loader
// uses, zod with it, and the component needs the statuses alone.
const listSchema = z.object({
	q: z.string().trim().max(254).catch(''),
	status: z.enum(statuses).optional().catch(undefined),
	page: z.coerce.number().int().min(1).max(10_000).catch(1),
})

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, smtpUrl } = context.get(servicesContext)
	const { q, status, page } = listSchema.parse(
		Object.fromEntries(new URL(request.url).searchParams),
	)
	const [list, counts, tags] = await Promise.all([
		storage.newsletter.list({
			search: q || undefined,
			status,
			limit: pageSize,
			offset: (page - 1) * pageSize,
		}),
		storage.newsletter.countsByStatus(),
		storage.tags.list(),
	])
	const tagNames = new Map(tags.map((tag) => [tag.id, tag.name]))
	return {
		subscribers: list.subscribers.map((subscriber) => ({
			id: subscriber.id,
			email: subscriber.email,
			status: subscriber.status,
			cadence: subscriber.cadence,
			source: subscriber.source,
			consentAt: subscriber.consentAt,
			tags: subscriber.tagIds.flatMap((id) => tagNames.get(id) ?? []),
		})),
		total: list.total,
		page,
		pages: Math.max(1, Math.ceil(list.total / pageSize)),
		query: q,
		status: status ?? null,
		counts,
		mailConfigured: Boolean(smtpUrl),
	}
}

export async function action({ context, request }: Route.ActionArgs) {
	const services = context.get(servicesContext)
	const posted = await readForm(request)
	return subscribersAction(services, posted, await requestI18n(request, context))
}

export default function Subscribers({ loaderData, actionData }: Route.ComponentProps) {
	const { subscribers, total, page, pages, query, status, counts, mailConfigured } = loaderData
	const busy = useNavigation().state === 'submitting'
	const link = useListLink([])
	const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {}
	const done = actionData && 'done' in actionData ? actionData.done : null
	const everyone = statuses.reduce((sum, key) => sum + counts[key], 0)
	const { t, i18n } = useLingui()
	const everyoneCount = i18n.number(everyone)
	/** The table's caption: how many, which status, matching what, newest first. */
	const caption = (() => {
		if (query) {
			switch (status) {
				case 'pending':
					return t`${plural(total, { one: '# subscriber pending', other: '# subscribers pending' })} matching “${query}”, newest first`
				case 'confirmed':
					return t`${plural(total, { one: '# subscriber confirmed', other: '# subscribers confirmed' })} matching “${query}”, newest first`
				case 'unsubscribed':
					return t`${plural(total, { one: '# subscriber unsubscribed', other: '# subscribers unsubscribed' })} matching “${query}”, newest first`
				case 'suspended':
					return t`${plural(total, { one: '# subscriber suspended', other: '# subscribers suspended' })} matching “${query}”, newest first`
				default:
					return t`${plural(total, { one: '# subscriber', other: '# subscribers' })} matching “${query}”, newest first`
			}
		}
		switch (status) {
			case 'pending':
				return t`${plural(total, { one: '# subscriber pending', other: '# subscribers pending' })}, newest first`
			case 'confirmed':
				return t`${plural(total, { one: '# subscriber confirmed', other: '# subscribers confirmed' })}, newest first`
			case 'unsubscribed':
				return t`${plural(total, { one: '# subscriber unsubscribed', other: '# subscribers unsubscribed' })}, newest first`
			case 'suspended':
				return t`${plural(total, { one: '# subscriber suspended', other: '# subscribers suspended' })}, newest first`
			default:
				return t`${plural(total, { one: '# subscriber', other: '# subscribers' })}, newest first`
		}
	})()
	return (
		<>
			<div className="list-head">
				<h1>
					<Trans>Subscribers</Trans>
				</h1>
				<a className="button secondary" href="/admin/subscribers/export" download>
					<Trans>Export CSV</Trans>
				</a>
			</div>
			<p className="hint subscribers-note">
				<Trans>
					Pending addresses have not confirmed yet and receive nothing. Suspended ones were refused
					by their mail server too often.
				</Trans>
			</p>
			{mailConfigured ? null : <MailNotSetUp />}
			{done ? (
				<p role="status" className="notice">
					{done}
				</p>
			) : null}
			{errors.form ? (
				<p role="alert" className="form-error">
					{errors.form.join(' ')}
				</p>
			) : null}
			<nav aria-label={t`Filter by status`} className="filters">
				<ul>
					<li>
						<Link
							to={link({ status: null, page: null })}
							aria-current={status ? undefined : 'page'}
						>
							{t`All (${everyoneCount})`}
						</Link>
					</li>
					{statuses.map((key) => {
						const label = i18n._(statusLabel[key])
						const count = i18n.number(counts[key])
						return (
							<li key={key}>
								<Link
									to={link({ status: key, page: null })}
									aria-current={status === key ? 'page' : undefined}
								>
									{t`${label} (${count})`}
								</Link>
							</li>
						)
					})}
				</ul>
			</nav>
			<Form method="get" role="search" className="search">
				{status ? <input type="hidden" name="status" value={status} /> : null}
				<label htmlFor="q">
					<Trans>Search addresses</Trans>
				</label>
				<div className="search-row">
					<input
						id="q"
						name="q"
						type="search"
						defaultValue={query}
						maxLength={254}
						autoCapitalize="off"
						spellCheck={false}
					/>
					<button type="submit">
						<Trans>Search</Trans>
					</button>
				</div>
			</Form>
			{everyone === 0 ? (
				<p>
					<Trans>
						No subscribers yet. Readers subscribe with the form at the foot of every page, or import
						a list below.
					</Trans>
				</p>
			) : subscribers.length === 0 ? (
				<p>
					<Trans>No subscriber matches. Try other words or another filter.</Trans>
				</p>
			) : (
				<SubscriberTable subscribers={subscribers} caption={caption} busy={busy} />
			)}
			<Pager page={page} pages={pages} link={link} />
			<SubscriberImportForm
				errors={errors}
				values={actionData && 'values' in actionData ? actionData.values : {}}
				imported={actionData && 'imported' in actionData ? actionData : null}
				busy={busy}
			/>
		</>
	)
}
