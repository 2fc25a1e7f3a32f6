// The team, as admins manage it: accounts, roles, deactivation. Every change that could take
// away an admin runs in one transaction that first locks the active admins' rows, so two admins
// demoting each other at the same moment cannot leave the site with none.
import type { Kysely, Transaction } from 'kysely'
import { z } from 'zod'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { Database } from '#server/storage/schema.ts'
import type { Storage } from '#server/storage/types.ts'
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
	const rows = await storage.authDatabase.db
		.selectFrom('user')
		.select(['id', 'name', 'email', 'role', 'deactivatedAt'])
		.orderBy('name')
		.orderBy('email')
		.execute()
	return rows.map(toMember)
}

function toMember(row: {
	id: string
	name: string
	email: string
	role: string
	deactivatedAt: unknown
}): TeamMember {
	return {
		id: row.id,
		name: row.name,
		email: row.email,
		role: row.role as Role,
		active: row.deactivatedAt === null,
	}
}

const gone = 'That account no longer exists. Reload the page to see the team as it is now.'

type Change = { role: Role } | { active: boolean }

async function change(storage: Storage, userId: string, wanted: Change): Promise<TeamChange> {
	const { db, type } = storage.authDatabase
	return (db as Kysely<Database>).transaction().execute(async (trx) => {
		const admins = await activeAdmins(trx, type === 'postgres')
		const row = await trx
			.selectFrom('user')
			.select(['id', 'name', 'email', 'role', 'deactivatedAt'])
			.where('id', '=', userId)
			.executeTakeFirst()
		if (!row) return { ok: false, error: gone }
		const member = toMember(row)
		const losesAdmin =
			member.role === 'admin' &&
			member.active &&
			('role' in wanted ? wanted.role !== 'admin' : !wanted.active)
		if (losesAdmin && admins.every((id) => id === userId)) {
			return {
				ok: false,
				error: `${member.name} is the only active admin. Make someone else an admin first, so the site always has one.`,
			}
		}
		const now = new Date().toISOString()
		if ('role' in wanted) {
			await trx
				.updateTable('user')
				.set({ role: wanted.role, updatedAt: now })
				.where('id', '=', userId)
				.execute()
			return { ok: true, member: { ...member, role: wanted.role } }
		}
		await trx
			.updateTable('user')
			.set({ deactivatedAt: wanted.active ? null : now, updatedAt: now })
			.where('id', '=', userId)
			.execute()
		// Their sessions end with the same commit: the next request they make is signed out.
		if (!wanted.active) await trx.deleteFrom('session').where('userId', '=', userId).execute()
		return { ok: true, member: { ...member, active: wanted.active } }
	})
}

/** The active admins' ids, their rows locked until the transaction ends (PostgreSQL; SQLite's writes are serial anyway). */
async function activeAdmins(trx: Transaction<Database>, lock: boolean): Promise<string[]> {
	const query = trx
		.selectFrom('user')
		.select('id')
		.where('role', '=', 'admin')
		.where('deactivatedAt', 'is', null)
	return (await (lock ? query.forUpdate() : query).execute()).map((row) => row.id)
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
	const row = await storage.authDatabase.db
		.selectFrom('user')
		.select(['id', 'name', 'email', 'role', 'deactivatedAt'])
		.where('id', '=', userId)
		.executeTakeFirst()
	return row ? toMember(row) : undefined
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
