import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Link, redirect, useNavigation } from 'react-router'
import { schemaMessage } from '#app/components/ui/field.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import {
	isParameterKey,
	parameterForm,
	submitParameterForm,
} from '#app/features/remote-config/config-admin.server.ts'
import { ParameterEditor } from '#app/features/remote-config/config-editor.tsx'
import { parameters } from '#app/features/remote-config/parameters.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import configStyles from '#app/styles/admin-config.css?url'
import type { Route } from './+types/config-parameter'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: configStyles }]

export function meta({ params, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const key = params.key
	return [
		{ title: i18n._(msg`${key} · Configuration · Editor · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

async function parameterOf(
	key: string | undefined,
	{ request, context }: Pick<Route.LoaderArgs, 'request' | 'context'>,
) {
	if (!isParameterKey(key)) {
		const i18n = await requestI18n(request, context)
		throw data(i18n._(msg`There is no parameter with this name.`), 404)
	}
	return key
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const key = await parameterOf(params.key, { request, context })
	return { key, ...(await parameterForm(context.get(servicesContext).storage, key)) }
}

/** Where the keyboard goes after an edit: the new row, or the moved row's button. */
function focusAfter(intent: string, count: number): string {
	if (intent === 'add') return `conditions.${count - 1}.percent`
	const move = /^(up|down)-(\d+)$/.exec(intent)
	if (!move) return 'add-condition'
	const to = Number(move[2]) + (move[1] === 'up' ? -1 : 1)
	if (to <= 0) return 'down-0'
	if (to >= count - 1) return `up-${count - 1}`
	return `${move[1]}-${to}`
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const key = await parameterOf(params.key, { request, context })
	let form: FormData
	try {
		form = await request.formData()
	} catch {
		const i18n = await requestI18n(request, context)
		throw data(i18n._(msg`The form arrived incomplete. Please send it again.`), 400)
	}
	const result = await submitParameterForm(
		context.get(servicesContext).storage,
		context.get(editorContext),
		key,
		form,
	)
	if (result.status === 'published')
		return redirect(`/admin/config/advanced?published=${result.version}`)
	if (result.status === 'stale') return data(result, 409)
	if (result.status === 'invalid') return data(result, 400)
	return {
		...result,
		focus: focusAfter(String(form.get('intent')), result.fields.conditions.length),
	}
}

/** Why nothing was published: another version came out while this one was being edited. */
function StaleNotice({
	parameterKey,
	current,
	editing,
}: {
	parameterKey: string
	current: number
	editing: number
}) {
	return (
		<div role="alert" className="form-error">
			<p>
				{editing ? (
					<Trans>
						Nothing was published: someone published version {current} while you were editing
						version {editing}.
					</Trans>
				) : (
					<Trans>
						Nothing was published: someone published version {current} while you were editing
						version none.
					</Trans>
				)}
			</p>
			<p>
				<Trans>
					<Link to={`/admin/config/${parameterKey}`} reloadDocument>
						Reload this parameter
					</Link>{' '}
					to start again from version {current}; what you typed stays below until then.
				</Trans>
			</p>
		</div>
	)
}

export default function ConfigParameter({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const { key } = loaderData
	const fields = actionData?.fields ?? loaderData.fields
	const baseVersion = actionData?.baseVersion ?? loaderData.baseVersion
	const errors = actionData && 'errors' in actionData ? actionData.errors : {}
	const { i18n } = useLingui()
	const { type } = parameters[key]
	// The server's messages (English), in the interface's language where they are registered.
	const formError = errors.form?.map((text) => schemaMessage(i18n, text)).join(' ')
	return (
		<>
			<p>
				<Link to="/admin/config/advanced">
					<Trans>Every parameter</Trans>
				</Link>
			</p>
			<h1>
				<code>{key}</code>
			</h1>
			{/* Written in parameters.ts (English), in the interface's language where registered. */}
			<p>{schemaMessage(i18n, parameters[key].description)}</p>
			<p className="hint">
				{baseVersion ? (
					<Trans>
						Type: {type}. Editing version {baseVersion}.
					</Trans>
				) : (
					<Trans>Type: {type}. Editing version none (nothing published yet).</Trans>
				)}
			</p>
			{actionData?.status === 'stale' ? (
				<StaleNotice
					parameterKey={key}
					current={actionData.current}
					editing={actionData.baseVersion}
				/>
			) : null}
			{actionData?.status === 'invalid' ? (
				<p role="alert" className="form-error">
					{formError ?? <Trans>Nothing was published. Check the messages beside the fields.</Trans>}
				</p>
			) : null}
			<ParameterEditor
				parameter={key}
				fields={fields}
				baseVersion={baseVersion}
				errors={errors}
				focus={actionData && 'focus' in actionData ? actionData.focus : undefined}
				busy={busy}
			/>
		</>
	)
}
