import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, useNavigation } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { NewPasswordField } from '#app/features/auth/new-password-field.tsx'
import { enterNewAccount } from '#app/features/auth/session.server.ts'
import { completeSetup, setupState } from '#app/features/auth/setup.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/setup'

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Set up · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const state = await setupState(context.get(servicesContext).auth, token)
	return data({ state, token }, { status: state === 'invalid' ? 403 : 200 })
}

export async function action({ request, context }: Route.ActionArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const form = await readForm(request)
	const values = { name: String(form.get('name') ?? ''), email: String(form.get('email') ?? '') }
	const { auth, storage } = context.get(servicesContext)
	const result = await completeSetup(auth, storage, token, {
		...values,
		password: String(form.get('password') ?? ''),
	})
	if (!result.ok) {
		const errors = result.state === 'open' ? result.errors : {}
		return data(
			{ state: result.state, errors, values },
			{ status: result.state === 'open' ? 400 : 403 },
		)
	}
	return enterNewAccount(context, request, { email: result.email, password: result.password })
}

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const { t } = useLingui()
	const state = actionData?.state ?? loaderData.state
	if (state === 'done') {
		return (
			<div className="page narrow">
				<h1>
					<Trans>This site is set up</Trans>
				</h1>
				<p>
					<Trans>
						It already has an admin. <Link to="/admin/sign-in">Sign in</Link>.
					</Trans>
				</p>
			</div>
		)
	}
	if (state === 'invalid') {
		const command = 'npm run cli -- user:create --role admin'
		return (
			<div className="page narrow">
				<h1>
					<Trans>This setup link does not work</Trans>
				</h1>
				<p>
					<Trans>
						It may have been used already or be more than an hour old. Restart Canopy for a new link
						in its log, or make the first admin from the shell with <code>{command}</code>.
					</Trans>
				</p>
			</div>
		)
	}
	const errors = actionData?.errors ?? {}
	return (
		<div className="page narrow">
			<h1>
				<Trans>Set up the site</Trans>
			</h1>
			<p>
				<Trans>Make the first admin account. You can invite the rest of the team afterwards.</Trans>
			</p>
			<Form method="post" className="form">
				<Field
					name="name"
					label={t`Your name`}
					autoComplete="name"
					required
					defaultValue={actionData?.values.name}
					error={errors.name}
				/>
				<Field
					name="email"
					label={t`Email address`}
					type="email"
					autoComplete="username"
					required
					defaultValue={actionData?.values.email}
					error={errors.email}
				/>
				<NewPasswordField name="password" label={t`Password`} error={errors.password} />
				<button type="submit" disabled={busy}>
					{busy ? t`Setting up…` : t`Make the admin account`}
				</button>
			</Form>
		</div>
	)
}
