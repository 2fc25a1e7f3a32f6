// Accounts are created here, never by public sign-up: by the first-admin setup link
// (setup.server.ts), a team invite (to come) or `npm run cli -- user:create`.
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
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

export async function createUser(auth: Auth, raw: unknown): Promise<CreateUserResult> {
	const checked = await checkNewUser(raw)
	if (!checked.ok) return checked
	const { email, name, role, password } = checked.user
	const context = await auth.$context
	if (await context.internalAdapter.findUserByEmail(email)) {
		return {
			ok: false,
			errors: { email: ['There is already an account with this email address.'] },
		}
	}
	const user = await context.internalAdapter.createUser(
		{ email, name, role, emailVerified: false },
		{ method: 'admin' },
	)
	await context.internalAdapter.linkAccount({
		userId: user.id,
		providerId: 'credential',
		accountId: user.id,
		password: await context.password.hash(password),
	})
	return { ok: true, user: { id: user.id, email: user.email, name: user.name, role } }
}

export async function countUsers(auth: Auth): Promise<number> {
	return (await auth.$context).internalAdapter.countTotalUsers()
}
