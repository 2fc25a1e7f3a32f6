import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { NewPasswordField } from '#app/features/auth/new-password-field.tsx'
import { resetLinkWorks, resetPassword } from '#app/features/auth/password-reset.server.ts'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/reset-password'

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{ title: i18n._(msg`Choose a new password · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const works = await resetLinkWorks(context.get(servicesContext).auth, token)
	return data({ works }, { status: works ? 200 : 403 })
}

export async function action({ request, context }: Route.ActionArgs) {
	const { auth, storage } = context.get(servicesContext)
	const token = new URL(request.url).searchParams.get('token')
	const form = await readForm(request)
	const result = await resetPassword(
		auth,
		storage,
		token,
		String(form.get('password') ?? ''),
		context.get(clientIpContext),
	)
	if (result.ok) throw redirect('/admin/sign-in?reset=done')
	return result.state === 'open'
		? data({ works: true, error: result.error }, 400)
		: data({ works: false, error: undefined }, 403)
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const { t } = useLingui()
	if (!(actionData?.works ?? loaderData.works)) {
		return (
			<div className="page narrow">
				<h1>
					<Trans>This reset link does not work</Trans>
				</h1>
				<p>
					<Trans>
						It may have been used already or be more than an hour old.{' '}
						<Link to="/admin/forgot-password">Ask for a new link</Link>, or ask an admin to make you
						one.
					</Trans>
				</p>
			</div>
		)
	}
	return (
		<div className="page narrow">
			<h1>
				<Trans>Choose a new password</Trans>
			</h1>
			<p>
				<Trans>Once it is changed, every device signed in as you is signed out.</Trans>
			</p>
			<Form method="post" className="form">
				<NewPasswordField name="password" label={t`New password`} error={actionData?.error} />
				<button type="submit" disabled={busy}>
					{busy ? t`Saving…` : t`Save the new password`}
				</button>
			</Form>
		</div>
	)
}
