import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, useNavigation } from 'react-router'
import { Field, schemaMessage } from '#app/components/ui/field.tsx'
import { useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { apiKeyFormSchema } from '#app/features/api-keys/api-key.schema.ts'
import { createApiKey, listApiKeys, revokeApiKey } from '#app/features/api-keys/api-keys.server.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import stylesheet from '#app/styles/admin-api-keys.css?url'
import type { Route } from './+types/api-keys'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`API keys · Canopy`) }, { name: 'robots', content: 'noindex' }]
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
		const i18n = await requestI18n(request, context)
		const errors: FieldErrors = {
			form: [i18n._(msg`This key was revoked already, or no longer exists.`)],
		}
		return data({ errors }, 404)
	}
	return { revoked: key.name }
}

/** When a key was made or last used, as every staff page shows a moment; or "Never". */
function When({ iso }: { iso: string | null }) {
	return iso ? <LocalTime iso={iso} time /> : <Trans>Never</Trans>
}

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
	const { keys, confirm } = loaderData
	const busy = useNavigation().state === 'submitting'
	const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {}
	// The create form's own refusal (a revoke's says nothing of what it holds).
	const guard = useFormLeaveGuard(errors.name ? actionData : undefined)
	const created = actionData && 'created' in actionData ? actionData.created : null
	const revoked = actionData && 'revoked' in actionData ? actionData.revoked : null
	const { t, i18n } = useLingui()
	// Code, not words: outside the message's text.
	const endpoint = '/api/admin/articles'
	const header = 'Authorization: Bearer …'
	return (
		<>
			<h1>
				<Trans>API keys</Trans>
			</h1>
			<p>
				<Trans>
					Scripts and services use a key to read and write articles through the admin API at{' '}
					<code>{endpoint}</code>, sending it as <code>{header}</code>. A key acts for the admin who
					made it, and stops working when it is revoked or that account is deactivated.
				</Trans>
			</p>
			<p>
				<Link to="/admin/api">
					<Trans>The API’s reference: every endpoint, what it takes and what it answers</Trans>
				</Link>
			</p>
			{errors.form ? (
				<p role="alert" className="form-error">
					{errors.form.map((text) => schemaMessage(i18n, text)).join(' ')}
				</p>
			) : null}
			{revoked ? (
				<p role="status" className="notice">
					{t`The key “${revoked}” is revoked. Anything still using it is refused from now on.`}
				</p>
			) : null}
			{created ? <NewKey created={created} /> : null}
			{confirm ? <RevokeConfirmation confirm={confirm} busy={busy} /> : null}

			<h2>
				<Trans>Create a key</Trans>
			</h2>
			<Form method="post" action="/admin/api-keys" className="form" {...guard.form}>
				<input type="hidden" name="intent" value="create" />
				<Field
					name="name"
					label={t`Name`}
					hint={t`What will use it, e.g. “Newsletter import”.`}
					required
					maxLength={80}
					error={errors.name}
				/>
				<button type="submit" disabled={busy}>
					{busy ? t`Creating…` : t`Create key`}
				</button>
			</Form>

			<h2>
				<Trans>Keys</Trans>
			</h2>
			<KeyTable keys={keys} />
			{guard.dialog}
		</>
	)
}

type Loaded = Route.ComponentProps['loaderData']

/** A key just made: shown this once. */
function NewKey({ created }: { created: { name: string; key: string } }) {
	const { t } = useLingui()
	const keyName = created.name
	return (
		<section className="new-key notice" aria-labelledby="new-key-heading">
			<h2 id="new-key-heading">{t`Your new key “${keyName}”`}</h2>
			<p role="status">
				<Trans>
					<strong>Copy it now: it is shown only this once.</strong> Canopy keeps only a fingerprint
					of it, so it cannot be shown again; if it is lost, create a new one and revoke this one.
				</Trans>
			</p>
			<div className="form">
				<Field
					name="newKey"
					label={t`API key`}
					hint={t`Select it all and copy it into your script’s secret settings. Treat it like a password.`}
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
	const { t } = useLingui()
	const keyName = confirm.name
	return (
		<section className="notice" aria-labelledby="confirm-heading">
			<h2 id="confirm-heading">{t`Revoke the key “${keyName}”?`}</h2>
			<p>
				<Trans>Anything using it is refused at once. This cannot be undone.</Trans>
			</p>
			<Form method="post" action="/admin/api-keys" className="confirm-actions">
				<input type="hidden" name="intent" value="revoke" />
				<input type="hidden" name="id" value={confirm.id} />
				<button type="submit" disabled={busy}>
					<Trans>Revoke the key</Trans>
				</button>
				<Link to="/admin/api-keys">
					<Trans>Keep it</Trans>
				</Link>
			</Form>
		</section>
	)
}

function KeyTable({ keys }: { keys: Loaded['keys'] }) {
	const { t } = useLingui()
	// The headings, also each cell's label where the table stacks on a narrow screen.
	const label = {
		name: t`Name`,
		startsWith: t`Starts with`,
		created: t`Created`,
		lastUsed: t`Last used`,
		state: t`State`,
	}
	return (
		<>
			{keys.length === 0 ? (
				<p>
					<Trans>There are no keys yet.</Trans>
				</p>
			) : (
				<div className="api-keys-scroll">
					<table className="api-keys stacked-table">
						<thead>
							<tr>
								<th scope="col">{label.name}</th>
								<th scope="col">{label.startsWith}</th>
								<th scope="col">{label.created}</th>
								<th scope="col">{label.lastUsed}</th>
								<th scope="col">{label.state}</th>
							</tr>
						</thead>
						<tbody>
							{keys.map((key) => {
								const keyName = key.name
								const revokedAt = key.revokedAt
								return (
									<tr key={key.id}>
										<th scope="row">{key.name}</th>
										<td data-label={label.startsWith}>
											<code>{`${key.prefix}…`}</code>
										</td>
										<td data-label={label.created}>
											<When iso={key.createdAt} />
										</td>
										<td data-label={label.lastUsed}>
											<When iso={key.lastUsedAt} />
										</td>
										<td data-label={label.state}>
											{revokedAt ? (
												<Trans>
													Revoked <LocalTime iso={revokedAt} time />
												</Trans>
											) : (
												<Trans>
													Active ·{' '}
													<Link to={`?revoke=${key.id}`}>
														Revoke<span className="visually-hidden"> “{keyName}”</span>…
													</Link>
												</Trans>
											)}
										</td>
									</tr>
								)
							})}
						</tbody>
					</table>
				</div>
			)}
		</>
	)
}
