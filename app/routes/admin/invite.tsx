import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, useNavigation } from 'react-router'
import { Field, schemaMessage } from '#app/components/ui/field.tsx'
import { acceptInvite, readInvite } from '#app/features/auth/invites.server.ts'
import { NewPasswordField } from '#app/features/auth/new-password-field.tsx'
import { enterNewAccount } from '#app/features/auth/session.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/invite'

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Join the team · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const invite = await readInvite(context.get(servicesContext).auth, token)
	return data({ invite: invite ?? null }, { status: invite ? 200 : 403 })
}

export async function action({ request, context }: Route.ActionArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const form = await readForm(request)
	const name = String(form.get('name') ?? '')
	const { auth, storage } = context.get(servicesContext)
	const result = await acceptInvite(auth, storage, token, {
		name,
		password: String(form.get('password') ?? ''),
	})
	if (!result.ok) {
		return result.state === 'open'
			? data({ invalid: false, name, errors: result.errors }, 400)
			: data({ invalid: true, name, errors: {} }, 403)
	}
	return enterNewAccount(context, request, { email: result.email, password: result.password })
}

export default function AcceptInvite({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const { t, i18n } = useLingui()
	const invite = loaderData.invite
	if (!invite || actionData?.invalid) {
		return (
			<div className="page narrow">
				<h1>
					<Trans>This invite link does not work</Trans>
				</h1>
				<p>
					<Trans>
						It may have been used already or be more than 7 days old. Ask the admin who invited you
						for a new one. If you already made your account,{' '}
						<Link to="/admin/sign-in">sign in</Link>.
					</Trans>
				</p>
			</div>
		)
	}
	const errors: Record<string, string[]> = actionData?.errors ?? {}
	const email = invite.email
	return (
		<div className="page narrow">
			<h1>
				<Trans>Join the team</Trans>
			</h1>
			<p>
				{invite.role === 'admin' ? (
					<Trans>
						You are invited as an admin, with the address <strong>{email}</strong>. Choose your
						password to make your account.
					</Trans>
				) : (
					<Trans>
						You are invited as an editor, with the address <strong>{email}</strong>. Choose your
						password to make your account.
					</Trans>
				)}
			</p>
			<Form method="post" className="form">
				<Field
					name="name"
					label={t`Your name`}
					autoComplete="name"
					required
					maxLength={100}
					defaultValue={actionData?.name ?? invite.name}
					error={errors.name}
				/>
				<NewPasswordField name="password" label={t`Password`} error={errors.password} />
				{errors.email || errors.role ? (
					<p role="alert" className="form-error">
						{[...(errors.email ?? []), ...(errors.role ?? [])]
							.map((text) => schemaMessage(i18n, text))
							.join(' ')}{' '}
						<Trans>Ask the admin who invited you to check the invite.</Trans>
					</p>
				) : null}
				<button type="submit" disabled={busy}>
					{busy ? t`Making your account…` : t`Make my account`}
				</button>
			</Form>
		</div>
	)
}
