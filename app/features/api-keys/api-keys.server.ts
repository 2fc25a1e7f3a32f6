// Keys for the admin API, and who is calling it: a key an admin made, or a signed-in session.
import { createHash, randomBytes } from 'node:crypto'
import type { RouterContextProvider } from 'react-router'
import { getEditor } from '#app/features/auth/session.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { ApiKeyRecord } from '#storage/port/accounts.ts'
import type { Storage } from '#storage/port/storage.ts'

/** Marks a string as a Canopy key, so it is easy to spot in a leaked file or a secret scanner. */
export const apiKeyMarker = 'cnp_'
const displayPrefixLength = 12

export interface ApiCaller {
	userId: string
	name: string
	via: 'key' | 'session'
}

export function hashApiKey(key: string): string {
	return createHash('sha256').update(key).digest('hex')
}

/** Makes a key. The key itself is returned once, here; only its hash is stored. */
export async function createApiKey(
	storage: Storage,
	options: { name: string; createdBy: string },
): Promise<{ key: string; record: ApiKeyRecord }> {
	const key = `${apiKeyMarker}${randomBytes(32).toString('base64url')}`
	const record = await storage.apiKeys.create({
		name: options.name,
		keyHash: hashApiKey(key),
		prefix: key.slice(0, displayPrefixLength),
		createdBy: options.createdBy,
	})
	return { key, record }
}

export function listApiKeys(storage: Storage): Promise<ApiKeyRecord[]> {
	return storage.apiKeys.list()
}

/** False when there is no such key or it was revoked already. */
export function revokeApiKey(storage: Storage, id: number): Promise<boolean> {
	return storage.apiKeys.revoke(id)
}

/** The account behind a key, while it exists and has not been deactivated. */
async function activeUser(
	storage: Storage,
	userId: string,
): Promise<{ id: string; name: string } | undefined> {
	// better-auth does not know the deactivatedAt column, so its adapter cannot be asked.
	const row = await storage.accounts.find(userId)
	return row && !row.deactivatedAt ? { id: row.id, name: row.name } : undefined
}

function unauthorized(message: string, invalidToken: boolean): Response {
	const challenge = invalidToken
		? 'Bearer realm="Canopy admin API", error="invalid_token"'
		: 'Bearer realm="Canopy admin API"'
	return Response.json(
		{ error: message },
		{ status: 401, headers: { 'WWW-Authenticate': challenge, 'Cache-Control': 'no-store' } },
	)
}

/**
 * Who is calling the admin API: the holder of a live key (`Authorization: Bearer cnp_…`), else a
 * signed-in editor's session. Anyone else gets the 401 answer to return as it is.
 *
 * A session request that changes something has passed the server's Origin check already, so a
 * cookie cannot be used from another site; a key is never sent by a browser on its own, so
 * cross-site request forgery does not reach that path.
 */
export async function authenticateApiRequest(
	context: Readonly<RouterContextProvider>,
	request: Request,
): Promise<ApiCaller | Response> {
	const { storage } = context.get(servicesContext)
	const authorization = request.headers.get('authorization')
	if (authorization !== null) {
		const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1]
		if (!key?.startsWith(apiKeyMarker)) {
			return unauthorized(
				'Send the API key as "Authorization: Bearer cnp_…". An admin makes keys in /admin/api-keys.',
				true,
			)
		}
		// Looked up by its SHA-256: comparing hashes in the database leaks nothing useful through
		// timing, since learning a prefix of the hash does not help anyone forge the key.
		// biome-ignore lint/correctness/useHookAtTopLevel: a storage method, not a React hook
		const record = await storage.apiKeys.useByHash(hashApiKey(key))
		const user = record && (await activeUser(storage, record.createdBy))
		if (!user) {
			return unauthorized(
				'This API key is unknown, revoked, or belongs to an account that no longer works. Ask an admin for a new key.',
				true,
			)
		}
		return { userId: user.id, name: user.name, via: 'key' }
	}
	const editor = await getEditor(context, request)
	const user = editor && (await activeUser(storage, editor.id))
	if (!user) {
		return unauthorized(
			'Sign in to the editor area, or send an API key as "Authorization: Bearer cnp_…".',
			false,
		)
	}
	return { userId: user.id, name: user.name, via: 'session' }
}
