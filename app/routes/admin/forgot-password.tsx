import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, useNavigation } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { mailEnabled } from '#app/features/auth/mail.server.ts'
import {
	mailResetLinkLater,
	parseResetEmail,
	resetRequestWait,
} from '#app/features/auth/password-reset.server.ts'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/forgot-password'

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{ title: i18n._(msg`Forgot your password? · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

// An action's headers reach the document only through this (Retry-After on 429).
export function headers({ actionHeaders }: Route.HeadersArgs) {
	return actionHeaders
}

export function loader({ context }: Route.LoaderArgs) {
	return { mail: mailEnabled(context.get(servicesContext).smtpUrl) }
}

export async function action({ request, context }: Route.ActionArgs) {
	const services = context.get(servicesContext)
	const form = await readForm(request)
	const raw = String(form.get('email') ?? '')
	const email = parseResetEmail(raw)
	const i18n = await requestI18n(request, context)
	if (!email) {
		return data(
			{
				sent: false,
				email: raw,
				errors: { email: i18n._(msg`Enter an email address like name@example.org.`) },
			},
			400,
		)
	}
	const wait = await resetRequestWait(services.storage, context.get(clientIpContext), email)
	if (wait !== undefined) {
		const minutes = Math.ceil(wait / 60)
		return data(
			{
				sent: false,
				email: raw,
				errors: {
					form: i18n._(
						msg`Too many requests. Try again in ${plural(minutes, { one: '# minute', other: '# minutes' })}.`,
					),
				},
			},
			{ status: 429, headers: { 'Retry-After': String(wait) } },
		)
	}
	// Not awaited: the answer must come as fast for an address without an account.
	if (mailEnabled(services.smtpUrl)) mailResetLinkLater(services, email)
	return { sent: true, email, errors: {} }
}

function AskAnAdmin() {
	return (
		<p>
			<Trans>
				This site does not send mail. Ask an admin on your team for a password reset link: they make
				one on the Team page and pass it on to you.
			</Trans>
		</p>
	)
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const errors: { email?: string; form?: string } = actionData?.errors ?? {}
	const { t } = useLingui()
	return (
		<div className="page narrow">
			<h1>
				<Trans>Forgot your password?</Trans>
			</h1>
			{actionData?.sent ? (
				<div role="status" className="notice">
					<p>
						{loaderData.mail ? (
							<Trans>
								If an account exists for that address, a link to choose a new password is on its way
								to it. The link works for one hour.
							</Trans>
						) : (
							<Trans>
								If an account exists for that address, an admin can make a reset link for it.
							</Trans>
						)}
					</p>
					{loaderData.mail ? null : <AskAnAdmin />}
				</div>
			) : loaderData.mail ? (
				<>
					<p>
						<Trans>
							Enter the address you sign in with, and we will mail it a link to choose a new one.
						</Trans>
					</p>
					<Form method="post" className="form">
						{errors.form ? (
							<p role="alert" className="form-error">
								{errors.form}
							</p>
						) : null}
						<Field
							name="email"
							label={t`Email address`}
							type="email"
							autoComplete="username"
							required
							defaultValue={actionData?.email}
							error={errors.email}
						/>
						<button type="submit" disabled={busy}>
							{busy ? t`Sending…` : t`Send me a link`}
						</button>
					</Form>
				</>
			) : (
				<AskAnAdmin />
			)}
			<p>
				<Link to="/admin/sign-in">
					<Trans>Back to sign in</Trans>
				</Link>
			</p>
		</div>
	)
}
