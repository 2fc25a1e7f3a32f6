import { data, Form, useNavigation } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { redirectFormSchema } from '#app/features/redirects/redirect.schema.ts'
import { parseRedirectsCsv } from '#app/features/redirects/redirects-csv.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Route } from './+types/redirects'

// Redirects (admins only): the ones renames recorded and the admins' own, e.g. an old site's
// addresses. Content always wins: a redirect is followed only where the site has nothing.

export function meta() {
	return [{ title: 'Redirects · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	return { redirects: await storage.redirects.list() }
}

export async function action({ context, request }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const posted = await readForm(request)
	if (posted.get('intent') === 'import') return importCsv(storage, posted.get('file'))
	const form = Object.fromEntries(posted)
	const parsed = redirectFormSchema.safeParse(form)
	if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values: form }, 400)
	const input = parsed.data
	if (input.intent === 'delete') {
		const deleted = await storage.redirects.delete(input.from)
		if (!deleted)
			return data({ errors: { form: ['This redirect was deleted already.'] } as FieldErrors }, 404)
		return { done: `${input.from} no longer redirects.` }
	}
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
						`${input.to} leads back to ${input.from}: that would send readers round in a circle.`,
					],
				} as FieldErrors,
				values: form,
			},
			400,
		)
	return { done: `${input.from} now goes to ${input.to}.` }
}

/** A CSV file of redirects: all of them added (or replaced), or none and why. */
async function importCsv(storage: Storage, file: FormDataEntryValue | null) {
	const refuse = (problems: string[]) =>
		data({ errors: { file: problems } as FieldErrors, values: {} }, 400)
	if (!(file instanceof File) || file.size === 0)
		return refuse(['Choose a CSV file to import, with the columns from,to,status.'])
	const parsed = parseRedirectsCsv(await file.text())
	if (!parsed.ok) return refuse(parsed.problems)
	const put = await storage.redirects.putMany(parsed.redirects)
	if (!put.ok)
		return refuse([
			`Nothing was imported: these would send readers round in a circle: ${put.loops.slice(0, 10).join(', ')}.`,
		])
	return {
		done: `${put.count.toLocaleString('en')} ${put.count === 1 ? 'redirect' : 'redirects'} imported.`,
	}
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
	const typed = (name: string) => (typeof values[name] === 'string' ? String(values[name]) : '')
	return (
		<>
			<h1>Redirects</h1>
			<p>
				When a published article or page gets a new address, its old one sends readers on (301). Add
				your own for addresses of an old site, or short links. An address the site has content at
				always shows that content.
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
			<Form method="post" className="form redirect-form">
				<h2>Add a redirect</h2>
				<Field
					name="from"
					label="From"
					hint="An address of this site, e.g. /blog/2019/heron-count."
					defaultValue={typed('from')}
					error={errors.from}
					required
					autoCapitalize="off"
					spellCheck={false}
				/>
				<Field
					name="to"
					label="To"
					hint="An address of this site (/articles/heron-count) or a whole https:// address."
					defaultValue={typed('to')}
					error={errors.to}
					required
					autoCapitalize="off"
					spellCheck={false}
				/>
				<fieldset>
					<legend>Kind</legend>
					<label>
						<input
							type="radio"
							name="status"
							value="301"
							defaultChecked={typed('status') !== '302'}
						/>{' '}
						Permanent (301): search engines move to the new address
					</label>
					<label>
						<input
							type="radio"
							name="status"
							value="302"
							defaultChecked={typed('status') === '302'}
						/>{' '}
						Temporary (302)
					</label>
					{errors.status ? <p className="field-error">{errors.status.join(' ')}</p> : null}
				</fieldset>
				<button type="submit" name="intent" value="add" disabled={busy}>
					Add the redirect
				</button>
			</Form>
			<Form method="post" encType="multipart/form-data" className="form redirect-form">
				<h2>Import or export</h2>
				<p className="hint">
					A CSV file with the columns <code>from,to,status</code>, e.g. from an old site; each line
					is checked as the form above checks one, and a file with a bad line imports nothing.{' '}
					<a href="/admin/redirects/export">Download every redirect as CSV</a>.
				</p>
				<div className="field">
					<label htmlFor="redirects-file">CSV file (up to 1 MB)</label>
					<input id="redirects-file" type="file" name="file" accept=".csv,text/csv" required />
					{errors.file ? (
						<ul className="field-error" role="alert">
							{errors.file.map((problem) => (
								<li key={problem}>{problem}</li>
							))}
						</ul>
					) : null}
				</div>
				<button type="submit" name="intent" value="import" disabled={busy}>
					Import
				</button>
			</Form>
			<h2>
				{redirects.length === 0
					? 'No redirects yet'
					: `${redirects.length} ${redirects.length === 1 ? 'redirect' : 'redirects'}`}
			</h2>
			{redirects.length > 0 ? (
				<ul className="redirect-list">
					{redirects.map((moved) => (
						<li key={moved.from}>
							<code>{moved.from}</code> → <code>{moved.to}</code>{' '}
							<span className="hint">
								{moved.status === 301 ? 'permanent' : 'temporary'},{' '}
								{moved.automatic ? 'recorded by a rename' : 'added by an admin'}
							</span>
							<Form method="post" className="inline-form">
								<input type="hidden" name="from" value={moved.from} />
								<button
									type="submit"
									name="intent"
									value="delete"
									className="secondary"
									disabled={busy}
									aria-label={`Delete the redirect from ${moved.from}`}
								>
									Delete
								</button>
							</Form>
						</li>
					))}
				</ul>
			) : null}
		</>
	)
}
