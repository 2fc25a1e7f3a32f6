// Accounts are created here, never by public sign-up: by the first-admin setup link
// (setup.server.ts), a team invite (invites.server.ts) or `npm run cli -- user:create`.
import { randomUUID } from 'node:crypto'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Auth } from './auth.server.ts'
import { passwordProblem } from './password.server.ts'
import { newUserSchema, type Role } from './user.schema.ts'

export interface NewUser {
	email: string
	name: string
	role: Role
	password: string
}

export type { FieldErrors }

/** Checks a new account's fields (the password against the rules too) without touching the database. */
export async function checkNewUser(
	raw: unknown,
): Promise<{ ok: true; user: NewUser } | { ok: false; errors: FieldErrors }> {
	const parsed = newUserSchema.safeParse(raw)
	const errors: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error)
	const password =
		typeof (raw as { password?: unknown })?.password === 'string'
			? (raw as { password: string }).password
			: ''
	const problem = await passwordProblem(password)
	if (problem) errors.password = [problem]
	if (!parsed.success || problem) return { ok: false, errors }
	return { ok: true, user: parsed.data }
}

export type CreateUserResult =
	| { ok: true; user: { id: string; email: string; name: string; role: Role } }
	| { ok: false; errors: FieldErrors }

export async function createUser(
	auth: Auth,
	storage: Storage,
	raw: unknown,
): Promise<CreateUserResult> {
	const checked = await checkNewUser(raw)
	if (!checked.ok) return checked
	const { email, name, role, password } = checked.user
	const context = await auth.$context
	const taken = {
		ok: false as const,
		errors: { email: ['There is already an account with this email address.'] },
	}
	if (await context.internalAdapter.findUserByEmail(email)) return taken
	const hash = await context.password.hash(password)
	const id = context.generateId({ model: 'user' }) || randomUUID()
	try {
		await storage.accounts.create(
			{ id, name, email, role },
			{ id: context.generateId({ model: 'account' }) || randomUUID(), passwordHash: hash },
			new Date(),
		)
	} catch (error) {
		// Someone else made an account with this address between the check and the insert.
		if (await context.internalAdapter.findUserByEmail(email)) return taken
		throw error
	}
	return { ok: true, user: { id, email, name, role } }
}

export async function countUsers(auth: Auth): Promise<number> {
	return (await auth.$context).internalAdapter.countTotalUsers()
}
