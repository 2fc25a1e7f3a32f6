import { useEffect, useRef } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { Pager } from '#app/components/ui/pager.tsx'
import { useListLink } from '#app/components/ui/use-list-link.ts'
import { sendConfirmations } from '#app/features/newsletter/subscribe.server.ts'
import {
	maxImportBytes,
	parseSubscribersCsv,
} from '#app/features/newsletter/subscribers-csv.server.ts'
import { type AppServices, servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import subscribersStyles from '#app/styles/subscribers.css?url'
import type { Cadence, SubscriberSource, SubscriberStatus } from '#storage/port/newsletter.ts'
import type { Route } from './+types/subscribers'

// The newsletter's subscribers (admins only): who they are, what they receive, deleting one for
// good, and importing a list the admin vouches for (docs/decisions/032-newsletter.md).

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: subscribersStyles }]

export function meta() {
	return [{ title: 'Subscribers · Canopy' }, { name: 'robots', content: 'noindex' }]
}

const pageSize = 50
const statuses = ['pending', 'confirmed', 'unsubscribed', 'suspended'] as const
const statusLabel: Record<SubscriberStatus, string> = {
	pending: 'Pending',
	confirmed: 'Confirmed',
	unsubscribed: 'Unsubscribed',
	suspended: 'Suspended',
}
const cadenceLabel: Record<Cadence, string> = { each: 'Every article', digest: 'Weekly digest' }
const sourceLabel: Record<SubscriberSource, string> = {
	form: 'Subscribe form',
	import: 'Import',
	staff: 'Added by staff',
}

const listSchema = z.object({
	q: z.string().trim().max(254).catch(''),
	status: z.enum(statuses).optional().catch(undefined),
	page: z.coerce.number().int().min(1).max(10_000).catch(1),
})

const deleteSchema = z.object({
	id: z.coerce
		.number()
		.int()
		.positive()
		.max(2 ** 31),
})

const importSchema = z.object({
	consent: z.literal('on', {
		error: 'Tick this box: only import people who agreed to receive this newsletter.',
	}),
	confirmed: z.literal('on').optional().catch(undefined),
})

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
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
	}
}

const problem = (errors: FieldErrors, status: number, values: Record<string, string> = {}) =>
	data({ errors, values }, status)

export async function action({ context, request }: Route.ActionArgs) {
	const services = context.get(servicesContext)
	const posted = await readForm(request)
	const intent = posted.get('intent')
	if (intent === 'import') return importList(services, posted)
	if (intent !== 'delete')
		return problem({ form: ['Choose to delete a subscriber or to import a list.'] }, 400)
	const parsed = deleteSchema.safeParse({ id: posted.get('id') })
	if (!parsed.success)
		return problem({ form: ['There is no such subscriber. Reload the page and try again.'] }, 400)
	if (!(await services.storage.newsletter.remove(parsed.data.id, new Date())))
		return problem({ form: ['This subscriber was deleted already.'] }, 404)
	return {
		done: 'Deleted: every trace of the address is gone; its mails stay counted anonymously.',
	}
}

const textFile = /\.(csv|txt)$/i
const textTypes = new Set([
	'',
	'text/csv',
	'text/plain',
	'application/csv',
	'application/vnd.ms-excel',
])

/** A list of addresses: all of them added (those already known left as they are), or none. */
async function importList(services: AppServices, posted: FormData) {
	const values = {
		consent: String(posted.get('consent') ?? ''),
		confirmed: String(posted.get('confirmed') ?? ''),
	}
	const parsed = importSchema.safeParse(values)
	const errors: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error)
	const file = posted.get('file')
	if (!(file instanceof File) || file.size === 0)
		errors.file = ['Choose a CSV file of addresses to import.']
	else if (!textFile.test(file.name) && !textTypes.has(file.type))
		errors.file = ['Choose a CSV file (.csv or .txt). Save a spreadsheet as CSV first.']
	else if (file.size > maxImportBytes)
		errors.file = ['The file is larger than 5 MB; split it and import each part.']
	if (!parsed.success || errors.file || !(file instanceof File)) return problem(errors, 400, values)
	const list = parseSubscribersCsv(await file.text())
	if (!list.ok) return problem({ file: list.problems }, 400, values)
	const confirmed = parsed.data.confirmed === 'on'
	const now = new Date()
	const result = await services.storage.newsletter.importMany(
		list.emails.map((email) => ({ email, confirmed })),
		now,
		now,
	)
	await sendConfirmations(services, result.toConfirm)
	const queued = result.toConfirm.length
	const count = (n: number) => n.toLocaleString('en')
	return {
		imported: true,
		done:
			`${count(result.added)} added (${count(result.existing)} already subscribed); ` +
			`${count(queued)} confirmation ${queued === 1 ? 'mail' : 'mails'} queued.` +
			(queued > 0 && !services.smtpUrl
				? ' Mail is not set up yet (SMTP_URL): they go out once it is.'
				: ''),
	}
}

type Loaded = Route.ComponentProps['loaderData']

export default function Subscribers({ loaderData, actionData }: Route.ComponentProps) {
	const { subscribers, total, page, pages, query, status, counts } = loaderData
	const busy = useNavigation().state === 'submitting'
	const link = useListLink([])
	const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {}
	const done = actionData && 'done' in actionData ? actionData.done : null
	const everyone = statuses.reduce((sum, key) => sum + counts[key], 0)
	return (
		<>
			<div className="list-head">
				<h1>Subscribers</h1>
				<a className="button secondary" href="/admin/subscribers/export" download>
					Export CSV
				</a>
			</div>
			<p className="hint subscribers-note">
				Pending addresses have not confirmed yet and receive nothing. Suspended ones were refused by
				their mail server too often.
			</p>
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
			<nav aria-label="Filter by status" className="filters">
				<ul>
					<li>
						<Link
							to={link({ status: null, page: null })}
							aria-current={status ? undefined : 'page'}
						>
							All ({everyone.toLocaleString('en')})
						</Link>
					</li>
					{statuses.map((key) => (
						<li key={key}>
							<Link
								to={link({ status: key, page: null })}
								aria-current={status === key ? 'page' : undefined}
							>
								{statusLabel[key]} ({counts[key].toLocaleString('en')})
							</Link>
						</li>
					))}
				</ul>
			</nav>
			<Form method="get" role="search" className="search">
				{status ? <input type="hidden" name="status" value={status} /> : null}
				<label htmlFor="q">Search addresses</label>
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
					<button type="submit">Search</button>
				</div>
			</Form>
			{everyone === 0 ? (
				<p>
					No subscribers yet. Readers subscribe with the form at the foot of every page, or import a
					list below.
				</p>
			) : subscribers.length === 0 ? (
				<p>No subscriber matches. Try other words or another filter.</p>
			) : (
				<SubscriberTable
					subscribers={subscribers}
					caption={`${total.toLocaleString('en')} ${total === 1 ? 'subscriber' : 'subscribers'}${
						status ? ` ${statusLabel[status].toLowerCase()}` : ''
					}${query ? ` matching “${query}”` : ''}, newest first`}
					busy={busy}
				/>
			)}
			<Pager page={page} pages={pages} link={link} />
			<ImportForm
				errors={errors}
				values={actionData && 'values' in actionData ? actionData.values : {}}
				imported={actionData && 'imported' in actionData ? actionData : null}
				busy={busy}
			/>
		</>
	)
}

function SubscriberTable({
	subscribers,
	caption,
	busy,
}: {
	subscribers: Loaded['subscribers']
	caption: string
	busy: boolean
}) {
	return (
		<div className="table-wrap">
			<table className="article-table stacked-table subscriber-table">
				<caption>{caption}</caption>
				<thead>
					<tr>
						<th scope="col">Address</th>
						<th scope="col">Status</th>
						<th scope="col">Receives</th>
						<th scope="col">Tags followed</th>
						<th scope="col">Source</th>
						<th scope="col">Consent given</th>
						<th scope="col">
							<span className="visually-hidden">Delete</span>
						</th>
					</tr>
				</thead>
				<tbody>
					{subscribers.map((subscriber) => (
						<tr key={subscriber.id}>
							<th scope="row">{subscriber.email}</th>
							<td data-label="Status">{statusLabel[subscriber.status]}</td>
							<td data-label="Receives">{cadenceLabel[subscriber.cadence]}</td>
							<td data-label="Tags followed">
								{subscriber.tags.length > 0 ? subscriber.tags.join(', ') : 'All'}
							</td>
							<td data-label="Source">{sourceLabel[subscriber.source]}</td>
							<td data-label="Consent given">
								{subscriber.consentAt ? <LocalTime iso={subscriber.consentAt} /> : 'Not yet'}
							</td>
							<td>
								<Form
									method="post"
									onSubmit={(event) => {
										if (!window.confirm(`Delete ${subscriber.email} and every trace of it?`))
											event.preventDefault()
									}}
								>
									<input type="hidden" name="id" value={subscriber.id} />
									<button
										type="submit"
										name="intent"
										value="delete"
										disabled={busy}
										aria-label={`Delete ${subscriber.email}`}
									>
										Delete
									</button>
								</Form>
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}

function ImportForm({
	errors,
	values,
	imported,
	busy,
}: {
	errors: FieldErrors
	/** The boxes as they were sent, for a page answered without JavaScript. */
	values: Record<string, string>
	/** The answer to an import that went in. */
	imported: object | null
	busy: boolean
}) {
	const form = useRef<HTMLFormElement>(null)
	// A list that went in is cleared, so a second press cannot import it again.
	useEffect(() => {
		if (imported) form.current?.reset()
	}, [imported])
	return (
		<Form ref={form} method="post" encType="multipart/form-data" className="form subscriber-import">
			<h2>Import a list</h2>
			<p className="hint" id="subscribers-file-hint">
				A CSV file with an <code>email</code> column (other columns are ignored), or one address per
				line. Addresses already here are left as they are; a file with a bad line imports nothing.
			</p>
			<label htmlFor="subscribers-file">CSV file (up to 5 MB, 100,000 addresses)</label>
			<input
				id="subscribers-file"
				type="file"
				name="file"
				accept=".csv,.txt,text/csv,text/plain"
				required
				aria-invalid={errors.file ? true : undefined}
				aria-describedby={`subscribers-file-hint${errors.file ? ' subscribers-file-error' : ''}`}
			/>
			{errors.file ? (
				<ul id="subscribers-file-error" className="field-error" role="alert">
					{errors.file.map((line) => (
						<li key={line}>{line}</li>
					))}
				</ul>
			) : null}
			<div className="checkbox-row">
				<input
					type="checkbox"
					id="consent"
					name="consent"
					required
					defaultChecked={values.consent === 'on'}
					aria-invalid={errors.consent ? true : undefined}
					aria-describedby={errors.consent ? 'consent-error' : undefined}
				/>
				<label htmlFor="consent">
					These people agreed to receive this newsletter (you may be asked to show how)
				</label>
			</div>
			{errors.consent ? (
				<p id="consent-error" className="field-error" role="alert">
					{errors.consent.join(' ')}
				</p>
			) : null}
			<div className="checkbox-row">
				<input
					type="checkbox"
					id="confirmed"
					name="confirmed"
					defaultChecked={values.confirmed === 'on'}
					aria-describedby="confirmed-hint"
				/>
				<label htmlFor="confirmed">
					They already confirmed their address with us elsewhere: do not send them a confirmation
					mail
				</label>
			</div>
			<p id="confirmed-hint" className="hint">
				Unticked, the new addresses stay pending and each is sent a mail asking to confirm; only
				those who confirm receive the newsletter.
			</p>
			<button type="submit" name="intent" value="import" disabled={busy}>
				Import
			</button>
		</Form>
	)
}
