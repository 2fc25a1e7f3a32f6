// Team invites: an admin names the person and their role; the one-time link (valid 7 days) lets
// that person choose their password and become an account. Nothing exists until they do, so an
// unused invite leaves no account without a password behind.
import { z } from 'zod'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Auth } from './auth.server.ts'
import {
	consumeOneTimeLink,
	createOneTimeLink,
	linkPrefix,
	readOneTimeLink,
} from './one-time-links.server.ts'
import { newUserSchema, roles } from './user.schema.ts'
import { checkNewUser, createUser } from './users.server.ts'

export const inviteValidDays = 7
const validForMs = inviteValidDays * 24 * 60 * 60 * 1000

export const inviteSchema = newUserSchema.pick({ email: true, name: true, role: true })
export type Invite = z.infer<typeof inviteSchema>

const storedInvite = z.object({ email: z.string(), name: z.string(), role: z.enum(roles) })

export type CreateInviteResult =
	| { ok: true; invite: Invite; link: string }
	| { ok: false; errors: FieldErrors }

export async function createInvite(
	auth: Auth,
	siteUrl: string,
	raw: unknown,
): Promise<CreateInviteResult> {
	const parsed = inviteSchema.safeParse(raw)
	if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) }
	const invite = parsed.data
	if (await (await auth.$context).internalAdapter.findUserByEmail(invite.email)) {
		return {
			ok: false,
			errors: { email: ['There is already an account with this email address.'] },
		}
	}
	// One live invite per address: asked again (the mail was lost, the role was wrong), the new
	// link replaces the earlier one.
	for (const earlier of await listPendingInvites(auth))
		if (earlier.email === invite.email) await cancelInvite(auth, earlier.id)
	const link = await createOneTimeLink(auth, siteUrl, 'invite', JSON.stringify(invite), validForMs)
	return { ok: true, invite, link }
}

export interface PendingInvite extends Invite {
	id: string
	/** Until when its link works. */
	expiresAt: string
}

interface VerificationRow {
	id: string
	identifier: string
	value: string
	expiresAt: Date
}

/** At most this many invites are listed (better-auth reads 100 when not told). */
const listedInvites = 1_000

/** A stored invite row as the page shows it; undefined when its link no longer works. */
function pendingInvite(row: VerificationRow, now: number): PendingInvite | undefined {
	if (row.expiresAt.getTime() <= now) return undefined
	const invite = storedInvite.safeParse(safeJson(row.value))
	return invite.success
		? { ...invite.data, id: row.id, expiresAt: row.expiresAt.toISOString() }
		: undefined
}

const isInvite = {
	field: 'identifier',
	operator: 'starts_with',
	value: linkPrefix('invite'),
} as const

/** Invites whose link still works and has not been used, the newest first. */
export async function listPendingInvites(auth: Auth): Promise<PendingInvite[]> {
	const rows = await (await auth.$context).adapter.findMany<VerificationRow>({
		model: 'verification',
		where: [isInvite, { field: 'expiresAt', operator: 'gt', value: new Date() }],
		sortBy: { field: 'expiresAt', direction: 'desc' },
		limit: listedInvites,
	})
	const now = Date.now()
	return rows.flatMap((row) => pendingInvite(row, now) ?? [])
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text)
	} catch {
		return undefined
	}
}

/** Withdraws an unused invite: its link stops working. The invite, or undefined if it was gone. */
export async function cancelInvite(auth: Auth, id: string): Promise<PendingInvite | undefined> {
	const { adapter } = await auth.$context
	// Only an invite's row: never another one-time link's (a password reset's), whatever id is sent.
	const where = [{ field: 'id', value: id }, isInvite]
	const row = await adapter.findOne<VerificationRow>({ model: 'verification', where })
	const invite = row ? pendingInvite(row, Date.now()) : undefined
	if (!invite) return undefined
	await adapter.delete({ model: 'verification', where })
	return invite
}

/** Who the invite is for, while its link still works. */
export async function readInvite(auth: Auth, token: string | null): Promise<Invite | undefined> {
	const value = await readOneTimeLink(auth, 'invite', token)
	return value ? storedInvite.parse(JSON.parse(value)) : undefined
}

export type AcceptInviteResult =
	| { ok: true; email: string; password: string }
	| { ok: false; state: 'invalid' }
	| { ok: false; state: 'open'; errors: FieldErrors }

export async function acceptInvite(
	auth: Auth,
	storage: Storage,
	token: string | null,
	raw: { name: string; password: string },
): Promise<AcceptInviteResult> {
	const invite = await readInvite(auth, token)
	if (!invite) return { ok: false, state: 'invalid' }
	// Checked before the link is spent, so a typo does not cost it.
	const checked = await checkNewUser({ ...invite, name: raw.name, password: raw.password })
	if (!checked.ok) return { ok: false, state: 'open', errors: checked.errors }
	if (!(await consumeOneTimeLink(auth, 'invite', token))) return { ok: false, state: 'invalid' }
	const created = await createUser(auth, storage, checked.user)
	if (!created.ok) {
		// The address got an account some other way since the invite was made.
		return { ok: false, state: 'invalid' }
	}
	return { ok: true, email: checked.user.email, password: checked.user.password }
}
