import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, useNavigation } from 'react-router'
import { Field, SelectField } from '#app/components/ui/field.tsx'
import { NewPasswordField } from '#app/features/auth/new-password-field.tsx'
import { passwordProblem } from '#app/features/auth/password.server.ts'
import {
	callAuth,
	editorContext,
	passCookies,
	setEditor,
} from '#app/features/auth/session.server.ts'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { localeFor, requestI18n } from '#app/lib/i18n.server.ts'
import { interfaceLocales, isInterfaceLocale, localeNames } from '#app/lib/i18n.ts'
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

export async function loader({ request, context }: Route.LoaderArgs) {
	const { id, name, email, role, interfaceLanguage } = context.get(editorContext)
	const { storage } = context.get(servicesContext)
	// The name readers see on articles is the author profile's: linked from here.
	const profile = (await storage.authors.list()).find((author) => author.userId === id)
	return {
		name,
		email,
		role,
		profileId: profile?.id ?? null,
		interfaceLanguage: isInterfaceLocale(interfaceLanguage) ? interfaceLanguage : '',
		// What choosing none gives now: the browser's language among the site's, else the site's.
		browserLocale: localeFor(request, await getSiteSettings(storage)),
	}
}

type Errors = Partial<
	Record<'currentPassword' | 'newPassword' | 'interfaceLanguage' | 'form', string>
>

export async function action({ request, context }: Route.ActionArgs) {
	const form = await readForm(request)
	if (form.get('intent') === 'language') return chooseLanguage(request, form, context)
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

/**
 * The staff area's language for this account: any of Canopy's, whichever the site offers
 * readers, or none (the browser's among the site's). The root reads it again after this action,
 * so the page answers in the language chosen.
 */
async function chooseLanguage(
	request: Request,
	form: FormData,
	context: Route.ActionArgs['context'],
) {
	const chosen = String(form.get('interfaceLanguage') ?? '')
	if (chosen !== '' && !isInterfaceLocale(chosen)) {
		const i18n = await requestI18n(request, context)
		return data(
			{
				done: false,
				errors: {
					interfaceLanguage: i18n._(msg`Choose one of the languages in the list.`),
				} as Errors,
			},
			400,
		)
	}
	const { storage } = context.get(servicesContext)
	const editor = context.get(editorContext)
	await storage.accounts.setInterfaceLanguage(editor.id, chosen, new Date())
	// The page this answer draws (without JavaScript, in this same request) is in the language
	// chosen; with JavaScript, the root and the page read it again anyway.
	setEditor(context, { ...editor, interfaceLanguage: chosen })
	return data({ done: false, languageSaved: true, errors: {} as Errors })
}

/** The role as the account page shows it. */
const roleNames: Record<'admin' | 'editor', MessageDescriptor> = {
	admin: msg`admin`,
	editor: msg`editor`,
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	const intent = navigation.formData?.get('intent')
	const errors = actionData?.errors ?? {}
	const { t, i18n } = useLingui()
	const browserName = localeNames[loaderData.browserLocale]
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
				<Trans>Language of the editor area</Trans>
			</h2>
			{actionData && 'languageSaved' in actionData ? (
				<p role="status" className="notice">
					<Trans>Saved. The editor area speaks this language wherever you sign in.</Trans>
				</p>
			) : null}
			<Form method="post" className="form">
				<input type="hidden" name="intent" value="language" />
				<SelectField
					name="interfaceLanguage"
					label={t`Language`}
					hint={t`Yours only: readers and the rest of the team keep theirs.`}
					defaultValue={loaderData.interfaceLanguage}
					error={errors.interfaceLanguage}
				>
					<option value="">{t`Your browser’s, among the site’s languages (now ${browserName})`}</option>
					{interfaceLocales.map((code) => (
						<option key={code} value={code} lang={code}>
							{localeNames[code]}
						</option>
					))}
				</SelectField>
				<button type="submit" disabled={busy}>
					{busy && intent === 'language' ? t`Saving…` : t`Save language`}
				</button>
			</Form>
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
					{busy && intent !== 'language' ? t`Changing…` : t`Change password`}
				</button>
			</Form>
		</>
	)
}
