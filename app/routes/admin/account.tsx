import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, useNavigation } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { NewPasswordField } from '#app/features/auth/new-password-field.tsx'
import { passwordProblem } from '#app/features/auth/password.server.ts'
import { callAuth, editorContext, passCookies } from '#app/features/auth/session.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/account'

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Your account · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

// The new session cookie (other devices are signed out) reaches the document through this.
export function headers({ actionHeaders }: Route.HeadersArgs) {
	return actionHeaders
}

export async function loader({ context }: Route.LoaderArgs) {
	const { id, name, email, role } = context.get(editorContext)
	const { storage } = context.get(servicesContext)
	// The name readers see on articles is the author profile's: linked from here.
	const profile = (await storage.authors.list()).find((author) => author.userId === id)
	return { name, email, role, profileId: profile?.id ?? null }
}

type Errors = Partial<Record<'currentPassword' | 'newPassword' | 'form', string>>

export async function action({ request, context }: Route.ActionArgs) {
	const form = await readForm(request)
	const currentPassword = String(form.get('currentPassword') ?? '')
	const newPassword = String(form.get('newPassword') ?? '')
	const problem = await passwordProblem(newPassword)
	const i18n = await requestI18n(request, context)
	if (!currentPassword || problem) {
		const errors: Errors = {}
		if (!currentPassword) errors.currentPassword = i18n._(msg`Enter your current password.`)
		if (problem) errors.newPassword = problem
		return data({ done: false, errors }, 400)
	}
	const response = await callAuth(context, request, '/change-password', {
		currentPassword,
		newPassword,
		revokeOtherSessions: true,
	})
	if (response.ok)
		return data({ done: true, errors: {} as Errors }, { headers: passCookies(response) })
	if (response.status === 429) {
		return data(
			{
				done: false,
				errors: { form: i18n._(msg`Too many attempts. Wait a minute and try again.`) } as Errors,
			},
			429,
		)
	}
	const wrong = response.status === 400 || response.status === 401
	return data(
		{
			done: false,
			errors: (wrong
				? { currentPassword: i18n._(msg`That is not your current password.`) }
				: { form: i18n._(msg`The password could not be changed. Please try again.`) }) as Errors,
		},
		wrong ? 400 : 503,
	)
}

/** The role as the account page shows it. */
const roleNames: Record<'admin' | 'editor', MessageDescriptor> = {
	admin: msg`admin`,
	editor: msg`editor`,
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const errors = actionData?.errors ?? {}
	const { t, i18n } = useLingui()
	return (
		<>
			<h1>
				<Trans>Your account</Trans>
			</h1>
			<p>
				{loaderData.name} · {loaderData.email} · {i18n._(roleNames[loaderData.role])}
			</p>
			{loaderData.profileId !== null ? (
				<p>
					<Trans>
						Readers see your name, photo and bio on your articles as your{' '}
						<Link to={`/admin/authors/${loaderData.profileId}`}>author profile</Link> has them.
					</Trans>
				</p>
			) : null}
			<h2>
				<Trans>Change your password</Trans>
			</h2>
			{actionData?.done ? (
				<p role="status" className="notice">
					<Trans>
						Your password is changed, and any other device signed in as you has been signed out.
					</Trans>
				</p>
			) : null}
			{errors.form ? (
				<p role="alert" className="form-error">
					{errors.form}
				</p>
			) : null}
			<Form method="post" className="form">
				<Field
					name="currentPassword"
					label={t`Current password`}
					type="password"
					autoComplete="current-password"
					required
					error={errors.currentPassword}
				/>
				<NewPasswordField name="newPassword" label={t`New password`} error={errors.newPassword} />
				<button type="submit" disabled={busy}>
					{busy ? t`Changing…` : t`Change password`}
				</button>
			</Form>
		</>
	)
}
