// What better-auth does not do for sign-in by itself: a limit per account (its own limit counts
// per address, so a botnet could guess one account's password from many addresses), and a
// refusal for deactivated accounts that reads exactly like a wrong password.
//
// The account's limit must not lock its owner out (anyone can make five wrong guesses). A browser
// that has signed in to the account before carries a device cookie (OWASP's "device cookies"):
// signed, naming the account, kept a year. Its attempts for that account are counted per device
// instead, so strangers' guesses never hold it back, and its own guesses are still limited. See
// docs/decisions/021-hostile-input.md.
import { createHash, randomBytes } from 'node:crypto'
import { createAuthMiddleware, getIP } from 'better-auth/api'
import type { Storage } from '#storage/port/storage.ts'

export const accountAttempts = 5
export const accountWindowMs = 15 * 60 * 1000
/** A known device's own limit for its account, in the same window. */
export const deviceAttempts = 10
export const deviceCookieName = 'device'
const deviceCookieMaxAge = 365 * 24 * 60 * 60

/** The counter for one known device's attempts at one account. */
export function deviceLimitKey(device: string): string {
	return `sign-in-device:${createHash('sha256').update(device).digest('hex')}`
}

/** What of better-auth's request context reading the device cookie takes. */
interface CookieContext {
	getSignedCookie(name: string, secret: string): Promise<string | false | null>
	context: { secret: string; createAuthCookie(name: string): { name: string } }
}

/** The device id of a valid device cookie for this address, or undefined. */
async function knownDevice(ctx: CookieContext, email: string): Promise<string | undefined> {
	const cookie = ctx.context.createAuthCookie(deviceCookieName)
	const value = await ctx.getSignedCookie(cookie.name, ctx.context.secret)
	if (!value) return undefined
	const [account, device] = value.split('.')
	return account === emailHash(email) && device ? device : undefined
}

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
	const account = await storage.accounts.find(userId)
	return !account || account.deactivatedAt !== null
}

/** What of better-auth's request context giving an attempt back to its address takes. */
interface RefundContext {
	request?: Request | undefined
	headers?: Headers | undefined
	context: {
		options: Parameters<typeof getIP>[1]
		adapter: {
			incrementOne(data: {
				model: string
				where: { field: string; value: string | number; operator?: 'gt' }[]
				increment: Record<string, number>
			}): Promise<unknown>
		}
	}
}

/**
 * better-auth's key for the sign-in attempts from one address (`createRateLimitKey`): the address
 * as its limiter resolves it, a bar, the path.
 */
export function addressLimitKey(headers: Headers, options: Parameters<typeof getIP>[1]): string {
	return `${getIP(headers, options) ?? 'no-trusted-ip'}|/sign-in/email`
}

/**
 * better-auth's limit per address counts every sign-in, right or wrong: five colleagues signing in
 * from one office address within 15 minutes locked out the sixth. A sign-in that got in gives its
 * count back, so the limit counts only mistakes, as the account's own limit does.
 */
async function refundAddressAttempt(ctx: RefundContext): Promise<void> {
	const headers = ctx.request?.headers ?? ctx.headers
	if (!headers) return
	await ctx.context.adapter.incrementOne({
		model: 'rateLimit',
		where: [
			{ field: 'key', value: addressLimitKey(headers, ctx.context.options) },
			{ field: 'count', operator: 'gt', value: 0 },
		],
		increment: { count: -1 },
	})
}

export function signInHooks(storage: Storage) {
	return {
		before: createAuthMiddleware(async (ctx) => {
			if (ctx.path !== '/sign-in/email') return
			const body = (ctx.body ?? {}) as { email?: unknown; password?: unknown }
			const email = typeof body.email === 'string' ? body.email : ''
			const device = await knownDevice(ctx, email)
			const hit = device
				? await storage.rateLimits.hit(deviceLimitKey(device), deviceAttempts, accountWindowMs)
				: await storage.rateLimits.hit(signInLimitKey(email), accountAttempts, accountWindowMs)
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
			// The account's owner got in: the mistakes counted where this attempt was counted no
			// longer count against them (a known device's own, or the account's from unknown
			// browsers), and this browser is a known device of the account from now on.
			if (ctx.path !== '/sign-in/email' || !ctx.context.newSession) return
			const { email } = ctx.context.newSession.user
			await refundAddressAttempt(ctx)
			const known = await knownDevice(ctx, email)
			await storage.rateLimits.clear(known ? deviceLimitKey(known) : signInLimitKey(email))
			const device = known ?? randomBytes(16).toString('base64url')
			const cookie = ctx.context.createAuthCookie(deviceCookieName, { maxAge: deviceCookieMaxAge })
			await ctx.setSignedCookie(
				cookie.name,
				`${emailHash(email)}.${device}`,
				ctx.context.secret,
				cookie.attributes,
			)
		}),
	}
}
