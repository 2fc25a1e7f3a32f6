import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { NewPasswordField } from '#app/features/auth/new-password-field.tsx'
import { resetLinkWorks, resetPassword } from '#app/features/auth/password-reset.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import type { Route } from './+types/reset-password'

export function meta() {
	return [{ title: 'Choose a new password · Canopy' }, { name: 'robots', content: 'noindex' }]
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
	const result = await resetPassword(auth, storage, token, String(form.get('password') ?? ''))
	if (result.ok) throw redirect('/admin/sign-in?reset=done')
	return result.state === 'open'
		? data({ works: true, error: result.error }, 400)
		: data({ works: false, error: undefined }, 403)
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	if (!(actionData?.works ?? loaderData.works)) {
		return (
			<div className="page narrow">
				<h1>This reset link does not work</h1>
				<p>
					It may have been used already or be more than an hour old.{' '}
					<Link to="/admin/forgot-password">Ask for a new link</Link>, or ask an admin to make you
					one.
				</p>
			</div>
		)
	}
	return (
		<div className="page narrow">
			<h1>Choose a new password</h1>
			<p>Once it is changed, every device signed in as you is signed out.</p>
			<Form method="post" className="form">
				<NewPasswordField name="password" label="New password" error={actionData?.error} />
				<button type="submit" disabled={busy}>
					{busy ? 'Saving…' : 'Save the new password'}
				</button>
			</Form>
		</div>
	)
}
