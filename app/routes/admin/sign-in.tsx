import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef } from 'react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { callAuth, getEditor, passCookies, safeNext } from '#app/features/auth/session.server.ts'
import { keepDataWhenNoticeLeaves, useArrivalNotice } from '#app/lib/arrival-notice.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/sign-in'

// An action's headers reach the document only through this (Retry-After on 429).
export function headers({ actionHeaders }: Route.HeadersArgs) {
	return actionHeaders
}

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Sign in · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts).
export const shouldRevalidate = keepDataWhenNoticeLeaves

export async function loader({ request, context }: Route.LoaderArgs) {
	const params = new URL(request.url).searchParams
	const next = safeNext(params.get('next'))
	if (await getEditor(context, request)) throw redirect(next)
	return { next }
}

export async function action({ request, context }: Route.ActionArgs) {
	const form = await readForm(request)
	const email = String(form.get('email') ?? '').trim()
	const password = String(form.get('password') ?? '')
	const next = safeNext(String(form.get('next') ?? ''))
	const i18n = await requestI18n(request, context)
	if (!email || !password) {
		return data({ email, error: i18n._(msg`Enter your email address and your password.`) }, 400)
	}
	const response = await callAuth(context, request, '/sign-in/email', {
		email,
		password,
		rememberMe: true,
	})
	if (response.ok) throw redirect(next, { headers: passCookies(response) })
	if (response.status === 429) {
		const seconds = Number(response.headers.get('x-retry-after')) || 900
		const minutes = Math.ceil(seconds / 60)
		return data(
			{
				email,
				error: i18n._(
					msg`Too many attempts. Try again in ${plural(minutes, { one: '# minute', other: '# minutes' })}.`,
				),
			},
			{ status: 429, headers: { 'Retry-After': String(seconds) } },
		)
	}
	if (response.status === 401) {
		// The same words whether or not the account exists.
		return data(
			{ email, error: i18n._(msg`That email address and password do not match an account.`) },
			401,
		)
	}
	return data(
		{ email, error: i18n._(msg`Signing in did not work. Please try again.`) },
		response.status >= 500 ? 503 : 400,
	)
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const { t } = useLingui()
	const formRef = useRef<HTMLFormElement>(null)
	// Set by /admin/reset-password after a new password is chosen.
	const passwordReset = useArrivalNotice('reset')
	// Set by /admin/sign-out.
	const signedOut = useArrivalNotice('signed-out')
	// Refused: the password typed is cleared (it is the part to type again), and the cursor put
	// where typing goes on: the password, or the email address when that is empty.
	useEffect(() => {
		const form = formRef.current
		if (!actionData?.error || !form) return
		const email = form.elements.namedItem('email') as HTMLInputElement | null
		const password = form.elements.namedItem('password') as HTMLInputElement | null
		if (password) password.value = ''
		;(email && !email.value ? email : password)?.focus()
	}, [actionData])
	return (
		<div className="page narrow admin-sign-in">
			<h1>
				<Trans>Sign in</Trans>
			</h1>
			<p>
				<Trans>For the people who run this site.</Trans>
			</p>
			{signedOut !== null && !actionData ? (
				<p role="status" className="notice">
					<Trans>You are signed out.</Trans>
				</p>
			) : null}
			{passwordReset === 'done' && !actionData ? (
				<p role="status" className="notice">
					<Trans>
						Your password is changed and every device signed in as you has been signed out. Sign in
						with your new password.
					</Trans>
				</p>
			) : null}
			<Form
				ref={formRef}
				method="post"
				className="form"
				aria-describedby={actionData?.error ? 'sign-in-error' : undefined}
			>
				{actionData?.error ? (
					<p id="sign-in-error" className="form-error" role="alert">
						{actionData.error}
					</p>
				) : null}
				<input type="hidden" name="next" value={loaderData.next} />
				<Field
					name="email"
					label={t`Email address`}
					type="email"
					autoComplete="username"
					required
					defaultValue={actionData?.email}
				/>
				<Field
					name="password"
					label={t`Password`}
					type="password"
					autoComplete="current-password"
					required
				/>
				<button type="submit" disabled={busy}>
					{busy ? t`Signing in…` : t`Sign in`}
				</button>
			</Form>
			<p>
				<Link to="/admin/forgot-password">
					<Trans>Forgot your password?</Trans>
				</Link>
			</p>
		</div>
	)
}
