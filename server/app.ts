// The HTTP application. createRequestListener sends the live stream to its own handler and all
// else to Hono: cached pages first, then security headers, checks, the server's own endpoints
// (server/routes.ts), static files, and React Router (app/routes.ts).
import { readdirSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { relative } from 'node:path'
import { getRequestListener, type HttpBindings } from '@hono/node-server'
import { serveStatic } from '@hono/node-server/serve-static'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { compress } from 'hono/compress'
import type { createRequestHandler, RouterContextProvider, ServerBuild } from 'react-router'
import { inMegabytes } from '#app/features/uploads/image-types.ts'
import type { AppServices, RequestInfo } from '#app/lib/context.server.ts'
import type { AppDependencies } from './app-dependencies.ts'
import { clientIp } from './client-ip.ts'
import { liveStreamHandler, streamOf } from './live/streams.ts'
import { answerOutages, outageOf, outageResponse } from './outage.ts'
import { acceptsGzip, cacheStatus, createPageCache, pageCacheKey } from './page-cache.ts'
import { createMoveInRunner } from './portable/move-in-runner.ts'
import { closeIfBodyRefused, isLingering } from './refused-body.ts'
import { createRouteLabeller, pageOfDataRequest } from './route-label.ts'
import { nodeRoutes, type ServerRoute, serverRoutes } from './routes.ts'
import { createNonce, isAllowedOrigin, securityHeaders } from './security.ts'

/** What app/entry.server.tsx exports for us, so context keys come from the same module graph. */
interface EntryModule {
	createRequestHandler: typeof createRequestHandler
	createLoadContext(services: AppServices, request: RequestInfo): RouterContextProvider
}

type AppEnv = {
	Bindings: HttpBindings
	Variables: {
		nonce: string
		cacheKey: string | undefined
		generation: number
		/** The server route's path (server/routes.ts) that answered, for the metrics. */
		route: string | undefined
		/** The status of a cached page written straight to the socket. */
		cacheHit: number | undefined
	}
}

const bodyCapBytes = 64 * 1024
/** Image uploads: an image of UPLOAD_MAX_MB (checked by the upload handler) plus the multipart framing. */
const uploadCapBytes = (uploadMaxBytes: number) => uploadMaxBytes + 64 * 1024
/** The only paths that take a body above bodyCapBytes. */
export const uploadPaths = new Set([
	'/admin/uploads',
	'/admin/media',
	'/admin/settings',
	'/api/admin/uploads',
])
/** A CSV of redirects an admin imports (an old site's addresses): up to 1 MB, some 15,000 rows. */
export const redirectImportPath = '/admin/redirects'
const redirectImportCapBytes = 1024 * 1024
/** A Ghost or WordPress export and its images' archive, each up to MOVE_IN_MAX_MB, streamed to disk. */
export const moveInPath = '/admin/move-in'
const moveInCapBytes = (moveInMaxBytes: number) => 2 * moveInMaxBytes + 1024 * 1024
/** A list of newsletter subscribers an admin imports: up to 5 MB (the parser's own cap), and the form. */
export const subscriberImportPath = '/admin/subscribers'
const subscriberImportCapBytes = 5 * 1024 * 1024 + 64 * 1024
/**
 * Article saves carry up to 200,000 characters of Markdown (under 1 MB of UTF-8, a little more
 * as JSON) and, from the editor in a browser without JavaScript, the cover image file itself.
 */
const articleFormCapBytes = (uploadMaxBytes: number) => uploadCapBytes(uploadMaxBytes) + 1024 * 1024
const articleFormPaths = /^\/admin\/articles(?:\/|$)/
/** The admin API's article saves are JSON: no file rides along (images go to /api/admin/uploads). */
const articleApiCapBytes = 6 * 1024 * 1024
const articleApiPaths = /^\/api\/admin\/articles(?:\/|$)/

type App = Hono<AppEnv>
type PageCache = ReturnType<typeof createPageCache>

/** The chain, in the order a request meets it; each step below says what it does. */
function createApp(deps: AppDependencies) {
	const app: App = new Hono<AppEnv>()
	const https = deps.config.siteUrl.startsWith('https:')
	logRequests(app, deps)
	const cache = deps.pageCache === false ? undefined : createPageCache(deps.broker)
	if (cache) answerCachedPages(app, cache, deps, https)
	addSecurityHeaders(app, https)
	answerErrors(app, deps)
	refuseForeignWrites(app, deps)
	const routes = serverRoutes(deps)
	limitBodies(app, routes, deps.config)
	mountServerRoutes(app, routes)
	app.use(compress())
	if (deps.clientDir) serveFiles(app, deps.clientDir)
	renderPages(app, deps, cache)
	return app
}

function logRequests(app: App, { logger, metrics, build }: AppDependencies) {
	// The route pattern of each request, for the metrics (server/route-label.ts).
	let labelled: { build: ServerBuild; label: (path: string) => string } | undefined
	const routeOf = async (c: Context<AppEnv>) => {
		const server = c.get('route')
		if (server) return server
		if (c.req.path.startsWith('/assets/')) return '/assets/*'
		const current = typeof build === 'function' ? await build() : build
		if (labelled?.build !== current)
			labelled = { build: current, label: createRouteLabeller(current) }
		return labelled.label(c.req.path)
	}
	app.use(async (c, next) => {
		const started = performance.now()
		await next()
		const durationMs = performance.now() - started
		// A cached page was written to the socket directly: 200, or the redirect it holds.
		const status = c.get('cacheHit') ?? c.res.status
		logger.info('request', {
			method: c.req.method,
			path: c.req.path,
			status,
			durationMs: Math.round(durationMs * 10) / 10,
		})
		if (metrics) metrics.request(await routeOf(c), c.req.method, status, durationMs / 1000)
	})
}

/**
 * Cached pages are answered here, before the rest of the chain, straight onto the socket: the
 * path most readers take, at about 0.6× a bare Node server's rate (bench/RESULTS.md).
 */
function answerCachedPages(app: App, cache: PageCache, deps: AppDependencies, https: boolean) {
	app.use(async (c, next) => {
		const key = pageCacheKey(c.env.incoming, deps.remoteConfig.variant)
		const page = key === undefined ? undefined : cache.get(key)
		if (!page) {
			c.set('cacheKey', key)
			c.set('generation', cache.generation)
			return next()
		}
		const nonce = createNonce()
		const { body, headers } = cache.render(page, nonce, acceptsGzip(c.env.incoming))
		c.env.outgoing.writeHead(page.status, { ...headers, ...securityHeaders({ nonce, https }) })
		c.env.outgoing.end(body)
		c.set('cacheHit', page.status)
		deps.metrics?.cache('hit')
		return RESPONSE_ALREADY_SENT
	})
}

/** The editor's preview of a draft (app/routes/admin/preview.tsx): framed by the editor's page. */
const previewPathPrefix = '/admin/preview/'
/** A newsletter mail as sent (app/routes/admin/newsletter-preview.ts): mail is styled inline. */
const mailPreviewPath = '/admin/newsletter/preview'

/** A nonce for each page's scripts, and the security headers on every answer. */
function addSecurityHeaders(app: App, https: boolean) {
	app.use(async (c, next) => {
		const nonce = createNonce()
		c.set('nonce', nonce)
		await next()
		const html = c.res.headers.get('content-type')?.startsWith('text/html') ?? false
		const mailPreview = c.req.path === mailPreviewPath
		const framedBySite = c.req.path.startsWith(previewPathPrefix) || mailPreview
		for (const [name, value] of Object.entries(
			securityHeaders({ nonce: html ? nonce : undefined, https, framedBySite, mailPreview }),
		)) {
			c.res.headers.set(name, value)
		}
	})
}

function answerErrors(app: App, { storage, logger }: AppDependencies) {
	app.onError((error, c) => {
		// The database is away: the guard has said so once in the log; this request is a 503.
		const outage = outageOf(error, storage.health)
		if (outage) return outageResponse(outage)
		logger.error('unhandled error', { method: c.req.method, path: c.req.path, error })
		return c.text('Something went wrong on our side. Please try again in a moment.', 500)
	})
}

function refuseForeignWrites(app: App, { config }: AppDependencies) {
	app.use(async (c, next) => {
		if (!isAllowedOrigin(c.req.raw, config.siteUrl)) {
			// `reason` lets the site's own pages tell it apart from a page for admins only (root.tsx).
			return c.json(
				{ error: 'This request came from another site and was refused.', reason: 'cross-site' },
				403,
			)
		}
		return next()
	})
}

/** Every body has a cap (413 past it, unread): the server routes' own, uploads, articles, 64 KB. */
function limitBodies(
	app: App,
	routes: ServerRoute[],
	{ uploadMaxBytes, moveInMaxBytes }: AppDependencies['config'],
) {
	const limitBody = (maxSize: number, message: string) =>
		bodyLimit({ maxSize, onError: (c) => c.json({ error: message }, 413) })
	const uploadLimit = limitBody(
		uploadCapBytes(uploadMaxBytes),
		`The upload is larger than ${inMegabytes(uploadMaxBytes)} MB.`,
	)
	const bodyCap = limitBody(
		bodyCapBytes,
		`The request body is larger than ${bodyCapBytes / 1024} KB.`,
	)
	const articleFormLimit = limitBody(
		articleFormCapBytes(uploadMaxBytes),
		`The request body is larger than ${inMegabytes(uploadMaxBytes) + 1} MB.`,
	)
	const articleApiLimit = limitBody(
		articleApiCapBytes,
		`The request body is larger than ${inMegabytes(articleApiCapBytes)} MB.`,
	)
	const redirectImportLimit = limitBody(
		redirectImportCapBytes,
		'A CSV of redirects is at most 1 MB; split it and import each part.',
	)
	const subscriberImportLimit = limitBody(
		subscriberImportCapBytes,
		'A list of subscribers is at most 5 MB; split it and import each part.',
	)
	const moveInCap = limitBody(
		moveInCapBytes(moveInMaxBytes),
		`An export and its images are at most ${inMegabytes(moveInMaxBytes)} MB each; a larger site moves in with the command line.`,
	)
	// Streamed to disk as it comes: a body without its length would be held in memory to count it.
	const moveInLimit: typeof moveInCap = async (c, next) =>
		c.req.header('content-length')
			? moveInCap(c, next)
			: c.json({ error: 'Send the files with a Content-Length, as a browser does.' }, 411)
	const routeLimits = new Map(
		routes.flatMap((route) =>
			route.bodyLimit
				? [[route.path, limitBody(route.bodyLimit.bytes, route.bodyLimit.message)] as const]
				: [],
		),
	)
	app.use((c, next) => {
		// @hono/node-server never reads their bodies, and asking for one builds a whole Request
		// that undici keeps registered until a full collection (decision 043).
		if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
		const routeLimit = routeLimits.get(c.req.path)
		if (routeLimit) return routeLimit(c, next)
		// A form a page has hydrated posts to React Router's data address of the same page.
		const path = pageOfDataRequest(c.req.path)
		if (uploadPaths.has(path)) return uploadLimit(c, next)
		if (path === redirectImportPath) return redirectImportLimit(c, next)
		if (path === subscriberImportPath) return subscriberImportLimit(c, next)
		if (path === moveInPath && c.req.method === 'POST') return moveInLimit(c, next)
		if (articleFormPaths.test(path)) return articleFormLimit(c, next)
		if (articleApiPaths.test(path)) return articleApiLimit(c, next)
		return bodyCap(c, next)
	})
}

/** The server's own endpoints (server/routes.ts), each method answered, any other one with 405. */
function mountServerRoutes(app: App, routes: ServerRoute[]) {
	for (const route of routes) {
		const methods = Object.keys(route.methods).map((method) => method.toUpperCase())
		for (const [method, handler] of Object.entries(route.methods))
			app.on(method.toUpperCase(), route.path, (c) => {
				c.set('route', route.path)
				return handler(c)
			})
		const wrongMethod = route.wrongMethod
		if (!wrongMethod) continue
		const allow = (methods.includes('GET') ? [...methods, 'HEAD'] : methods).join(', ')
		app.all(route.path, (c) => c.json({ error: wrongMethod }, 405, { Allow: allow }))
	}
	// The admin API and the contact endpoint are React Router resource routes (app/routes/api/);
	// nothing else is under /api.
	app.all('/api/*', (c, next) =>
		c.req.path.startsWith('/api/admin/') || c.req.path === '/api/contact'
			? next()
			: c.json({ error: 'There is no such API endpoint.' }, 404),
	)
}

function serveFiles(app: App, clientDir: string) {
	const root = relative(process.cwd(), clientDir) || '.'
	// Hashed build output: precompressed at build time (vite.config.ts), cached for good.
	app.use(
		'/assets/*',
		serveStatic({
			root,
			precompressed: true,
			onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
		}),
	)
	// The few files at the top (favicon, logo, the service worker): routed by name, so a page
	// request never touches the filesystem. The service worker is revalidated on every fetch, so
	// a new version reaches browsers when they next check for one.
	const topFiles = readdirSync(clientDir, { withFileTypes: true }).filter((entry) => entry.isFile())
	for (const file of topFiles) {
		app.get(
			`/${file.name}`,
			serveStatic({
				root,
				onFound: (_path, c) =>
					c.header('Cache-Control', file.name === 'sw.js' ? 'no-cache' : 'public, max-age=3600'),
			}),
		)
	}
}

/** Everything else is React Router's (app/routes.ts); a page that may be cached is kept. */
function renderPages(app: App, deps: AppDependencies, cache: PageCache | undefined) {
	const { config, storage } = deps
	const services: AppServices = {
		storage,
		logger: deps.logger,
		auth: deps.auth,
		siteUrl: config.siteUrl,
		smtpUrl: config.smtpUrl,
		contactMinimumFillMs: config.contactMinimumFillMs,
		uploadMaxBytes: config.uploadMaxBytes,
		uploadMaxPixels: config.uploadMaxPixels,
		moveIn: deps.moveIn ?? createMoveInRunner(config, deps.logger, storage),
		wakeMailOutbox: deps.wakeMailOutbox ?? (() => {}),
		wakeImageVersions: deps.wakeImageVersions ?? (() => {}),
		remoteConfig: deps.remoteConfig,
	}
	const handlers = new WeakMap<ServerBuild, ReturnType<EntryModule['createRequestHandler']>>()
	const currentBuild = () => (typeof deps.build === 'function' ? deps.build() : deps.build)
	async function render(request: Request, info: RequestInfo): Promise<Response> {
		const build = await currentBuild()
		const entry = build.entry.module as unknown as EntryModule
		let handler = handlers.get(build)
		if (!handler) {
			handler = entry.createRequestHandler(answerOutages(build, storage.health), deps.mode)
			handlers.set(build, handler)
		}
		return handler(request, entry.createLoadContext(services, info))
	}

	const publicScheme = new URL(config.siteUrl).protocol
	app.all('*', async (c) => {
		const nonce = c.get('nonce')
		const clientIpAddress = clientIp(c.env.incoming, config.trustedProxies)
		const request = withPublicScheme(c.req.raw, publicScheme)
		const response = await render(request, { nonce, clientIp: clientIpAddress })
		const key = c.get('cacheKey')
		if (!cache) return response
		if (key !== undefined) {
			deps.metrics?.cache('miss')
			return cache.store(key, response, nonce, c.get('generation'))
		}
		deps.metrics?.cache('bypass')
		response.headers.set('Cache-Status', cacheStatus.bypass)
		return response
	})
}

/**
 * The request as the visitor made it. Behind a proxy that ends TLS (SITE_URL https:), requests
 * reach Canopy over plain HTTP, and React Router refuses every form action whose Origin
 * (https://…) differs from the request's own origin (http://…) as a cross-site request.
 */
function withPublicScheme(request: Request, scheme: string): Request {
	const url = new URL(request.url)
	if (url.protocol === scheme) return request
	url.protocol = scheme
	const init: RequestInit & { duplex?: 'half' } = {
		method: request.method,
		headers: request.headers,
		signal: request.signal,
	}
	if (request.body) {
		init.body = request.body
		init.duplex = 'half'
	}
	return new Request(url, init)
}

/**
 * The Node request listener: the live streams first, then everything else through Hono.
 */
export function createRequestListener(deps: AppDependencies) {
	const app = createApp(deps)
	const hono = getRequestListener(app.fetch, { overrideGlobalObjects: deps.mode === 'production' })
	const streams = liveStreamHandler(deps.broker, deps.auth, deps.logger, {
		https: deps.config.siteUrl.startsWith('https:'),
		health: deps.storage.health,
		...deps.stream,
	})
	const listener = (req: IncomingMessage, res: ServerResponse) => {
		// Sent after a refused body, on a connection that is closing: never run nor answered.
		if (isLingering(req.socket)) return void req.resume()
		closeIfBodyRefused(req, res)
		const stream = streamOf(req)
		if (stream) streams(req, res, stream)
		else hono(req, res)
	}
	// The endpoints this server answers before React Router: the live streams and Hono's own
	// routes (its middleware, registered for every path, left out). The route fuzz test walks them.
	const endpoints = [
		...nodeRoutes,
		...app.routes
			.filter((route) => route.path !== '*' && route.path !== '/*')
			.map((route) => ({ method: route.method, path: route.path })),
	]
	return Object.assign(listener, { endpoints })
}
