// What better-auth does not do for sign-in by itself: a limit per account (its own limit counts
// per address, so a botnet could guess one account's password from many addresses), and a
// refusal for deactivated accounts that reads exactly like a wrong password.
import { createHash } from 'node:crypto'
import { createAuthMiddleware } from 'better-auth/api'
import type { Storage } from '#server/storage/types.ts'

export const accountAttempts = 5
export const accountWindowMs = 15 * 60 * 1000

/**
 * The counter for one account. Keyed by a hash of the address, so the counters table holds no
 * addresses, and an address with or without an account is counted the same way.
 */
export function signInLimitKey(email: string): string {
	return `sign-in:${emailHash(email)}`
}

export function emailHash(email: string): string {
	return createHash('sha256').update(email.trim().toLowerCase()).digest('hex')
}

/** The body better-auth's own per-address limit answers with, so both limits read the same. */
const tooManyBody = { message: 'Too many requests. Please try again later.' }
/** better-auth's wrong-password answer, word for word. */
const wrongPassword = { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }

export async function isDeactivated(storage: Storage, userId: string): Promise<boolean> {
	const row = await storage.authDatabase.db
		.selectFrom('user')
		.select('deactivatedAt')
		.where('id', '=', userId)
		.executeTakeFirst()
	return !row || row.deactivatedAt !== null
}

export function signInHooks(storage: Storage) {
	return {
		before: createAuthMiddleware(async (ctx) => {
			if (ctx.path !== '/sign-in/email') return
			const body = (ctx.body ?? {}) as { email?: unknown; password?: unknown }
			const email = typeof body.email === 'string' ? body.email : ''
			const hit = await storage.rateLimits.hit(
				signInLimitKey(email),
				accountAttempts,
				accountWindowMs,
			)
			// Answers are returned, not thrown: better-auth writes a thrown error to the console.
			if (!hit.allowed) {
				const seconds = String(Math.max(1, Math.ceil((hit.resetAt - Date.now()) / 1000)))
				return Response.json(tooManyBody, {
					status: 429,
					headers: { 'X-Retry-After': seconds, 'Retry-After': seconds },
				})
			}
			const found = await ctx.context.internalAdapter.findUserByEmail(email.trim().toLowerCase())
			if (found && (found.user as { deactivatedAt?: unknown }).deactivatedAt) {
				// Hash as a wrong password would be checked, so the answer takes as long too.
				await ctx.context.password.hash(typeof body.password === 'string' ? body.password : '')
				return Response.json(wrongPassword, { status: 401 })
			}
		}),
		after: createAuthMiddleware(async (ctx) => {
			// The account's owner got in: earlier mistakes no longer count against them.
			if (ctx.path !== '/sign-in/email' || !ctx.context.newSession) return
			await storage.rateLimits.clear(signInLimitKey(ctx.context.newSession.user.email))
		}),
	}
}
