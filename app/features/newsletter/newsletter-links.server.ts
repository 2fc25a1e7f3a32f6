// The links in newsletter mail: signed with a secret only the server knows, so no one can confirm,
// unsubscribe or change the preferences of an address that is not theirs, and no one signs in.
// A confirmation link expires; the links in every mail (unsubscribe, preferences) do not, as
// RFC 8058 expects the one-click unsubscribe of an old mail to keep working.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Storage } from '#storage/port/storage.ts'

export type LinkPurpose = 'confirm' | 'manage'

/** How long a confirmation link works. */
export const confirmValidDays = 7

const secrets = new WeakMap<Storage, Promise<string>>()

/** The signing secret: made once, kept in settings, the same on every instance. */
export function newsletterSecret(storage: Storage): Promise<string> {
	let secret = secrets.get(storage)
	if (!secret) {
		secret = storage.settings.setIfAbsent(
			'newsletter.secret',
			randomBytes(32).toString('base64url'),
		)
		secret.catch(() => secrets.delete(storage))
		secrets.set(storage, secret)
	}
	return secret
}

function mac(secret: string, payload: string): Buffer {
	return createHmac('sha256', secret).update(`newsletter:${payload}`).digest()
}

/** `<purpose>.<subscriber id>.<expiry in s, or 0>.<HMAC>`. */
export function signLink(
	secret: string,
	purpose: LinkPurpose,
	subscriberId: number,
	expiresAt?: Date,
): string {
	const expiry = expiresAt ? Math.floor(expiresAt.getTime() / 1000) : 0
	const payload = `${purpose}.${subscriberId}.${expiry}`
	return `${payload}.${mac(secret, payload).toString('base64url')}`
}

export type LinkCheck =
	| { ok: true; subscriberId: number }
	| { ok: false; reason: 'invalid' | 'expired' }

export function checkLink(
	secret: string,
	token: unknown,
	purpose: LinkPurpose,
	now: Date,
): LinkCheck {
	if (typeof token !== 'string') return { ok: false, reason: 'invalid' }
	const match = /^(confirm|manage)\.(\d{1,15})\.(\d{1,12})\.([\w-]{43})$/.exec(token)
	if (!match || match[1] !== purpose) return { ok: false, reason: 'invalid' }
	const payload = `${match[1]}.${match[2]}.${match[3]}`
	const given = Buffer.from(match[4] as string, 'base64url')
	if (!timingSafeEqual(given, mac(secret, payload))) return { ok: false, reason: 'invalid' }
	const expiry = Number(match[3])
	if (expiry !== 0 && expiry * 1000 < now.getTime()) return { ok: false, reason: 'expired' }
	return { ok: true, subscriberId: Number(match[2]) }
}

/** The addresses a subscriber's mail links to. */
export function subscriberLinks(secret: string, siteUrl: string, subscriberId: number) {
	const manage = encodeURIComponent(signLink(secret, 'manage', subscriberId))
	return {
		unsubscribe: new URL(`/newsletter/unsubscribe?token=${manage}`, siteUrl).toString(),
		preferences: new URL(`/newsletter/preferences?token=${manage}`, siteUrl).toString(),
	}
}

export function confirmLink(secret: string, siteUrl: string, subscriberId: number, now: Date) {
	const expires = new Date(now.getTime() + confirmValidDays * 24 * 60 * 60 * 1000)
	const token = encodeURIComponent(signLink(secret, 'confirm', subscriberId, expires))
	return new URL(`/newsletter/confirm?token=${token}`, siteUrl).toString()
}
