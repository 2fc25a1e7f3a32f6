import { data, Link, redirect, useNavigation } from 'react-router'
import { editorContext } from '#app/features/auth/session.server.ts'
import {
	isParameterKey,
	parameterForm,
	submitParameterForm,
} from '#app/features/remote-config/config-admin.server.ts'
import { ParameterEditor } from '#app/features/remote-config/config-editor.tsx'
import { parameters } from '#app/features/remote-config/parameters.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import configStyles from '#app/styles/admin-config.css?url'
import type { Route } from './+types/config-parameter'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: configStyles }]

export function meta({ params }: Route.MetaArgs) {
	return [
		{ title: `${params.key} · Configuration · Editor · Canopy` },
		{ name: 'robots', content: 'noindex' },
	]
}

function parameterOf(key: string | undefined) {
	if (!isParameterKey(key)) throw data('There is no parameter with this name.', 404)
	return key
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const key = parameterOf(params.key)
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
	const key = parameterOf(params.key)
	let form: FormData
	try {
		form = await request.formData()
	} catch {
		throw data('The form arrived incomplete. Please send it again.', 400)
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

export default function ConfigParameter({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const { key } = loaderData
	const fields = actionData?.fields ?? loaderData.fields
	const baseVersion = actionData?.baseVersion ?? loaderData.baseVersion
	const errors = actionData && 'errors' in actionData ? actionData.errors : {}
	return (
		<>
			<p>
				<Link to="/admin/config/advanced">Every parameter</Link>
			</p>
			<h1>
				<code>{key}</code>
			</h1>
			<p>{parameters[key].description}</p>
			<p className="hint">
				Type: {parameters[key].type}. Editing version{' '}
				{baseVersion || 'none (nothing published yet)'}.
			</p>
			{actionData?.status === 'stale' ? (
				<div role="alert" className="form-error">
					<p>
						Nothing was published: someone published version {actionData.current} while you were
						editing version {actionData.baseVersion || 'none'}.
					</p>
					<p>
						<Link to={`/admin/config/${key}`} reloadDocument>
							Reload this parameter
						</Link>{' '}
						to start again from version {actionData.current}; what you typed stays below until then.
					</p>
				</div>
			) : null}
			{actionData?.status === 'invalid' ? (
				<p role="alert" className="form-error">
					{errors.form?.join(' ') ?? 'Nothing was published. Check the messages beside the fields.'}
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
