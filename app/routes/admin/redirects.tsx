import type { I18n } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { data, Form, useNavigation } from 'react-router'
import { Field, schemaMessage } from '#app/components/ui/field.tsx'
import { useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { type ContentAt, contentAt } from '#app/features/redirects/content-at.server.ts'
import { redirectFormSchema } from '#app/features/redirects/redirect.schema.ts'
import { parseRedirectsCsv } from '#app/features/redirects/redirects-csv.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Route } from './+types/redirects'

// Redirects (admins only): the ones renames recorded and the admins' own, e.g. an old site's
// addresses. Content always wins: a redirect is followed only where the site has nothing.

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Redirects · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	return { redirects: await storage.redirects.list() }
}

export async function action({ context, request }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const posted = await readForm(request)
	const i18n = await requestI18n(request, context)
	if (posted.get('intent') === 'import') return importCsv(storage, i18n, posted.get('file'))
	const form = Object.fromEntries(posted)
	const parsed = redirectFormSchema.safeParse(form)
	if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values: form }, 400)
	const input = parsed.data
	const { from } = input
	if (input.intent === 'delete') {
		const gone = await storage.redirects.find(input.from)
		const deleted = gone && (await storage.redirects.delete(input.from))
		if (!gone || !deleted)
			return data(
				{ errors: { form: [i18n._(msg`This redirect was deleted already.`)] } as FieldErrors },
				404,
			)
		// Deleted at once, as a menu link is removed; the notice can put it back, to the same
		// address and of the same kind (301 or 302), as an admin's (a rename's own is not told
		// apart once deleted).
		return {
			done: i18n._(msg`${from} no longer redirects.`),
			undo: { from: gone.from, to: gone.to, status: String(gone.status) },
		}
	}
	const { to } = input
	const shown = await contentAt(storage, from)
	if (shown)
		return data(
			{ errors: { from: [neverFollowed(i18n, from, shown)] } as FieldErrors, values: form },
			400,
		)
	const put = await storage.redirects.put({
		from: input.from,
		to: input.to,
		status: input.status === '302' ? 302 : 301,
	})
	if (!put.ok)
		return data(
			{
				errors: {
					to: [
						i18n._(msg`${to} leads back to ${from}: that would send readers round in a circle.`),
					],
				} as FieldErrors,
				values: form,
			},
			400,
		)
	// Kept either way (a page may be published there next), but said: readers sent to an address
	// with nothing at it get "Not found".
	if (await leadsNowhere(storage, to))
		return {
			done: i18n._(
				msg`${from} now goes to ${to}. Nothing is published at ${to} yet: readers sent there find “Page not found” until something is.`,
			),
		}
	return { done: i18n._(msg`${from} now goes to ${to}.`) }
}

/** Whether a redirect's target is an address of this site with nothing at it, nor a redirect. */
async function leadsNowhere(storage: Storage, to: string): Promise<boolean> {
	if (!to.startsWith('/')) return false
	const path = to.replace(/[?#].*$/, '') || '/'
	if (path === '/') return false
	return !(await contentAt(storage, path)) && !(await storage.redirects.find(path))
}

/** A CSV file of redirects: all of them added (or replaced), or none and why. */
async function importCsv(storage: Storage, i18n: I18n, file: FormDataEntryValue | null) {
	const refuse = (problems: string[]) =>
		data({ errors: { file: problems } as FieldErrors, values: {} }, 400)
	if (!(file instanceof File) || file.size === 0) {
		const columns = 'from,to,status'
		return refuse([i18n._(msg`Choose a CSV file to import, with the columns ${columns}.`)])
	}
	const parsed = parseRedirectsCsv(await file.text())
	if (!parsed.ok) return refuse(parsed.problems)
	const shown: string[] = []
	for (const { from } of parsed.redirects) {
		if (shown.length < 10 && (await contentAt(storage, from))) shown.push(from)
	}
	if (shown.length > 0) {
		const addresses = shown.join(', ')
		return refuse([
			i18n._(
				msg`Nothing was imported: the site shows something of its own at these addresses, so their redirects would never be followed: ${addresses}.`,
			),
		])
	}
	const put = await storage.redirects.putMany(parsed.redirects)
	if (!put.ok) {
		const loops = put.loops.slice(0, 10).join(', ')
		return refuse([
			i18n._(msg`Nothing was imported: these would send readers round in a circle: ${loops}.`),
		])
	}
	const count = put.count
	return {
		done: i18n._(
			msg`${plural(count, { one: '# redirect imported.', other: '# redirects imported.' })}`,
		),
	}
}

/**
 * Why a redirect from `from` is refused: content always wins, so it would never be followed (and
 * renames' redirects to that address would be sent on past the content).
 */
function neverFollowed(i18n: I18n, from: string, shown: ContentAt): string {
	if (shown.kind === 'site')
		return i18n._(
			msg`${from} is one of the site’s own addresses: a redirect from it would never be followed.`,
		)
	const { name } = shown
	if (shown.kind === 'article')
		return i18n._(
			msg`${from} shows the article “${name}”, so readers get the article, not a redirect. Give the article another address (or unpublish it) first.`,
		)
	if (shown.kind === 'page')
		return i18n._(
			msg`${from} shows the page “${name}”, so readers get the page, not a redirect. Give the page another address (or unpublish it) first.`,
		)
	if (shown.kind === 'tag')
		return i18n._(
			msg`${from} is the page of the tag “${name}”, so readers get it, not a redirect. Rename or merge the tag first.`,
		)
	return i18n._(
		msg`${from} is the page of the author “${name}”, so readers get it, not a redirect. Give the author another address first.`,
	)
}

/**
 * How a redirect came about and what kind it is: "permanent, recorded when the address changed"
 * (an article's or a page's new address, a tag or a profile renamed or merged).
 */
function redirectFacts(i18n: I18n, status: number, automatic: boolean): string {
	if (status === 301)
		return automatic
			? i18n._(msg`permanent, recorded when the address changed`)
			: i18n._(msg`permanent, added by an admin`)
	return automatic
		? i18n._(msg`temporary, recorded when the address changed`)
		: i18n._(msg`temporary, added by an admin`)
}

export default function Redirects({ loaderData, actionData }: Route.ComponentProps) {
	const { redirects } = loaderData
	const busy = useNavigation().state === 'submitting'
	const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {}
	const values = (actionData && 'values' in actionData ? actionData.values : {}) as Record<
		string,
		unknown
	>
	const done = actionData && 'done' in actionData ? actionData.done : null
	const undo = actionData && 'undo' in actionData ? actionData.undo : null
	// The add form's own refusals (an import's or a delete's say nothing of what it holds).
	const guard = useFormLeaveGuard(
		values.intent === 'add' && Object.keys(errors).length > 0 ? actionData : undefined,
	)
	const typed = (name: string) => (typeof values[name] === 'string' ? String(values[name]) : '')
	const { t, i18n } = useLingui()
	// Code, not words: outside the message's text.
	const columns = 'from,to,status'
	const redirectCount = redirects.length
	return (
		<>
			<h1>
				<Trans>Redirects</Trans>
			</h1>
			<p>
				<Trans>
					When a published article or page gets a new address, its old one sends readers on (301).
					Add your own for addresses of an old site, or short links. An address the site has content
					at always shows that content.
				</Trans>
			</p>
			{done && !undo ? (
				<p role="status" className="notice">
					{done}
				</p>
			) : null}
			{errors.form ? (
				<p role="alert" className="form-error">
					{errors.form.map((text) => schemaMessage(i18n, text)).join(' ')}
				</p>
			) : null}
			{/* Emptied once a redirect is added (a new key), kept as typed when it is refused. */}
			<Form
				method="post"
				className="form redirect-form"
				key={done && !undo ? done : 'add'}
				{...guard.form}
			>
				<h2>
					<Trans>Add a redirect</Trans>
				</h2>
				<Field
					name="from"
					label={t`From`}
					hint={t`An address of this site, e.g. /blog/2019/heron-count.`}
					defaultValue={typed('from')}
					error={errors.from}
					required
					autoCapitalize="off"
					spellCheck={false}
				/>
				<Field
					name="to"
					label={t`To`}
					hint={t`An address of this site (/articles/heron-count) or a whole https:// address.`}
					defaultValue={typed('to')}
					error={errors.to}
					required
					autoCapitalize="off"
					spellCheck={false}
				/>
				<fieldset className="radio-group">
					<legend>
						<Trans>Kind</Trans>
					</legend>
					<div className="checkbox-row">
						<input
							type="radio"
							id="redirect-permanent"
							name="status"
							value="301"
							defaultChecked={typed('status') !== '302'}
						/>
						<label htmlFor="redirect-permanent">
							<Trans>Permanent (301): search engines move to the new address</Trans>
						</label>
					</div>
					<div className="checkbox-row">
						<input
							type="radio"
							id="redirect-temporary"
							name="status"
							value="302"
							defaultChecked={typed('status') === '302'}
						/>
						<label htmlFor="redirect-temporary">
							<Trans>Temporary (302)</Trans>
						</label>
					</div>
					{errors.status ? (
						<p className="field-error">
							{errors.status.map((text) => schemaMessage(i18n, text)).join(' ')}
						</p>
					) : null}
				</fieldset>
				<button type="submit" name="intent" value="add" disabled={busy}>
					<Trans>Add the redirect</Trans>
				</button>
			</Form>
			<Form method="post" encType="multipart/form-data" className="form redirect-form">
				<h2>
					<Trans>Import or export</Trans>
				</h2>
				<p className="hint">
					<Trans>
						A CSV file with the columns <code>{columns}</code>, e.g. from an old site; each line is
						checked as the form above checks one, and a file with a bad line imports nothing.{' '}
						<a href="/admin/redirects/export">Download every redirect as CSV</a>.
					</Trans>
				</p>
				<div className="field">
					<label htmlFor="redirects-file">
						<Trans>CSV file (up to 1 MB)</Trans>
					</label>
					<input id="redirects-file" type="file" name="file" accept=".csv,text/csv" required />
					{errors.file ? (
						<ul className="field-error" role="alert">
							{errors.file.map((problem) => (
								<li key={problem}>{schemaMessage(i18n, problem)}</li>
							))}
						</ul>
					) : null}
				</div>
				<button type="submit" name="intent" value="import" disabled={busy}>
					<Trans>Import</Trans>
				</button>
			</Form>
			{/* Where the row was: the reader is down here, by the list, not at the page's top. */}
			{done && undo ? (
				<div role="status" className="notice notice-with-action">
					<p>{done}</p>
					<Form method="post">
						<input type="hidden" name="intent" value="add" />
						{Object.entries(undo).map(([name, value]) => (
							<input key={name} type="hidden" name={name} value={value} />
						))}
						<button type="submit" className="notice-action" disabled={busy}>
							<Trans>Undo</Trans>
						</button>
					</Form>
				</div>
			) : null}
			<h2>
				{redirects.length === 0 ? (
					<Trans>No redirects yet</Trans>
				) : (
					<Plural value={redirectCount} one="# redirect" other="# redirects" />
				)}
			</h2>
			{redirects.length > 0 ? (
				<ul className="redirect-list">
					{redirects.map((moved) => {
						const from = moved.from
						return (
							<li key={moved.from}>
								<code>{moved.from}</code> → <code>{moved.to}</code>{' '}
								<span className="hint">{redirectFacts(i18n, moved.status, moved.automatic)}</span>
								<Form method="post" className="inline-form">
									<input type="hidden" name="from" value={moved.from} />
									<button
										type="submit"
										name="intent"
										value="delete"
										className="secondary"
										disabled={busy}
										aria-label={t`Delete the redirect from ${from}`}
									>
										<Trans>Delete</Trans>
									</button>
								</Form>
							</li>
						)
					})}
				</ul>
			) : null}
			{guard.dialog}
		</>
	)
}
