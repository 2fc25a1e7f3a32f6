import { data, useNavigation } from 'react-router'
import { createInvite, inviteValidDays } from '#app/features/auth/invites.server.ts'
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
import { InviteForm, MemberCard, OneTimeLink } from '#app/features/auth/team-list.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import href from '#app/styles/admin-team.css?url'
import type { Route } from './+types/team'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href }]

export function meta() {
	return [{ title: 'Team · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ context }: Route.LoaderArgs) {
	const { storage, smtpUrl } = context.get(servicesContext)
	return {
		members: await listTeam(storage),
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
	if (input.intent === 'invite') {
		const made = await createInvite(auth, siteUrl, input)
		if (!made.ok) return data({ intent: 'invite', errors: made.errors, values } as Answer, 400)
		const mailed = mailEnabled(smtpUrl)
		if (mailed) {
			await queueAccountMail(services, {
				kind: 'invite',
				to: made.invite.email,
				subject: 'You are invited to the Canopy team',
				text: `${you.name} invited you to help run the site as ${made.invite.role === 'admin' ? 'an admin' : 'an editor'}.\n\nMake your account here within ${inviteValidDays} days: ${made.link}\n`,
			})
		}
		return {
			intent: 'invite',
			link: {
				label: `Invite link for ${made.invite.email}`,
				url: made.link,
				note: `${mailed ? 'It is also on its way to them by mail. ' : ''}Pass it on to them: it works once, for ${inviteValidDays} days, and is shown only now.`,
			},
		} satisfies Answer
	}
	if (input.intent === 'reset-link') {
		const member = await findMember(storage, input.userId)
		if (!member?.active) {
			const error = member
				? `Reactivate ${member.name} first: a deactivated account cannot sign in.`
				: 'That account no longer exists.'
			return data({ intent: input.intent, userId: input.userId, errors: { form: [error] } }, 400)
		}
		return {
			intent: input.intent,
			link: {
				label: `Password reset link for ${member.email}`,
				url: await createResetLink(auth, siteUrl, member.id),
				note: 'Pass it on to them: it works once, for one hour, and is shown only now.',
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
			? `${name} is now ${role === 'admin' ? 'an admin' : 'an editor'}.`
			: active
				? `${name} can sign in again.`
				: `${name} is deactivated and signed out everywhere.`
	return { intent: input.intent, done } satisfies Answer
}

export default function Team({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const answer = actionData as Answer | undefined
	const memberError = answer?.userId
		? Object.values(answer.errors ?? {})
				.flat()
				.join(' ') || undefined
		: undefined
	const inviteAnswer = answer?.intent === 'invite' ? answer : undefined
	return (
		<div className="team">
			<h1>Team</h1>
			{answer?.done ? (
				<p role="status" className="notice">
					{answer.done}
				</p>
			) : null}
			{answer?.errors?.form && !answer.userId ? (
				<p role="alert" className="form-error">
					{answer.errors.form.join(' ')}
				</p>
			) : null}
			{answer?.link ? (
				<OneTimeLink label={answer.link.label} link={answer.link.url} note={answer.link.note} />
			) : null}
			<h2>People</h2>
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
			<h2 id="invite-heading">Invite someone</h2>
			<p>
				You get a link to pass on{loaderData.mail ? ' (it is also mailed to them)' : ''}. With it
				they choose their password and join as the role you pick.
			</p>
			<InviteForm
				key={inviteAnswer?.link?.url ?? 'invite'}
				busy={busy}
				values={inviteAnswer?.link ? undefined : inviteAnswer?.values}
				errors={inviteAnswer?.errors ?? {}}
			/>
		</div>
	)
}
