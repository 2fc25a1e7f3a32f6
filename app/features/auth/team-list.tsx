// The team page's parts: the invite form, a one-time link shown to the admin, and one card per
// account with its actions. Every action is a plain form post with an `intent`.
import { Trans, useLingui } from '@lingui/react/macro'
import { Form } from 'react-router'
import { Field, schemaMessage } from '#app/components/ui/field.tsx'
import type { FormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import type { Role } from './user.schema.ts'

// Listed here rather than imported with the schema, so the page's browser code carries no zod.
const roles: Role[] = ['admin', 'editor']

export interface Member {
	id: string
	name: string
	email: string
	role: Role
	active: boolean
}

function RoleSelect({
	id,
	label,
	defaultValue,
	error,
}: {
	id: string
	label: string
	defaultValue?: Role
	error?: string
}) {
	const errorId = error ? `${id}-error` : undefined
	const { t } = useLingui()
	return (
		<>
			<label htmlFor={id}>{label}</label>
			<select
				id={id}
				name="role"
				defaultValue={defaultValue ?? 'editor'}
				aria-invalid={error ? true : undefined}
				aria-describedby={errorId}
			>
				{roles.map((role) => (
					<option key={role} value={role}>
						{role === 'admin' ? t`Admin: everything` : t`Editor: articles and messages`}
					</option>
				))}
			</select>
			{error ? (
				<p id={errorId} className="field-error">
					{error}
				</p>
			) : null}
		</>
	)
}

export function InviteForm({
	busy,
	values,
	errors,
	guard,
}: {
	busy: boolean
	values?: { email?: string; name?: string; role?: string }
	errors: Record<string, string[] | undefined>
	/** Its leave guard (useFormLeaveGuard's `form`). */
	guard?: FormLeaveGuard['form']
}) {
	const { t, i18n } = useLingui()
	return (
		<Form method="post" className="form" aria-labelledby="invite-heading" {...guard}>
			<input type="hidden" name="intent" value="invite" />
			<Field
				name="email"
				label={t`Email address`}
				type="email"
				autoComplete="off"
				required
				defaultValue={values?.email}
				error={errors.email}
			/>
			<Field
				name="name"
				label={t`Name`}
				autoComplete="off"
				required
				maxLength={100}
				hint={t`They can change it when they accept.`}
				defaultValue={values?.name}
				error={errors.name}
			/>
			<RoleSelect
				id="invite-role"
				label={t`Role`}
				defaultValue={values?.role === 'admin' ? 'admin' : 'editor'}
				error={errors.role?.map((text) => schemaMessage(i18n, text)).join(' ')}
			/>
			<button type="submit" disabled={busy}>
				<Trans>Make an invite link</Trans>
			</button>
		</Form>
	)
}

/** A link shown once: the admin copies it and passes it on. */
export function OneTimeLink({ label, link, note }: { label: string; link: string; note: string }) {
	return (
		<div className="one-time-link" role="status">
			<Field
				name="one-time-link"
				label={label}
				readOnly
				value={link}
				hint={note}
				onFocus={(event) => event.currentTarget.select()}
			/>
		</div>
	)
}

export function MemberCard({
	member,
	isYou,
	error,
	busy,
}: {
	member: Member
	isYou: boolean
	error?: string
	busy: boolean
}) {
	const errorId = error ? `member-${member.id}-error` : undefined
	const { t } = useLingui()
	const memberName = member.name
	return (
		<li className="member" aria-describedby={errorId}>
			<h3>{isYou ? t`${memberName} (you)` : memberName}</h3>
			<p className="member-facts">
				<span>{member.email}</span>
				<span>{member.role === 'admin' ? t`Admin` : t`Editor`}</span>
				<span className={member.active ? 'status-active' : 'status-deactivated'}>
					{member.active ? t`Active` : t`Deactivated`}
				</span>
			</p>
			{error ? (
				<p id={errorId} role="alert" className="form-error">
					{error}
				</p>
			) : null}
			<div className="member-actions">
				<Form method="post" className="member-role">
					<input type="hidden" name="intent" value="role" />
					<input type="hidden" name="userId" value={member.id} />
					<RoleSelect
						id={`role-${member.id}`}
						label={t`Role of ${memberName}`}
						defaultValue={member.role}
					/>
					<button type="submit" disabled={busy}>
						<Trans>Change role</Trans>
					</button>
				</Form>
				{member.active ? (
					// Asks first: it signs them out everywhere at once (works without JavaScript).
					<details className="member-confirm">
						<summary>{t`Deactivate ${memberName}…`}</summary>
						<Form method="post">
							<input type="hidden" name="intent" value="deactivate" />
							<input type="hidden" name="userId" value={member.id} />
							<p>
								<Trans>
									{memberName} is signed out everywhere at once and cannot sign in until an admin
									reactivates the account. Their articles and profile stay.
								</Trans>
							</p>
							<button type="submit" disabled={busy} className="destructive">
								{t`Deactivate ${memberName}`}
							</button>
						</Form>
					</details>
				) : (
					<Form method="post">
						<input type="hidden" name="intent" value="reactivate" />
						<input type="hidden" name="userId" value={member.id} />
						<button type="submit" disabled={busy} className="secondary">
							{t`Reactivate ${memberName}`}
						</button>
					</Form>
				)}
				{member.active ? (
					<Form method="post">
						<input type="hidden" name="intent" value="reset-link" />
						<input type="hidden" name="userId" value={member.id} />
						<button type="submit" disabled={busy} className="secondary">
							<Trans>Make a password reset link for {memberName}</Trans>
						</button>
					</Form>
				) : null}
			</div>
		</li>
	)
}

export interface Invited {
	id: string
	email: string
	name: string
	role: Role
	expiresAt: string
}

/** Invites made and not yet taken up, each with a way to withdraw it; nothing when there are none. */
export function PendingInvites({ invites, busy }: { invites: Invited[]; busy: boolean }) {
	const { t } = useLingui()
	if (invites.length === 0) return null
	return (
		<>
			<h2>
				<Trans>Invited, not joined yet</Trans>
			</h2>
			<ul className="members invites">
				{invites.map((invite) => {
					const email = invite.email
					return (
						<li key={invite.id} className="member">
							<h3>{invite.name}</h3>
							<p className="member-facts">
								<span>{email}</span>
								<span>{invite.role === 'admin' ? t`Admin` : t`Editor`}</span>
								<span>
									<Trans>
										Link works until <LocalTime iso={invite.expiresAt} time />
									</Trans>
								</span>
							</p>
							<Form method="post" className="member-actions">
								<input type="hidden" name="intent" value="cancel-invite" />
								<input type="hidden" name="inviteId" value={invite.id} />
								<button type="submit" disabled={busy} className="secondary">
									<Trans>Cancel the invitation to {email}</Trans>
								</button>
							</Form>
						</li>
					)
				})}
			</ul>
		</>
	)
}
