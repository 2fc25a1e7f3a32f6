import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, useNavigation } from 'react-router'
import { ActionNotice } from '#app/components/ui/action-notice.tsx'
import { schemaMessage } from '#app/components/ui/field.tsx'
import { useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import {
	cancelInvite,
	createInvite,
	inviteValidDays,
	listPendingInvites,
} from '#app/features/auth/invites.server.ts'
import { mailEnabled, queueAccountMail } from '#app/features/auth/mail.server.ts'
import { createResetLink } from '#app/features/auth/password-reset.server.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import {
	changeRole,
	findMember,
	listTeam,
	parseTeamAction,
	setActive,
} from '#app/features/auth/team.server.ts'
import {
	InviteForm,
	MemberCard,
	OneTimeLink,
	PendingInvites,
} from '#app/features/auth/team-list.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import href from '#app/styles/admin-team.css?url'
import type { Route } from './+types/team'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Team · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ context }: Route.LoaderArgs) {
	const { auth, storage, smtpUrl } = context.get(servicesContext)
	return {
		members: await listTeam(storage),
		invites: await listPendingInvites(auth),
		you: context.get(editorContext).id,
		mail: mailEnabled(smtpUrl),
	}
}

type Answer = {
	intent: string
	userId?: string
	errors?: Record<string, string[]>
	values?: Record<string, string>
	done?: string
	link?: { label: string; url: string; note: string }
}

export async function action({ request, context }: Route.ActionArgs) {
	const services = context.get(servicesContext)
	const { auth, storage, siteUrl, smtpUrl } = services
	const you = context.get(editorContext)
	const values = Object.fromEntries(
		[...(await readForm(request))].map(([key, value]) => [key, String(value)]),
	)
	const parsed = parseTeamAction(values)
	if (!parsed.ok) {
		const answer: Answer = {
			intent: values.intent ?? '',
			userId: values.userId,
			errors: parsed.errors,
			values,
		}
		return data(answer, 400)
	}
	const input = parsed.input
	// The admin's language; an invite's mail goes out in it too (whoever they invite is likely
	// to share it).
	const i18n = await requestI18n(request, context)
	if (input.intent === 'invite') {
		const made = await createInvite(auth, siteUrl, input)
		if (!made.ok) return data({ intent: 'invite', errors: made.errors, values } as Answer, 400)
		const mailed = mailEnabled(smtpUrl)
		const { email } = made.invite
		const link = made.link
		if (mailed) {
			const inviter = you.name
			await queueAccountMail(services, {
				kind: 'invite',
				to: email,
				subject: i18n._(msg`You are invited to the Canopy team`),
				text:
					made.invite.role === 'admin'
						? i18n._(
								msg`${inviter} invited you to help run the site as an admin.\n\nMake your account here within ${plural(inviteValidDays, { one: '# day', other: '# days' })}: ${link}\n`,
							)
						: i18n._(
								msg`${inviter} invited you to help run the site as an editor.\n\nMake your account here within ${plural(inviteValidDays, { one: '# day', other: '# days' })}: ${link}\n`,
							),
			})
		}
		return {
			intent: 'invite',
			link: {
				label: i18n._(msg`Invite link for ${email}`),
				url: link,
				note: mailed
					? i18n._(
							msg`It is also on its way to them by mail. Pass it on to them: it works once, for ${plural(inviteValidDays, { one: '# day', other: '# days' })}, and is shown only now.`,
						)
					: i18n._(
							msg`Pass it on to them: it works once, for ${plural(inviteValidDays, { one: '# day', other: '# days' })}, and is shown only now.`,
						),
			},
		} satisfies Answer
	}
	if (input.intent === 'cancel-invite') {
		const cancelled = await cancelInvite(auth, input.inviteId)
		if (!cancelled) {
			const error = i18n._(
				msg`That invitation was no longer open: it was accepted, cancelled or ran out.`,
			)
			return data({ intent: input.intent, errors: { form: [error] } } as Answer, 409)
		}
		const email = cancelled.email
		return {
			intent: input.intent,
			done: i18n._(msg`The invitation to ${email} is cancelled: its link no longer works.`),
		} satisfies Answer
	}
	if (input.intent === 'reset-link') {
		const member = await findMember(storage, input.userId)
		if (!member?.active) {
			const name = member?.name ?? ''
			const error = member
				? i18n._(msg`Reactivate ${name} first: a deactivated account cannot sign in.`)
				: i18n._(msg`That account no longer exists.`)
			return data({ intent: input.intent, userId: input.userId, errors: { form: [error] } }, 400)
		}
		const email = member.email
		return {
			intent: input.intent,
			link: {
				label: i18n._(msg`Password reset link for ${email}`),
				url: await createResetLink(auth, siteUrl, member.id),
				note: i18n._(msg`Pass it on to them: it works once, for one hour, and is shown only now.`),
			},
		} satisfies Answer
	}
	const result =
		input.intent === 'role'
			? await changeRole(storage, input.userId, input.role)
			: await setActive(storage, you.id, input.userId, input.intent === 'reactivate')
	if (!result.ok) {
		return data(
			{ intent: input.intent, userId: input.userId, errors: { form: [result.error] } } as Answer,
			409,
		)
	}
	const { name, role, active } = result.member
	const done =
		input.intent === 'role'
			? role === 'admin'
				? i18n._(msg`${name} is now an admin.`)
				: i18n._(msg`${name} is now an editor.`)
			: active
				? i18n._(msg`${name} can sign in again.`)
				: i18n._(msg`${name} is deactivated and signed out everywhere.`)
	return { intent: input.intent, done } satisfies Answer
}

export default function Team({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const answer = actionData as Answer | undefined
	const { i18n } = useLingui()
	// The schemas' and rules' messages (English, from the server) in the interface's language.
	const translated = (texts: string[]) => texts.map((text) => schemaMessage(i18n, text)).join(' ')
	const memberError = answer?.userId
		? translated(Object.values(answer.errors ?? {}).flat()) || undefined
		: undefined
	const inviteAnswer = answer?.intent === 'invite' ? answer : undefined
	const guard = useFormLeaveGuard(inviteAnswer?.errors ? inviteAnswer : undefined)
	return (
		<div className="team">
			<h1>
				<Trans>Team</Trans>
			</h1>
			{answer?.done ? <ActionNotice answer={answer}>{answer.done}</ActionNotice> : null}
			{answer?.errors?.form && !answer.userId ? (
				<p role="alert" className="form-error">
					{translated(answer.errors.form)}
				</p>
			) : null}
			{answer?.link ? (
				<OneTimeLink label={answer.link.label} link={answer.link.url} note={answer.link.note} />
			) : null}
			<h2>
				<Trans>People</Trans>
			</h2>
			<ul className="members">
				{loaderData.members.map((member) => (
					<MemberCard
						key={member.id}
						member={member}
						isYou={member.id === loaderData.you}
						busy={busy}
						error={answer?.userId === member.id ? memberError : undefined}
					/>
				))}
			</ul>
			<PendingInvites invites={loaderData.invites} busy={busy} />
			<h2 id="invite-heading">
				<Trans>Invite someone</Trans>
			</h2>
			<p>
				{loaderData.mail ? (
					<Trans>
						You get a link to pass on (it is also mailed to them). With it they choose their
						password and join as the role you pick.
					</Trans>
				) : (
					<Trans>
						You get a link to pass on. With it they choose their password and join as the role you
						pick.
					</Trans>
				)}
			</p>
			<InviteForm
				key={inviteAnswer?.link?.url ?? 'invite'}
				busy={busy}
				values={inviteAnswer?.link ? undefined : inviteAnswer?.values}
				errors={inviteAnswer?.errors ?? {}}
				guard={guard.form}
			/>
			{guard.dialog}
		</div>
	)
}
