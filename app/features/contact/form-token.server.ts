// The contact form's token: when the form was rendered, and for which idempotency key, signed
// with a secret only the server knows. Robots tend to post at once, or post a form they never
// loaded; people take longer than a few seconds to write. Binding the key means a harvested
// token can store one message at most (the same key again stores nothing new).
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import type { Storage } from '#storage/port/storage.ts'

/**
 * By default, submissions sooner than this after the form was rendered are taken for a robot's
 * (CONTACT_FORM_MIN_SECONDS changes it).
 */
export const defaultMinimumFillMs = 3_000

export type TokenCheck = 'valid' | 'invalid' | 'too-fast'

const secrets = new WeakMap<Storage, Promise<string>>()

/** The signing secret: made once, kept in settings, the same on every instance. */
export function contactSecret(storage: Storage): Promise<string> {
	let secret = secrets.get(storage)
	if (!secret) {
		secret = storage.settings.setIfAbsent('contact.secret', randomBytes(32).toString('base64url'))
		secret.catch(() => secrets.delete(storage))
		secrets.set(storage, secret)
	}
	return secret
}

function mac(secret: string, renderedAt: number, idempotencyKey: string): Buffer {
	return createHmac('sha256', secret).update(`contact:${renderedAt}:${idempotencyKey}`).digest()
}

/** `<render time in ms>.<HMAC>`; exported so tests can make a form rendered in the past. */
export function signFormToken(secret: string, renderedAt: number, idempotencyKey: string): string {
	return `${renderedAt}.${mac(secret, renderedAt, idempotencyKey).toString('base64url')}`
}

export function checkFormToken(
	secret: string,
	token: unknown,
	idempotencyKey: string,
	now: number,
	minimumFillMs = defaultMinimumFillMs,
): TokenCheck {
	if (typeof token !== 'string') return 'invalid'
	const match = /^(\d{1,15})\.([\w-]{43})$/.exec(token)
	if (!match) return 'invalid'
	const renderedAt = Number(match[1])
	const expected = mac(secret, renderedAt, idempotencyKey)
	const given = Buffer.from(match[2] as string, 'base64url')
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid'
	return now - renderedAt < minimumFillMs ? 'too-fast' : 'valid'
}

export interface FormIdentity {
	idempotencyKey: string
	token: string
}

/** What a freshly rendered form carries: a new key and its token. */
export async function newFormIdentity(storage: Storage, now = Date.now()): Promise<FormIdentity> {
	const idempotencyKey = randomUUID()
	return { idempotencyKey, token: signFormToken(await contactSecret(storage), now, idempotencyKey) }
}
