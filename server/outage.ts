// How Canopy answers while its database cannot be reached: 503 with Retry-After and a message
// written for whoever asked, at once, never a hang, a 500 or a stack trace. Storage throws
// StorageUnavailable (storage/port/unavailable.ts); this turns it into the answer, for React
// Router's loaders, actions and middleware (every route at once, here) and for the endpoints
// Hono answers itself (app.onError). Pages the whole-page cache holds are still served from
// memory. See docs/decisions/016-database-outages.md.
import type { MiddlewareFunction, ServerBuild } from 'react-router'
import { type StorageHealth, StorageUnavailable, storageOutage } from '#storage/port/unavailable.ts'

export interface OutageBody {
	error: string
	retryAfterSeconds: number
}

export function outageMessage(retryAfterSeconds: number): string {
	const wait = retryAfterSeconds === 1 ? 'a second' : `${retryAfterSeconds} seconds`
	return `The site cannot reach its database just now, so this request could not be completed. Nothing is wrong on your side: please try again in ${wait}.`
}

/** The 503 itself: JSON with the message and the wait, which the page's error boundary shows too. */
export function outageResponse(outage: StorageUnavailable): Response {
	const seconds = outage.retryAfterSeconds
	const body: OutageBody = { error: outageMessage(seconds), retryAfterSeconds: seconds }
	return Response.json(body, {
		status: 503,
		headers: { 'Retry-After': String(seconds), 'Cache-Control': 'no-store' },
	})
}

/**
 * The outage `error` comes from: a StorageUnavailable, or, while the database is known to be
 * away, whatever a library made of one. (better-auth turns any failure into its own "internal
 * server error", without the cause.)
 */
export function outageOf(error: unknown, health?: StorageHealth): StorageUnavailable | undefined {
	const outage = storageOutage(error)
	if (outage || !health || health.available) return outage
	return new StorageUnavailable('The database cannot be reached just now.', {
		retryAfterSeconds: health.retryAfterSeconds,
		cause: error,
	})
}

type Handler = (args: never, ...rest: never[]) => unknown

/** A loader, action or middleware whose StorageUnavailable is thrown on as the 503 response. */
function answering<F extends Handler>(handler: F, health: StorageHealth): F {
	return (async (...args: Parameters<F>) => {
		try {
			return await (handler as (...a: Parameters<F>) => unknown)(...args)
		} catch (error) {
			const outage = outageOf(error, health)
			// A thrown Response is a resource route's answer as is, and a page's error boundary's
			// route error (status 503, the body as its data).
			throw outage ? outageResponse(outage) : error
		}
	}) as F
}

const answered = new WeakMap<ServerBuild, ServerBuild>()

/** The build with every route's loader, action and middleware answering an outage with a 503. */
export function answerOutages(build: ServerBuild, health: StorageHealth): ServerBuild {
	const known = answered.get(build)
	if (known) return known
	const routes: ServerBuild['routes'] = {}
	for (const [id, route] of Object.entries(build.routes)) {
		if (!route) continue
		const { loader, action, middleware } = route.module
		routes[id] = {
			...route,
			module: {
				...route.module,
				...(loader && { loader: answering(loader, health) }),
				...(action && { action: answering(action, health) }),
				...(middleware && {
					middleware: middleware.map((fn) => answering(fn, health) as MiddlewareFunction<Response>),
				}),
			},
		}
	}
	const wrapped = { ...build, routes }
	answered.set(build, wrapped)
	return wrapped
}
