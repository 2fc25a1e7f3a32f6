// One-time links (first-admin setup, team invites, password resets): a random token goes into
// the link and only its SHA-256 into better-auth's verification table, so the database never
// holds a token that works. Consumed atomically, so a link works once even when two requests
// race for it.
import { createHash, randomBytes } from 'node:crypto'
import type { Auth } from './auth.server.ts'

export type LinkKind = 'setup' | 'invite' | 'reset'

export const linkPaths: Record<LinkKind, string> = {
	setup: '/admin/setup',
	invite: '/admin/invite',
	reset: '/admin/reset-password',
}

/** What every stored link of a kind starts with. */
export function linkPrefix(kind: LinkKind): string {
	return `canopy-${kind}:`
}

export function linkIdentifier(kind: LinkKind, token: string): string {
	return `${linkPrefix(kind)}${createHash('sha256').update(token).digest('hex')}`
}

/** Makes a link carrying `value` (what the link is for), valid for `validForMs`. */
export async function createOneTimeLink(
	auth: Auth,
	siteUrl: string,
	kind: LinkKind,
	value: string,
	validForMs: number,
): Promise<string> {
	const token = randomBytes(32).toString('base64url')
	await (await auth.$context).internalAdapter.createVerificationValue({
		identifier: linkIdentifier(kind, token),
		value,
		expiresAt: new Date(Date.now() + validForMs),
	})
	return new URL(`${linkPaths[kind]}?token=${token}`, siteUrl).toString()
}

/** What a link is for, while it still works; without spending it. */
export async function readOneTimeLink(
	auth: Auth,
	kind: LinkKind,
	token: string | null,
): Promise<string | undefined> {
	if (!token) return undefined
	const found = await (await auth.$context).internalAdapter.findVerificationValue(
		linkIdentifier(kind, token),
	)
	return found && found.expiresAt.getTime() > Date.now() ? found.value : undefined
}

/** Spends the link: what it was for, to exactly one caller; undefined once used or expired. */
export async function consumeOneTimeLink(
	auth: Auth,
	kind: LinkKind,
	token: string | null,
): Promise<string | undefined> {
	if (!token) return undefined
	const consumed = await (await auth.$context).internalAdapter.consumeVerificationValue(
		linkIdentifier(kind, token),
	)
	return consumed?.value
}
