// The first admin: on a start with no account, a one-time link (valid one hour) is printed to
// the log; /admin/setup?token=… makes the admin. The token is kept only as a SHA-256 in
// better-auth's verification table, and consumed atomically, so it works once.
import type { Storage } from '#storage/port/storage.ts'
import type { Auth } from './auth.server.ts'
import { consumeOneTimeLink, createOneTimeLink, readOneTimeLink } from './one-time-links.server.ts'
import { checkNewUser, countUsers, createUser, type FieldErrors } from './users.server.ts'

const validForMs = 60 * 60 * 1000

/** A fresh setup link when the site has no account yet; undefined otherwise. */
export async function createSetupLink(auth: Auth, siteUrl: string): Promise<string | undefined> {
	if ((await countUsers(auth)) > 0) return undefined
	return createOneTimeLink(auth, siteUrl, 'setup', 'first-admin', validForMs)
}

export type SetupState = 'open' | 'done' | 'invalid'

/** Whether this link can still make the first admin. */
export async function setupState(auth: Auth, token: string | null): Promise<SetupState> {
	if ((await countUsers(auth)) > 0) return 'done'
	return (await readOneTimeLink(auth, 'setup', token)) ? 'open' : 'invalid'
}

export type SetupResult =
	| { ok: true; email: string; password: string }
	| { ok: false; state: Exclude<SetupState, 'open'> }
	| { ok: false; state: 'open'; errors: FieldErrors }

export async function completeSetup(
	auth: Auth,
	storage: Storage,
	token: string | null,
	raw: Record<string, unknown>,
): Promise<SetupResult> {
	const state = await setupState(auth, token)
	if (state !== 'open' || !token) return { ok: false, state: state === 'open' ? 'invalid' : state }
	// Checked before the token is spent, so a typo does not cost the link.
	const checked = await checkNewUser({ ...raw, role: 'admin' })
	if (!checked.ok) return { ok: false, state: 'open', errors: checked.errors }
	if (!(await consumeOneTimeLink(auth, 'setup', token))) return { ok: false, state: 'invalid' }
	const created = await createUser(auth, storage, checked.user)
	if (!created.ok) return { ok: false, state: 'open', errors: created.errors }
	return { ok: true, email: checked.user.email, password: checked.user.password }
}
