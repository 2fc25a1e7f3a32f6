// Push subscriptions over real HTTP on SQLite and PostgreSQL: the key browsers subscribe with,
// subscriptions stored, refreshed and deleted, every refusal (no server-side request forgery),
// the deliveries that publishing an article writes for the worker to send, and one of them sent
// by hand to the local test push service, as the worker will.
import { createECDH, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import webPush from 'web-push'
import { vapidSubject } from '#app/features/push/vapid-keys.server.ts'
import { startScheduledPublishing } from '#server/jobs/scheduled-publishing.ts'
import { createLogger } from '#server/logger.ts'
import { callApi, makeKey, makeUser } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { startPushService } from '#tests/fixtures/push-service.ts'
import { databases, type TestDatabase } from '#tests/fixtures/storage.ts'

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
const subscriptionsPath = '/api/push/subscriptions'

// Each request reads from its own address unless a test says otherwise (the app trusts the
// local proxy's X-Forwarded-For), so no test's subscriptions count against another's cap.
let nextAddress = 1
const newAddress = () => `198.51.100.${nextAddress++}`

/** What PushSubscription.toJSON() gives, with real browser-side keys. */
function browserSubscription(
	endpoint = `https://8.8.8.8/wpush/v2/${randomBytes(12).toString('hex')}`,
) {
	const ecdh = createECDH('prime256v1')
	ecdh.generateKeys()
	return {
		endpoint,
		expirationTime: null as number | null,
		keys: {
			p256dh: ecdh.getPublicKey().toString('base64url'),
			auth: randomBytes(16).toString('base64url'),
		},
	}
}

interface Send {
	method?: 'POST' | 'DELETE'
	ip?: string
	userAgent?: string
	origin?: string | null
}

function send(
	app: TestApp,
	body: unknown,
	{ method = 'POST', ip, userAgent = firefox, origin }: Send = {},
) {
	return fetch(`${app.url}${subscriptionsPath}`, {
		method,
		headers: {
			'Content-Type': 'application/json',
			'User-Agent': userAgent,
			'X-Forwarded-For': ip ?? newAddress(),
			...(origin === null ? {} : { Origin: origin ?? app.url }),
		},
		body: typeof body === 'string' ? body : JSON.stringify(body),
	})
}

describe.each(databases)('push subscriptions over HTTP on $name', ({ create }) => {
	let app: TestApp
	let apiKey = ''
	beforeAll(async () => {
		app = await startTestApp({ database: create, seed: false, trustProxy: '127.0.0.1' })
		apiKey = await makeKey(app, await makeUser(app, 'ada@example.org', 'admin', 'Ada Admin'))
	})
	afterAll(() => app?.close())

	const api = (path: string, body: unknown) =>
		callApi(app, `/api/admin/articles${path}`, { key: apiKey }, { method: 'POST', body })
	async function publishNew(title: string) {
		const created = await api('', { title, summary: 'A summary.', body: 'Some text.', tags: [] })
		const { article } = await created.json()
		const published = await api(`/${article.id}/publish`, { version: article.version })
		expect(published.status).toBe(200)
		return (await published.json()).article as { id: number; version: number; slug: string }
	}
	async function subscribeMany(count: number) {
		const made = []
		for (let i = 0; i < count; i++) {
			const subscription = browserSubscription()
			expect((await send(app, subscription)).status).toBe(201)
			made.push(subscription)
		}
		return made
	}
	/** The subscriptions an article's deliveries go to, by endpoint. */
	async function endpointsOf(articleId: number, state = 'pending') {
		const ids = (await app.storage.push.deliveriesOf(articleId))
			.filter((delivery) => delivery.state === state)
			.map((delivery) => delivery.subscriptionId)
		const rows = await app.storage.authDatabase.db
			.selectFrom('push_subscriptions')
			.select(['id', 'endpoint'])
			.execute()
		return ids.map((id) => rows.find((row) => Number(row.id) === id)?.endpoint).sort()
	}

	it('gives the public key to subscribe with, briefly cacheable', async () => {
		const response = await fetch(`${app.url}/api/push/key`)
		expect(response.status).toBe(200)
		expect(response.headers.get('cache-control')).toBe('public, max-age=300')
		const { publicKey } = await response.json()
		expect(publicKey).toBe(app.vapidKeys.publicKey)
		const bytes = Buffer.from(publicKey, 'base64url')
		expect(bytes).toHaveLength(65)
		expect(bytes[0]).toBe(0x04)
		const post = await fetch(`${app.url}/api/push/key`, {
			method: 'POST',
			headers: { Origin: app.url },
		})
		expect(post.status).toBe(405)
		expect(post.headers.get('allow')).toBe('GET, HEAD')
	})

	it('stores a subscription, refreshes it when sent again, and deletes it', async () => {
		const subscription = browserSubscription()
		const created = await send(app, subscription)
		expect(created.status).toBe(201)
		expect(await created.json()).toEqual({ status: 'subscribed' })
		const stored = await app.storage.push.findSubscription(subscription.endpoint)
		expect(stored).toMatchObject({
			p256dh: subscription.keys.p256dh,
			auth: subscription.keys.auth,
			expirationTime: null,
		})
		const count = await app.storage.push.subscriberCount()

		// Seven days on, the browser sends it again, with new keys and an expiration time.
		const expirationTime = Date.now() + 30 * 24 * 60 * 60 * 1000
		const renewed = { ...browserSubscription(subscription.endpoint), expirationTime }
		const refreshed = await send(app, renewed)
		expect(refreshed.status).toBe(200)
		expect(await refreshed.json()).toEqual({ status: 'refreshed' })
		const after = await app.storage.push.findSubscription(subscription.endpoint)
		expect(after).toMatchObject({
			id: stored?.id,
			p256dh: renewed.keys.p256dh,
			auth: renewed.keys.auth,
			expirationTime: new Date(expirationTime).toISOString(),
			createdAt: stored?.createdAt,
		})
		expect(Date.parse(after?.refreshedAt ?? '')).toBeGreaterThanOrEqual(
			Date.parse(stored?.refreshedAt ?? ''),
		)
		expect(await app.storage.push.subscriberCount()).toBe(count)

		const deleted = await send(app, { endpoint: subscription.endpoint }, { method: 'DELETE' })
		expect(deleted.status).toBe(204)
		expect(await app.storage.push.findSubscription(subscription.endpoint)).toBeUndefined()
		expect(await app.storage.push.subscriberCount()).toBe(count - 1)
		// Unknown, or already gone: the same answer.
		const again = await send(app, { endpoint: subscription.endpoint }, { method: 'DELETE' })
		expect(again.status).toBe(204)
	})

	const refusals: [string, (s: ReturnType<typeof browserSubscription>) => unknown, string][] = [
		['an http: endpoint', (s) => ({ ...s, endpoint: 'http://8.8.8.8/push/1' }), 'endpoint'],
		['a loopback address', (s) => ({ ...s, endpoint: 'https://127.0.0.1:8443/push' }), 'endpoint'],
		['127.1', (s) => ({ ...s, endpoint: 'https://127.1/push' }), 'endpoint'],
		['a decimal address', (s) => ({ ...s, endpoint: 'https://2130706433/push' }), 'endpoint'],
		['a hex address', (s) => ({ ...s, endpoint: 'https://0x7f.1/push' }), 'endpoint'],
		['IPv6 loopback', (s) => ({ ...s, endpoint: 'https://[::1]/push' }), 'endpoint'],
		[
			'IPv4-mapped IPv6',
			(s) => ({ ...s, endpoint: 'https://[::ffff:127.0.0.1]/push' }),
			'endpoint',
		],
		['a private address', (s) => ({ ...s, endpoint: 'https://10.1.2.3/push' }), 'endpoint'],
		['172.16/12', (s) => ({ ...s, endpoint: 'https://172.20.0.5/push' }), 'endpoint'],
		['192.168/16', (s) => ({ ...s, endpoint: 'https://192.168.0.10/push' }), 'endpoint'],
		['the metadata service', (s) => ({ ...s, endpoint: 'https://169.254.169.254/' }), 'endpoint'],
		['carrier-grade NAT', (s) => ({ ...s, endpoint: 'https://100.64.1.1/push' }), 'endpoint'],
		['a unique-local address', (s) => ({ ...s, endpoint: 'https://[fd00::5]/push' }), 'endpoint'],
		['a link-local address', (s) => ({ ...s, endpoint: 'https://[fe80::1]/push' }), 'endpoint'],
		['the unspecified address', (s) => ({ ...s, endpoint: 'https://0.0.0.0/push' }), 'endpoint'],
		['multicast', (s) => ({ ...s, endpoint: 'https://224.0.0.1/push' }), 'endpoint'],
		['localhost', (s) => ({ ...s, endpoint: 'https://localhost:8443/push' }), 'endpoint'],
		[
			'a name under localhost',
			(s) => ({ ...s, endpoint: 'https://push.localhost/push' }),
			'endpoint',
		],
		['credentials', (s) => ({ ...s, endpoint: 'https://user:pw@8.8.8.8/push' }), 'endpoint'],
		['not a URL', (s) => ({ ...s, endpoint: 'push me' }), 'endpoint'],
		['no endpoint', ({ keys }) => ({ keys }), 'endpoint'],
		[
			'an endpoint over 1,000 characters',
			(s) => ({ ...s, endpoint: `https://8.8.8.8/${'a'.repeat(990)}` }),
			'endpoint',
		],
		[
			'a short p256dh',
			(s) => ({ ...s, keys: { ...s.keys, p256dh: s.keys.p256dh.slice(0, 80) } }),
			'keys.p256dh',
		],
		[
			'a compressed p256dh',
			(s) => ({ ...s, keys: { ...s.keys, p256dh: Buffer.alloc(33, 2).toString('base64url') } }),
			'keys.p256dh',
		],
		[
			'a p256dh off the curve',
			(s) => ({
				...s,
				keys: {
					...s.keys,
					p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'),
				},
			}),
			'keys.p256dh',
		],
		[
			'a p256dh not in base64url',
			(s) => ({ ...s, keys: { ...s.keys, p256dh: `${s.keys.p256dh.slice(1)}+` } }),
			'keys.p256dh',
		],
		[
			'a 15-byte auth',
			(s) => ({ ...s, keys: { ...s.keys, auth: randomBytes(15).toString('base64url') } }),
			'keys.auth',
		],
		['no keys', ({ endpoint }) => ({ endpoint }), 'keys'],
		[
			'an expiration in the past',
			(s) => ({ ...s, expirationTime: Date.now() - 1_000 }),
			'expirationTime',
		],
		[
			'an expiration that is not a time',
			(s) => ({ ...s, expirationTime: 'soon' }),
			'expirationTime',
		],
	]
	it.each(refusals)('refuses %s with 400 and a message on the field', async (_, make, field) => {
		const body = make(browserSubscription())
		const response = await send(app, body)
		expect(response.status).toBe(400)
		const answer = await response.json()
		expect(answer.error).toBe('The subscription was not saved: some of its fields are wrong.')
		expect(answer.errors[field]).toEqual([expect.any(String)])
		const endpoint = (body as { endpoint?: unknown }).endpoint
		if (typeof endpoint === 'string')
			expect(await app.storage.push.findSubscription(endpoint)).toBeUndefined()
	})

	it('says why an internal address is refused', async () => {
		const response = await send(app, {
			...browserSubscription(),
			endpoint: 'https://0x7f.1:8443/push',
		})
		expect((await response.json()).errors.endpoint).toEqual([
			'Push services are on the public internet; this endpoint’s address is 127.0.0.1, a loopback address (this machine).',
		])
	})

	it('refuses what is not one JSON object', async () => {
		for (const body of ['not json', '[1, 2]', 'null', '']) {
			const response = await send(app, body)
			expect(response.status).toBe(400)
			expect((await response.json()).errors.form).toHaveLength(1)
		}
		const unsubscribe = await send(app, { endpoint: 42 }, { method: 'DELETE' })
		expect(unsubscribe.status).toBe(400)
		expect((await unsubscribe.json()).errors.endpoint).toHaveLength(1)
	})

	it('refuses a body over 4 KB with 413', async () => {
		const subscription = { ...browserSubscription(), padding: 'x'.repeat(5_000) }
		const response = await send(app, subscription)
		expect(response.status).toBe(413)
		expect((await response.json()).error).toMatch(/at most 4 KB/)
		expect(await app.storage.push.findSubscription(subscription.endpoint)).toBeUndefined()
	})

	it('refuses a request from another site, to subscribe or to unsubscribe', async () => {
		const subscription = browserSubscription()
		const foreign = await send(app, subscription, { origin: 'https://elsewhere.example' })
		expect(foreign.status).toBe(403)
		expect(await app.storage.push.findSubscription(subscription.endpoint)).toBeUndefined()

		expect((await send(app, subscription)).status).toBe(201)
		const away = await send(
			app,
			{ endpoint: subscription.endpoint },
			{ method: 'DELETE', origin: 'https://elsewhere.example' },
		)
		expect(away.status).toBe(403)
		expect(await app.storage.push.findSubscription(subscription.endpoint)).toBeDefined()
	})

	it('takes five new subscriptions a day from one browser; sending one again is never counted', async () => {
		const ip = newAddress()
		const made = []
		for (let i = 0; i < 5; i++) {
			const subscription = browserSubscription()
			expect((await send(app, subscription, { ip })).status).toBe(201)
			made.push(subscription)
		}
		const sixth = browserSubscription()
		const limited = await send(app, sixth, { ip })
		expect(limited.status).toBe(429)
		const wait = Number(limited.headers.get('retry-after'))
		expect(wait).toBeGreaterThan(23 * 60 * 60)
		expect(wait).toBeLessThanOrEqual(24 * 60 * 60)
		expect((await limited.json()).error).toMatch(
			/^Too many new subscriptions from this browser today/,
		)
		expect(await app.storage.push.findSubscription(sixth.endpoint)).toBeUndefined()

		// The browser re-sends what it has: refreshed, not refused.
		for (const subscription of made)
			expect((await send(app, subscription, { ip })).status).toBe(200)
		// Another browser at the same address is another visitor.
		expect((await send(app, sixth, { ip, userAgent: `${firefox} Other` })).status).toBe(201)
	})

	it('writes one delivery per subscription when an article is published, and none after', async () => {
		const before = await subscribeMany(3)
		const all = await app.storage.push.subscriberCount()
		const article = await publishNew('Seagrass meadows')
		const endpoints = await endpointsOf(article.id)
		expect(endpoints).toHaveLength(all)
		expect(new Set(endpoints).size).toBe(all)
		for (const subscription of before) expect(endpoints).toContain(subscription.endpoint)

		// A subscription made afterwards is not told of an article published before it.
		const late = browserSubscription()
		expect((await send(app, late)).status).toBe(201)
		expect(await endpointsOf(article.id)).not.toContain(late.endpoint)
	})

	it('announces an article once: unpublishing cancels what is pending, republishing sends nothing new', async () => {
		await subscribeMany(2)
		const all = await app.storage.push.subscriberCount()
		const article = await publishNew('Kelp forests')
		expect(await endpointsOf(article.id)).toHaveLength(all)

		const off = await api(`/${article.id}/unpublish`, { version: article.version })
		expect(off.status).toBe(200)
		const results = await app.storage.push.resultsByArticle([article.id])
		expect(results.get(article.id)).toMatchObject({ pending: 0, cancelled: all })

		const { version } = (await off.json()).article
		expect((await api(`/${article.id}/publish`, { version })).status).toBe(200)
		expect((await app.storage.push.resultsByArticle([article.id])).get(article.id)).toMatchObject({
			pending: 0,
			cancelled: all,
		})
		expect(await app.storage.push.deliveriesOf(article.id)).toHaveLength(all)
	})

	it('writes nothing for an article published without notifying', async () => {
		await subscribeMany(1)
		const created = await app.storage.articles.create(articleWrite({ notify: false }))
		if (!created.ok) throw new Error('create failed')
		expect(await app.storage.push.deliveriesOf(created.saved.article.id)).toEqual([])
		expect((await fetch(`${app.url}/articles/${created.saved.article.slug}`)).status).toBe(200)
	})

	it('writes the deliveries when the scheduled-publishing job makes an article public', async () => {
		await subscribeMany(1)
		const all = await app.storage.push.subscriberCount()
		const created = await app.storage.articles.create(
			articleWrite({ status: 'draft', publishedAt: null, publishAt: '2026-01-01T08:00:00.000Z' }),
		)
		if (!created.ok) throw new Error('create failed')
		const { id } = created.saved.article
		expect(await app.storage.push.deliveriesOf(id)).toEqual([])
		const job = startScheduledPublishing(
			app.storage,
			createLogger('error', () => {}),
			60_000,
		)
		try {
			await job.runOnce()
		} finally {
			await job.stop()
		}
		expect(await app.storage.articles.findById(id)).toMatchObject({ status: 'published' })
		expect(await endpointsOf(id)).toHaveLength(all)
	})

	it('an unsubscribe cancels the deliveries not yet sent to it; deleting an article leaves nothing to send', async () => {
		const [leaving] = await subscribeMany(1)
		if (!leaving) throw new Error('no subscription')
		const article = await publishNew('Mangroves')
		expect(await endpointsOf(article.id)).toContain(leaving.endpoint)
		expect((await send(app, { endpoint: leaving.endpoint }, { method: 'DELETE' })).status).toBe(204)
		const rows = await app.storage.push.deliveriesOf(article.id)
		expect(rows.filter((row) => row.state === 'cancelled')).toHaveLength(1)
		expect(rows.filter((row) => row.state === 'cancelled')[0]?.subscriptionId).toBeNull()

		const deleted = await callApi(
			app,
			`/api/admin/articles/${article.id}?version=${article.version}`,
			{ key: apiKey },
			{ method: 'DELETE' },
		)
		expect(deleted.status).toBe(204)
		expect(await app.storage.push.deliveriesOf(article.id)).toEqual([])
	})
})

describe.each(databases)('the VAPID key on $name', ({ create }) => {
	it('is the same across a restart on the same database, and new for a new one', async () => {
		let database: TestDatabase | undefined
		const keep = async () => {
			database ??= await create()
			return { ...database, drop: async () => {} }
		}
		try {
			const first = await startTestApp({ database: keep, seed: false })
			const key = (await (await fetch(`${first.url}/api/push/key`)).json()).publicKey
			await first.close()
			const second = await startTestApp({ database: keep, seed: false })
			try {
				expect((await (await fetch(`${second.url}/api/push/key`)).json()).publicKey).toBe(key)
				expect(second.vapidKeys.publicKey).toBe(key)
			} finally {
				await second.close()
			}
			const other = await startTestApp({ database: create, seed: false })
			try {
				expect(other.vapidKeys.publicKey).not.toBe(key)
			} finally {
				await other.close()
			}
		} finally {
			await database?.drop()
		}
	})

	it('is VAPID_PUBLIC_KEY when the pair is configured, over the stored one', async () => {
		const pair = webPush.generateVAPIDKeys()
		const app = await startTestApp({
			database: create,
			seed: false,
			vapidEnv: { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey },
		})
		try {
			expect((await (await fetch(`${app.url}/api/push/key`)).json()).publicKey).toBe(pair.publicKey)
			expect(app.vapidKeys).toEqual(pair)
		} finally {
			await app.close()
		}
	})
})

describe('a push service on this machine', () => {
	it('is accepted only when the app is told so in code (the local test push service)', async () => {
		const app = await startTestApp({ seed: false, push: { allowLoopbackPushServices: true } })
		try {
			const local = browserSubscription('https://127.0.0.1:9443/push/abc')
			expect((await send(app, local)).status).toBe(201)
			// Other internal addresses stay refused.
			expect((await send(app, browserSubscription('https://10.0.0.8/push'))).status).toBe(400)
		} finally {
			await app.close()
		}
	})

	it('gets what a worker sends from a claimed delivery, decrypted by the browser’s keys', async () => {
		const service = await startPushService()
		const app = await startTestApp({ seed: false, push: { allowLoopbackPushServices: true } })
		try {
			// As a browser subscribes: with the site's key, then the subscription posted to the site.
			const { publicKey } = await (await fetch(`${app.url}/api/push/key`)).json()
			const subscription = service.subscribe({ applicationServerKey: publicKey })
			expect((await send(app, subscription)).status).toBe(201)

			const created = await app.storage.articles.create(articleWrite({ title: 'Salt marshes' }))
			if (!created.ok) throw new Error('create failed')
			const [delivery] = await app.storage.push.claimDue(new Date(Date.now() + 1_000), 60_000, 10)
			if (!delivery) throw new Error('nothing to send')
			expect(delivery.subscription.endpoint).toBe(subscription.endpoint)

			const sent = await webPush.sendNotification(
				{
					endpoint: delivery.subscription.endpoint,
					keys: { p256dh: delivery.subscription.p256dh, auth: delivery.subscription.auth },
				},
				JSON.stringify({
					title: delivery.article.title,
					url: `/articles/${delivery.article.slug}`,
				}),
				{
					vapidDetails: {
						subject: await vapidSubject(app.storage, { vapidSubject: '', siteUrl: app.url }),
						...app.vapidKeys,
					},
					TTL: 3600,
					agent: service.agent,
				},
			)
			await app.storage.push.markSent(delivery.id, sent.statusCode, new Date())
			const [push] = await service.waitFor(1)
			expect(push?.payload).toEqual({
				title: 'Salt marshes',
				url: `/articles/${created.saved.article.slug}`,
			})
			expect(push?.vapid?.sub).toBe('mailto:webmaster@127.0.0.1')
			expect(
				(await app.storage.push.resultsByArticle([created.saved.article.id])).get(
					created.saved.article.id,
				),
			).toMatchObject({ sent: 1, pending: 0 })
		} finally {
			await app.close()
			await service.close()
		}
	})
})
