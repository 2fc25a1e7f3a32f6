// The team, as admins manage it: accounts, roles, deactivation. The rule that the site keeps an
// active admin is here; storage.accounts.change applies it inside the transaction that locks the
// active admins' rows, so two admins demoting each other at the same moment cannot leave none.
import { z } from 'zod'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { AccountRecord } from '#storage/port/accounts.ts'
import type { Storage } from '#storage/port/storage.ts'
import { inviteSchema } from './invites.server.ts'
import { type Role, roles } from './user.schema.ts'

export interface TeamMember {
	id: string
	name: string
	email: string
	role: Role
	active: boolean
}

export type TeamChange = { ok: true; member: TeamMember } | { ok: false; error: string }

export async function listTeam(storage: Storage): Promise<TeamMember[]> {
	return (await storage.accounts.list()).map(toMember)
}

function toMember(account: AccountRecord): TeamMember {
	return {
		id: account.id,
		name: account.name,
		email: account.email,
		role: account.role as Role,
		active: account.deactivatedAt === null,
	}
}

const gone = 'That account no longer exists. Reload the page to see the team as it is now.'

type Change = { role: Role } | { active: boolean }

/** The site always keeps an active admin: the one left cannot be demoted or deactivated. */
function keepsAnAdmin(userId: string, wanted: Change) {
	return (account: AccountRecord, activeAdminIds: string[]): string | null => {
		const member = toMember(account)
		const losesAdmin =
			member.role === 'admin' &&
			member.active &&
			('role' in wanted ? wanted.role !== 'admin' : !wanted.active)
		if (losesAdmin && activeAdminIds.every((id) => id === userId))
			return `${member.name} is the only active admin. Make someone else an admin first, so the site always has one.`
		return null
	}
}

async function change(storage: Storage, userId: string, wanted: Change): Promise<TeamChange> {
	// Judged inside the storage's transaction, on the admins as committed (two admins demoting
	// each other at the same moment cannot leave the site with none).
	const result = await storage.accounts.change(
		userId,
		wanted,
		keepsAnAdmin(userId, wanted),
		new Date(),
	)
	if (result.ok) return { ok: true, member: toMember(result.account) }
	return { ok: false, error: result.reason === 'missing' ? gone : result.message }
}

export function changeRole(storage: Storage, userId: string, role: Role): Promise<TeamChange> {
	return change(storage, userId, { role })
}

export async function setActive(
	storage: Storage,
	actorId: string,
	userId: string,
	active: boolean,
): Promise<TeamChange> {
	if (!active && actorId === userId) {
		return {
			ok: false,
			error: 'You cannot deactivate your own account. Another admin can, if it is needed.',
		}
	}
	return change(storage, userId, { active })
}

export async function findMember(
	storage: Storage,
	userId: string,
): Promise<TeamMember | undefined> {
	const account = await storage.accounts.find(userId)
	return account ? toMember(account) : undefined
}

const userIdField = z.string().min(1, 'Choose an account.')
/** The team page's form posts, told apart by `intent`. */
const teamActionSchema = z.discriminatedUnion('intent', [
	inviteSchema.extend({ intent: z.literal('invite') }),
	z.object({
		intent: z.literal('role'),
		userId: userIdField,
		role: z.enum(roles, { error: 'The role must be admin or editor.' }),
	}),
	z.object({ intent: z.literal('deactivate'), userId: userIdField }),
	z.object({ intent: z.literal('reactivate'), userId: userIdField }),
	z.object({ intent: z.literal('reset-link'), userId: userIdField }),
	z.object({ intent: z.literal('cancel-invite'), inviteId: z.string().min(1).max(100) }),
])
const intents: string[] = teamActionSchema.options.map((option) => option.shape.intent.value)

export type TeamAction = z.infer<typeof teamActionSchema>

export function parseTeamAction(
	values: Record<string, string>,
): { ok: true; input: TeamAction } | { ok: false; errors: FieldErrors } {
	const parsed = teamActionSchema.safeParse(values)
	if (parsed.success) return { ok: true, input: parsed.data }
	return {
		ok: false,
		errors: intents.includes(values.intent ?? '')
			? fieldErrors(parsed.error)
			: { form: ['That action is not known. Reload the page and try again.'] },
	}
}
