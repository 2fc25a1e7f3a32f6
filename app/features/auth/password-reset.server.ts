// Password reset by a one-time link (valid one hour): mailed to the account when SMTP_URL is set,
// otherwise made by an admin on the team page and passed on by them. better-auth's own reset
// endpoints are not used: they await the mail (its timing would reveal which addresses have
// accounts) and keep the token as it is.
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type Auth, clientIpHeader } from './auth.server.ts'
import { type AccountMailServices, queueAccountMail } from './mail.server.ts'
import { consumeOneTimeLink, createOneTimeLink, readOneTimeLink } from './one-time-links.server.ts'
import { passwordProblem } from './password.server.ts'
import { addressLimitKey, emailHash, signInLimitKey } from './sign-in-guard.server.ts'
import { newUserSchema } from './user.schema.ts'

const validForMs = 60 * 60 * 1000

/** The address a reset is asked for, in the form accounts are kept in; undefined when not an address. */
export function parseResetEmail(raw: string): string | undefined {
	const parsed = newUserSchema.shape.email.safeParse(raw)
	return parsed.success ? parsed.data : undefined
}

export function createResetLink(auth: Auth, siteUrl: string, userId: string): Promise<string> {
	return createOneTimeLink(auth, siteUrl, 'reset', userId, validForMs)
}

interface MailServices extends AccountMailServices {
	auth: Auth
	siteUrl: string
	logger: Logger
}

/**
 * Mails a reset link when the address belongs to an active account. Returns at once and does the
 * work afterwards (the lookup, the link, queueing the mail), so the answer takes as long whether
 * or not there is an account: for an unknown address nothing is queued, and nothing the visitor
 * waits for differs. The mail itself goes out from the outbox, retried if the server refuses it.
 */
export function mailResetLinkLater(services: MailServices, email: string): void {
	const { auth, siteUrl, logger } = services
	const work = async () => {
		const found = await (await auth.$context).internalAdapter.findUserByEmail(email)
		const user = found?.user as { id: string; email: string; deactivatedAt?: unknown } | undefined
		if (!user || user.deactivatedAt) return
		const link = await createResetLink(auth, siteUrl, user.id)
		await queueAccountMail(services, {
			kind: 'password-reset',
			to: user.email,
			subject: 'Choose a new password for Canopy',
			text: [
				'Someone (we hope you) asked to reset the password of your Canopy account.',
				'',
				`Choose a new password here within the next hour: ${link}`,
				'',
				'If it was not you, ignore this message: your password stays as it is.',
			].join('\n'),
		})
	}
	work().catch((error: unknown) =>
		logger.error('password reset: could not make or queue a link', { error }),
	)
}

/** Whether a reset link still works. */
export async function resetLinkWorks(auth: Auth, token: string | null): Promise<boolean> {
	return (await readOneTimeLink(auth, 'reset', token)) !== undefined
}

export type ResetResult =
	| { ok: true }
	| { ok: false; state: 'invalid' }
	| { ok: false; state: 'open'; error: string }

/**
 * Sets the new password from a reset link, opened from `clientIp` (the visitor's address as the
 * server resolved it; empty where none could be).
 */
export async function resetPassword(
	auth: Auth,
	storage: Storage,
	token: string | null,
	password: string,
	clientIp = '',
): Promise<ResetResult> {
	if (!(await resetLinkWorks(auth, token))) return { ok: false, state: 'invalid' }
	// Checked before the link is spent, so a typo does not cost it.
	const problem = await passwordProblem(password)
	if (problem) return { ok: false, state: 'open', error: problem }
	const userId = await consumeOneTimeLink(auth, 'reset', token)
	if (!userId) return { ok: false, state: 'invalid' }
	const context = await auth.$context
	const user = await context.internalAdapter.findUserById(userId)
	if (!user) return { ok: false, state: 'invalid' }
	const hash = await context.password.hash(password)
	// Whoever was signed in as them (perhaps the reason for the reset) is signed out.
	await storage.accounts.setPassword(userId, hash, new Date())
	// Proven the owner: earlier failed sign-ins no longer hold them back, neither the account's
	// count nor that of the address they reset from (their guesses filled both). Only the holder
	// of a working link can do this, and the other accounts' own counts still hold.
	await storage.rateLimits.clear(signInLimitKey(user.email))
	const headers = new Headers(clientIp ? { [clientIpHeader]: clientIp } : {})
	await context.adapter.deleteMany({
		model: 'rateLimit',
		where: [{ field: 'key', value: addressLimitKey(headers, context.options) }],
	})
	return { ok: true }
}

const requestAttempts = 5
const requestWindowMs = 15 * 60 * 1000

/**
 * Counts a reset request against the visitor's address and against the address asked about
 * (whether or not it has an account); the seconds to wait when either is over its limit.
 */
export async function resetRequestWait(
	storage: Storage,
	clientIp: string,
	email: string,
): Promise<number | undefined> {
	const hits = await Promise.all([
		storage.rateLimits.hit(`reset-ip:${clientIp}`, requestAttempts, requestWindowMs),
		storage.rateLimits.hit(`reset:${emailHash(email)}`, requestAttempts, requestWindowMs),
	])
	const refused = hits.filter((hit) => !hit.allowed)
	if (refused.length === 0) return undefined
	const resetAt = Math.max(...refused.map((hit) => hit.resetAt))
	return Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))
}
