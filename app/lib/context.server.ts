// Typed request context (React Router middleware is always on): what loaders and actions reach
// the server's parts through. The server gets these keys from the built entry module, so both
// sides share one module instance.
import { createContext, RouterContextProvider } from 'react-router'
import type { Auth } from '#app/features/auth/auth.server.ts'
import type { MoveInStarter } from '#app/features/import/move-in-starter.ts'
import type { ConfigService } from '#app/features/remote-config/config.server.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Logger } from './logger.ts'

export interface AppServices {
	storage: Storage
	logger: Logger
	auth: Auth
	/** The public origin, e.g. https://example.org: canonical URLs, feeds, sitemaps. */
	siteUrl: string
	/** Where mail goes out (through the outbox); empty when mail is not set up. */
	smtpUrl: string
	/** Sends queued mail now rather than at the outbox's next tick: call after queueing mail. */
	wakeMailOutbox: () => void
	/** Makes a new image's versions now rather than at the job's next tick: call after storing one. */
	wakeImageVersions: () => void
	/** The remote configuration: the values each request gets. */
	remoteConfig: ConfigService
	/** How long a contact form must have been open before a message from it counts (ms). */
	contactMinimumFillMs: number
	/** The largest image upload taken, in bytes (UPLOAD_MAX_MB). */
	uploadMaxBytes: number
	/** The most pixels an uploaded image may have (UPLOAD_MAX_MEGAPIXELS). */
	uploadMaxPixels: number
	/** Starts an import from Ghost or WordPress in a process of its own (the moving-in page). */
	moveIn: MoveInStarter
}

/** What belongs to one request. */
export interface RequestInfo {
	nonce: string
	/** The visitor's address: the socket's, or a TRUST_PROXY-named proxy's report of it. */
	clientIp: string
}

export const servicesContext = createContext<AppServices>()
export const nonceContext = createContext<string>('')
export const clientIpContext = createContext<string>('')

export function createLoadContext(
	services: AppServices,
	request: RequestInfo,
): RouterContextProvider {
	const context = new RouterContextProvider()
	context.set(servicesContext, services)
	context.set(nonceContext, request.nonce)
	context.set(clientIpContext, request.clientIp)
	return context
}
