// Every URL the server answers before React Router, in one table (app/routes.ts has the pages,
// the admin area and the resource routes; the two tables are the whole site). Each entry names
// its methods and its body limit; server/app.ts mounts them in this order and answers any other
// method with 405 and Allow. The route fuzz test (tests/integration/route-fuzz.test.ts) walks
// this table as it walks React Router's. Files are served by name: /assets/* (the hashed build)
// and the few files at the top of build/client (server/app.ts).
import type { Context } from 'hono'
import { createCollector } from '#app/features/analytics/collect.server.ts'
import { authBasePath, clientIpHeader } from '#app/features/auth/auth.server.ts'
import { pushKeyPath, pushSubscriptionsPath } from '#app/features/push/push-api.ts'
import { createPushSubscriptions } from '#app/features/push/subscriptions.server.ts'
import { createConfigEndpoint } from '#app/features/remote-config/config-endpoint.server.ts'
import type { AppDependencies } from './app-dependencies.ts'
import { clientIp } from './client-ip.ts'
import { liveStreams } from './live/streams.ts'
import type { Metrics } from './metrics.ts'

type Handler = (c: Context) => Response | Promise<Response>

export interface ServerRoute {
	/** Hono's path syntax: exact, or ending in `/*`. */
	path: string
	/** What this route answers, by method; the others get 405 with `wrongMethod`. */
	methods: Partial<Record<'get' | 'post' | 'delete', Handler>>
	/** Said with a 405. */
	wrongMethod?: string
	/** The largest body it takes, bytes (default: the server's 64 KB cap). */
	bodyLimit?: { bytes: number; message: string }
}

/** Answered by a plain Node handler ahead of Hono (server/live/streams.ts): hours-long streams. */
export const nodeRoutes = liveStreams.map(({ path }) => ({ method: 'GET', path }))

/** A table, one entry per URL: long on purpose, so every URL is in one place. */
export function serverRoutes(deps: AppDependencies): ServerRoute[] {
	const { config, storage, logger } = deps
	const ip = (c: Context) => clientIp(c.env.incoming, config.trustedProxies)
	const collect = createCollector(
		{ storage, buffer: deps.screenViews, siteUrl: config.siteUrl },
		deps.collect,
	)
	const subscriptions = createPushSubscriptions(
		{ storage, logger, siteUrl: config.siteUrl },
		{ ...deps.push?.subscriptions, allowLoopback: deps.push?.allowLoopbackPushServices === true },
	)
	const configEndpoint = createConfigEndpoint(deps.remoteConfig)
	return [
		{ path: '/healthz', methods: { get: (c) => c.json({ status: 'ok' }) } },
		{ path: '/readyz', methods: { get: (c) => ready(c, deps) } },
		{
			// Sign-in, sign-out, sessions and password resets (better-auth, app/features/auth/).
			path: `${authBasePath}/*`,
			methods: { get: (c) => authHandler(c, deps), post: (c) => authHandler(c, deps) },
		},
		{
			// Screen views (app/features/analytics/collect.server.ts): answered before React Router,
			// as they are the most frequent request a site gets after its pages.
			path: '/api/collect',
			methods: { post: (c) => collect(c.req.raw, ip(c)) },
			wrongMethod: 'Send screen views with POST.',
			bodyLimit: { bytes: 4 * 1024, message: 'A screen view is at most 4 KB; this one is larger.' },
		},
		{
			// The key a browser subscribes with (app/features/push/vapid-keys.server.ts).
			path: pushKeyPath,
			methods: {
				get: (c) =>
					c.json({ publicKey: deps.vapidPublicKey }, 200, {
						// Briefly: a changed key (VAPID_* set or replaced) reaches browsers within minutes.
						'Cache-Control': 'public, max-age=300',
					}),
			},
			wrongMethod: 'Read the push key with GET.',
		},
		{
			// A browser's push subscription, stored or deleted (app/features/push/subscriptions.server.ts).
			path: pushSubscriptionsPath,
			methods: {
				post: (c) => subscriptions.subscribe(c.req.raw, ip(c)),
				delete: (c) => subscriptions.unsubscribe(c.req.raw),
			},
			wrongMethod: 'Subscribe with POST and unsubscribe with DELETE.',
			bodyLimit: {
				bytes: 4 * 1024,
				message: 'A push subscription is at most 4 KB; this one is larger.',
			},
		},
		// Prometheus's scrape (server/metrics.ts), only when METRICS_TOKEN is set: otherwise the
		// address is any other page's, and goes home.
		...(deps.metrics
			? [
					{
						path: '/metrics',
						methods: { get: (c: Context) => (deps.metrics as Metrics).answer(c.req.raw) },
						wrongMethod: 'Scrape the metrics with GET.',
					},
				]
			: []),
		{
			// The remote configuration's values for this visitor (decision 013).
			path: '/api/config',
			methods: { get: (c) => configEndpoint(c.req.raw) },
			wrongMethod: 'Read the configuration with GET.',
		},
	]
}

async function ready(c: Context, { storage }: AppDependencies): Promise<Response> {
	if (!storage.health.available) {
		c.header('Retry-After', String(storage.health.retryAfterSeconds))
		return c.json({ status: 'unavailable', database: storage.dialect }, 503)
	}
	try {
		await Promise.race([
			storage.ping(),
			new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref()),
		])
		return c.json({ status: 'ready', database: storage.dialect })
	} catch {
		c.header('Retry-After', '5')
		return c.json({ status: 'unavailable', database: storage.dialect }, 503)
	}
}

async function authHandler(c: Context, deps: AppDependencies): Promise<Response> {
	// better-auth learns the visitor's address from this header only: set it from the socket (or
	// a trusted proxy), never from what the client sent.
	const headers = new Headers(c.req.raw.headers)
	headers.set(clientIpHeader, clientIp(c.env.incoming, deps.config.trustedProxies))
	const response = await deps.auth.handler(new Request(c.req.raw, { headers }))
	const retryAfter = response.headers.get('x-retry-after')
	if (response.status === 429 && retryAfter && !response.headers.has('retry-after')) {
		const answer = new Response(response.body, response)
		answer.headers.set('Retry-After', retryAfter)
		return answer
	}
	return response
}
