import { authSecret, openAuth } from '#app/features/auth/auth.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { StorageHandle } from '#storage/storage-handle.ts'

/**
 * Sign-in over this site's database: the server's and the CLI's. Call after storage.migrate():
 * better-auth checks its tables once, when it starts.
 */
export async function openSiteAuth(storage: StorageHandle, siteUrl: string, logger: Logger) {
	const secret = await authSecret(storage)
	return openAuth({ storage, database: storage.authDatabase, siteUrl, secret, logger })
}
