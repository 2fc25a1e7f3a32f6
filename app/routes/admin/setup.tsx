import { data, Form, Link, useNavigation } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { NewPasswordField } from '#app/features/auth/new-password-field.tsx'
import { enterNewAccount } from '#app/features/auth/session.server.ts'
import { completeSetup, setupState } from '#app/features/auth/setup.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import type { Route } from './+types/setup'

export function meta() {
	return [{ title: 'Set up · Canopy' }, { name: 'robots', content: 'noindex' }]
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
	const state = actionData?.state ?? loaderData.state
	if (state === 'done') {
		return (
			<div className="page narrow">
				<h1>This site is set up</h1>
				<p>
					It already has an admin. <Link to="/admin/sign-in">Sign in</Link>.
				</p>
			</div>
		)
	}
	if (state === 'invalid') {
		return (
			<div className="page narrow">
				<h1>This setup link does not work</h1>
				<p>
					It may have been used already or be more than an hour old. Restart Canopy for a new link
					in its log, or make the first admin from the shell with{' '}
					<code>npm run cli -- user:create --role admin</code>.
				</p>
			</div>
		)
	}
	const errors = actionData?.errors ?? {}
	return (
		<div className="page narrow">
			<h1>Set up the site</h1>
			<p>Make the first admin account. You can invite the rest of the team afterwards.</p>
			<Form method="post" className="form">
				<Field
					name="name"
					label="Your name"
					autoComplete="name"
					required
					defaultValue={actionData?.values.name}
					error={errors.name}
				/>
				<Field
					name="email"
					label="Email address"
					type="email"
					autoComplete="username"
					required
					defaultValue={actionData?.values.email}
					error={errors.email}
				/>
				<NewPasswordField name="password" label="Password" error={errors.password} />
				<button type="submit" disabled={busy}>
					{busy ? 'Setting up…' : 'Make the admin account'}
				</button>
			</Form>
		</div>
	)
}
