// Typed request context (React Router middleware is always on): what loaders and actions reach
// the server's parts through. The server gets these keys from the built entry module, so both
// sides share one module instance.
import { createContext, RouterContextProvider } from 'react-router'
import type { Logger } from '#server/logger.ts'
import type { Storage } from '#server/storage/types.ts'

export interface AppServices {
	storage: Storage
	logger: Logger
	/** The public origin, e.g. https://example.org: canonical URLs, feeds, sitemaps. */
	siteUrl: string
}

export const servicesContext = createContext<AppServices>()
export const nonceContext = createContext<string>('')

export function createLoadContext(services: AppServices, nonce: string): RouterContextProvider {
	const context = new RouterContextProvider()
	context.set(servicesContext, services)
	context.set(nonceContext, nonce)
	return context
}
