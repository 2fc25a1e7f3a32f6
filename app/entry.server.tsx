import { isbot } from 'isbot'
import { renderToReadableStream } from 'react-dom/server'
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from 'react-router'
import { isRouteErrorResponse, ServerRouter } from 'react-router'
import { nonceContext, servicesContext } from './lib/context.server.ts'
// Every language's messages, held from the start (app/lib/i18n.ts).
import './lib/i18n-catalogs.server.ts'
import { NonceProvider } from './lib/nonce.tsx'
import { renderDeadline } from './lib/render-deadline.server.ts'

// The server takes these from the built entry, so the request handler, the context class and
// the context keys all come from one module graph (in development Vite loads its own copy).
export { createRequestHandler } from 'react-router'
export { createLoadContext } from './lib/context.server.ts'
/**
 * The newsletter's renderers, for the server's delivery job, which cannot import JSX itself;
 * loaded with the first mail (React Email and its HTML-to-text), not at the server's start.
 */
export const loadNewsletterMails = () => import('./features/newsletter/newsletter-mail.tsx')

export const streamTimeout = 5_000

/**
 * A route that failed because the database is away throws a 503 whose data says how long to wait
 * (server/outage.ts): the page carries it as Retry-After, and no cache keeps the page.
 */
function databaseOutage(errors: Record<string, unknown> | null | undefined) {
	for (const error of Object.values(errors ?? {})) {
		if (!isRouteErrorResponse(error) || error.status !== 503) continue
		const seconds = (error.data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds
		if (typeof seconds === 'number') return { retryAfterSeconds: seconds }
	}
	return undefined
}

export default async function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
	loadContext: RouterContextProvider,
) {
	const outage = databaseOutage(routerContext.staticHandlerContext.errors)
	if (outage) {
		responseHeaders.set('Retry-After', String(outage.retryAfterSeconds))
		responseHeaders.set('Cache-Control', 'no-store')
	}
	if (request.method.toUpperCase() === 'HEAD') {
		responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
		return new Response(null, { status: responseStatusCode, headers: responseHeaders })
	}
	const nonce = loadContext.get(nonceContext)
	const userAgent = request.headers.get('user-agent')
	// Crawlers get the whole page at once; people get the shell as soon as it is ready.
	const whole = Boolean(userAgent && isbot(userAgent)) || routerContext.isSpaMode
	let shellRendered = false
	// A render still waiting for data this long after the loaders' own limit gives up.
	const deadline = renderDeadline(streamTimeout + 1000)
	let body: Awaited<ReturnType<typeof renderToReadableStream>>
	try {
		// A web stream, not renderToPipeableStream's Node stream: a Node Writable, like a real
		// AbortSignal here, keeps everything it reaches alive through young collections, so each
		// page's whole render was moved to the old generation and collected there (decision 043).
		body = await renderToReadableStream(
			<NonceProvider value={nonce}>
				<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
			</NonceProvider>,
			{
				nonce,
				signal: deadline.signal,
				onError(error: unknown) {
					responseStatusCode = 500
					// Errors before the shell reject and reach handleError; these happen mid-stream.
					if (shellRendered)
						loadContext.get(servicesContext).logger.error('render failed', { error })
				},
			},
		)
	} catch (error) {
		deadline.clear()
		throw error
	}
	shellRendered = true
	const settled = body.allReady.then(deadline.clear, deadline.clear)
	if (whole) await settled
	responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
	return new Response(body, { headers: responseHeaders, status: responseStatusCode })
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
	// A visitor leaving mid-render, or a request refused with a 4xx, is not a server error.
	if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return
	const fields = { method: request.method, path: new URL(request.url).pathname, error }
	// React Router calls this without a context when the request failed before one was made.
	if (context) context.get(servicesContext).logger.error('request failed', fields)
	else console.error('request failed', fields)
}
