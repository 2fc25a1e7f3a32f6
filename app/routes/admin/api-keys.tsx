import { data, Form, Link, useNavigation } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { apiKeyFormSchema } from '#app/features/api-keys/api-key.schema.ts'
import { createApiKey, listApiKeys, revokeApiKey } from '#app/features/api-keys/api-keys.server.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import stylesheet from '#app/styles/admin-api-keys.css?url'
import type { Route } from './+types/api-keys'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta() {
	return [{ title: 'API keys · Canopy' }, { name: 'robots', content: 'noindex' }]
}

// A new key is in the page once: no cache may keep a copy of it.
export function headers() {
	return { 'Cache-Control': 'no-store' }
}

export async function loader({ context, request }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const keys = await listApiKeys(storage)
	// ?revoke=<id> asks to confirm a revocation: a second step that needs no JavaScript.
	const revokeId = Number(new URL(request.url).searchParams.get('revoke'))
	const confirm = keys.find((key) => key.id === revokeId && !key.revokedAt) ?? null
	return { keys, confirm }
}

export async function action({ context, request }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const parsed = apiKeyFormSchema.safeParse(Object.fromEntries(await readForm(request)))
	if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, 400)
	if (parsed.data.intent === 'create') {
		const { key, record } = await createApiKey(storage, {
			name: parsed.data.name,
			createdBy: context.get(editorContext).id,
		})
		return { created: { key, name: record.name } }
	}
	const { id } = parsed.data
	const key = (await listApiKeys(storage)).find((record) => record.id === id)
	if (!key || !(await revokeApiKey(storage, key.id))) {
		const errors: FieldErrors = { form: ['This key was revoked already, or no longer exists.'] }
		return data({ errors }, 404)
	}
	return { revoked: key.name }
}

const dateTime = new Intl.DateTimeFormat('en', {
	dateStyle: 'medium',
	timeStyle: 'short',
	timeZone: 'UTC',
})
const when = (iso: string | null) => (iso ? `${dateTime.format(new Date(iso))} UTC` : 'Never')

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
	const { keys, confirm } = loaderData
	const busy = useNavigation().state === 'submitting'
	const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {}
	const created = actionData && 'created' in actionData ? actionData.created : null
	const revoked = actionData && 'revoked' in actionData ? actionData.revoked : null
	return (
		<>
			<h1>API keys</h1>
			<p>
				Scripts and services use a key to read and write articles through the admin API at{' '}
				<code>/api/admin/articles</code>, sending it as <code>Authorization: Bearer …</code>. A key
				acts for the admin who made it, and stops working when it is revoked or that account is
				deactivated.
			</p>
			{errors.form ? (
				<p role="alert" className="form-error">
					{errors.form.join(' ')}
				</p>
			) : null}
			{revoked ? (
				<p role="status" className="notice">
					{`The key “${revoked}” is revoked. Anything still using it is refused from now on.`}
				</p>
			) : null}
			{created ? <NewKey created={created} /> : null}
			{confirm ? <RevokeConfirmation confirm={confirm} busy={busy} /> : null}

			<h2>Create a key</h2>
			<Form method="post" action="/admin/api-keys" className="form">
				<input type="hidden" name="intent" value="create" />
				<Field
					name="name"
					label="Name"
					hint="What will use it, e.g. “Newsletter import”."
					required
					maxLength={80}
					error={errors.name}
				/>
				<button type="submit" disabled={busy}>
					{busy ? 'Creating…' : 'Create key'}
				</button>
			</Form>

			<h2>Keys</h2>
			<KeyTable keys={keys} />
		</>
	)
}

type Loaded = Route.ComponentProps['loaderData']

/** A key just made: shown this once. */
function NewKey({ created }: { created: { name: string; key: string } }) {
	return (
		<section className="new-key notice" aria-labelledby="new-key-heading">
			<h2 id="new-key-heading">{`Your new key “${created.name}”`}</h2>
			<p role="status">
				<strong>Copy it now: it is shown only this once.</strong> Canopy keeps only a fingerprint of
				it, so it cannot be shown again; if it is lost, create a new one and revoke this one.
			</p>
			<div className="form">
				<Field
					name="newKey"
					label="API key"
					hint="Select it all and copy it into your script’s secret settings. Treat it like a password."
					readOnly
					value={created.key}
					autoComplete="off"
					spellCheck={false}
				/>
			</div>
		</section>
	)
}

function RevokeConfirmation({
	confirm,
	busy,
}: {
	confirm: NonNullable<Loaded['confirm']>
	busy: boolean
}) {
	return (
		<section className="notice" aria-labelledby="confirm-heading">
			<h2 id="confirm-heading">{`Revoke the key “${confirm.name}”?`}</h2>
			<p>Anything using it is refused at once. This cannot be undone.</p>
			<Form method="post" action="/admin/api-keys" className="confirm-actions">
				<input type="hidden" name="intent" value="revoke" />
				<input type="hidden" name="id" value={confirm.id} />
				<button type="submit" disabled={busy}>
					Revoke the key
				</button>
				<Link to="/admin/api-keys">Keep it</Link>
			</Form>
		</section>
	)
}

function KeyTable({ keys }: { keys: Loaded['keys'] }) {
	return (
		<>
			{keys.length === 0 ? (
				<p>There are no keys yet.</p>
			) : (
				<div className="api-keys-scroll">
					<table className="api-keys stacked-table">
						<thead>
							<tr>
								<th scope="col">Name</th>
								<th scope="col">Starts with</th>
								<th scope="col">Created</th>
								<th scope="col">Last used</th>
								<th scope="col">State</th>
							</tr>
						</thead>
						<tbody>
							{keys.map((key) => (
								<tr key={key.id}>
									<th scope="row">{key.name}</th>
									<td data-label="Starts with">
										<code>{`${key.prefix}…`}</code>
									</td>
									<td data-label="Created">{when(key.createdAt)}</td>
									<td data-label="Last used">{when(key.lastUsedAt)}</td>
									<td data-label="State">
										{key.revokedAt ? (
											`Revoked ${when(key.revokedAt)}`
										) : (
											<>
												Active ·{' '}
												<Link to={`?revoke=${key.id}`}>
													Revoke<span className="visually-hidden">{` “${key.name}”`}</span>…
												</Link>
											</>
										)}
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
		</>
	)
}
