import { data, Form, useNavigation } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { redirectFormSchema } from '#app/features/redirects/redirect.schema.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
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
	const form = Object.fromEntries(await readForm(request))
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
