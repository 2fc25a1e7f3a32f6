// The README's deployment behind nginx, as a reader sets it up: deploy/nginx-canopy.conf itself
// (tests/fixtures/nginx.ts makes only an operator's edits), Debian's nginx, TLS, two real
// instances on one PostgreSQL schema with SITE_URL the https address and TRUST_PROXY=127.0.0.1.
// Everything below goes through nginx over HTTPS as a browser would, unless it says otherwise.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKey } from '#app/features/api-keys/api-keys.server.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { contactFields, pastForm } from '#tests/fixtures/contact.ts'
import { type HttpsSite, httpsSite, type StreamClient } from '#tests/fixtures/https-site.ts'
import {
	cliAccount,
	type Instance,
	type Instances,
	startInstances,
} from '#tests/fixtures/instances.ts'
import {
	type DeployedNginx,
	type NginxPorts,
	nginxPath,
	nginxPorts,
	startDeployedNginx,
} from '#tests/fixtures/nginx.ts'
import { selfSignedCertificate } from '#tests/fixtures/self-signed-certificate.ts'
import { waitUntil } from '#tests/fixtures/sse.ts'
import { postgresUrl } from '#tests/fixtures/storage.ts'

const nginxInstalled = existsSync(nginxPath)
if (!nginxInstalled && process.env.CI) {
	throw new Error(
		`The deployment test needs nginx, and there is none at ${nginxPath}. Install it with: apt-get install -y nginx (.ci/run does), or set NGINX_PATH.`,
	)
}
if (!nginxInstalled) {
	console.warn(`nginx-deploy.test.ts skipped: no nginx at ${nginxPath} (apt-get install -y nginx).`)
}

const serverName = 'canopy.test'
const password = 'estuary salt marsh 12'
/** An event published anywhere reaches a stream through nginx within this (buffering would not). */
const liveBoundMs = 2_000

/** Requests an instance logged (its JSON lines): which instance nginx sent them to. */
function served(instance: Instance, method: string, path: string): number {
	let count = 0
	for (const line of instance.output().split('\n')) {
		if (!line.startsWith('{')) continue
		try {
			const entry = JSON.parse(line)
			if (entry.msg === 'request' && entry.method === method && entry.path === path) count++
		} catch {
			// The line being written as we read.
		}
	}
	return count
}

const titles = (stream: StreamClient) =>
	stream.events
		.filter((event) => event.event === 'article')
		.map((event) => JSON.parse(event.data).article?.title as string)

describe.runIf(postgresUrl && nginxInstalled)(
	'the README’s nginx in front of two instances',
	() => {
		let ports: NginxPorts
		let site: Instances
		let nginx: DeployedNginx
		let visitor: HttpsSite
		let storage: Storage
		let a: Instance
		let b: Instance
		let apiKey: string

		beforeAll(async () => {
			const certificate = await selfSignedCertificate('Canopy test site', 2, [serverName])
			ports = await nginxPorts()
			const siteUrl = `https://${serverName}:${ports.https}`
			site = await startInstances(2, { siteUrl, env: { TRUST_PROXY: '127.0.0.1' } })
			;[a, b] = site.instances as [Instance, Instance]
			storage = site.database.open()
			const port = (instance: Instance) => Number(new URL(instance.url).port)
			nginx = await startDeployedNginx({
				ports,
				upstreams: [port(a), port(b)],
				serverName,
				certificate,
			})
			visitor = httpsSite(serverName, ports.https, certificate.cert)
			const adminId = await cliAccount(site, storage, {
				email: 'ada@example.org',
				role: 'admin',
				name: 'Ada',
				password,
			})
			apiKey = (await createApiKey(storage, { name: 'Publishing script', createdBy: adminId })).key
		}, 90_000)

		afterAll(async () => {
			visitor?.close()
			await nginx?.stop()
			await storage?.close()
			await site?.close()
		}, 30_000)

		const servedByEach = (method: string, path: string) => ({
			a: served(a, method, path),
			b: served(b, method, path),
		})

		/** Publishes an article through `instance` directly (the admin API), as a script on it would. */
		async function publish(instance: Instance, title: string): Promise<number> {
			const api = (path: string, body: unknown) =>
				fetch(`${instance.url}/api/admin/articles${path}`, {
					method: 'POST',
					headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
					body: JSON.stringify(body),
				})
			const created = await (
				await api('', { title, summary: 'Through nginx.', body: 'Text.', tags: [] })
			).json()
			const published = await api(`/${created.article.id}/publish`, {
				version: created.article.version,
			})
			expect(published.status).toBe(200)
			return Date.now()
		}

		it('serves pages from both instances, with the checks the README gives', async () => {
			const before = servedByEach('GET', '/articles')
			for (let n = 0; n < 6; n++) {
				const page = await visitor.request('/articles')
				expect(page.status).toBe(200)
				expect(page.text).toContain('</html>')
				// Canopy's own, once: the file leaves it to Canopy.
				expect(page.headers['strict-transport-security']).toBe(
					'max-age=31536000; includeSubDomains',
				)
			}
			const after = servedByEach('GET', '/articles')
			expect(after.a - before.a).toBeGreaterThan(0)
			expect(after.b - before.b).toBeGreaterThan(0)

			const health = await visitor.request('/healthz')
			expect([health.status, JSON.parse(health.text)]).toEqual([200, { status: 'ok' }])
			const ready = await visitor.request('/readyz')
			expect([ready.status, JSON.parse(ready.text)]).toEqual([
				200,
				{ status: 'ready', database: 'postgres' },
			])
			// The README's `curl -sI https://example.org/articles`: HTTP/2 200.
			expect((await visitor.http2('/articles')).status).toBe(200)
		})

		it('sends http:// to https, and answers certbot’s challenges there', async () => {
			const plain = (path: string) =>
				new Promise<{ status: number; location?: string; text: string }>((resolve, reject) => {
					const sent = httpRequest(
						{ host: '127.0.0.1', port: ports.http, path, headers: { Host: serverName } },
						(response) => {
							let text = ''
							response.on('data', (chunk) => {
								text += chunk
							})
							response.on('end', () =>
								resolve({
									status: response.statusCode ?? 0,
									location: response.headers.location,
									text,
								}),
							)
						},
					)
					sent.on('error', reject)
					sent.end()
				})
			const redirected = await plain('/articles?page=2')
			expect(redirected.status).toBe(301)
			expect(redirected.location).toBe(`https://${serverName}/articles?page=2`)

			const challenges = join(nginx.webroot, '.well-known/acme-challenge')
			mkdirSync(challenges, { recursive: true, mode: 0o755 })
			writeFileSync(join(challenges, 'token-1'), 'token-1.thumbprint', { mode: 0o644 })
			const challenge = await plain('/.well-known/acme-challenge/token-1')
			expect([challenge.status, challenge.text]).toEqual([200, 'token-1.thumbprint'])
		})

		it('streams articles published through A and through B to a reader on nginx at once', async () => {
			const since = await storage.changes.latestId()
			const stream = visitor.openStream(`/api/articles/stream?since=${since}`)
			try {
				await waitUntil(() => stream.opens === 1, 5_000)
				const fromA = await publish(a, 'Published on A')
				await waitUntil(() => titles(stream).length === 1, liveBoundMs)
				const seenA = Date.now() - fromA
				const fromB = await publish(b, 'Published on B')
				await waitUntil(() => titles(stream).length === 2, liveBoundMs)
				const seenB = Date.now() - fromB
				expect(titles(stream)).toEqual(['Published on A', 'Published on B'])
				expect(stream.failures).toEqual([])
				console.info(`through nginx: published on A seen after ${seenA} ms, on B after ${seenB} ms`)
			} finally {
				stream.close()
			}
		})

		it('takes the contact form posted from the https site, over HTTP/1.1 and HTTP/2', async () => {
			for (const [protocol, send] of [
				['HTTP/1.1', visitor.request],
				['HTTP/2', visitor.http2],
			] as const) {
				const subject = `Posted through nginx over ${protocol}`
				const body = new URLSearchParams({
					...contactFields,
					subject,
					...(await pastForm(storage)),
				}).toString()
				const answer = await send('/contact', {
					method: 'POST',
					headers: {
						Origin: visitor.origin,
						'Content-Type': 'application/x-www-form-urlencoded',
						'Content-Length': Buffer.byteLength(body),
					},
					body,
				})
				expect(answer.status, `${protocol}: ${answer.text.slice(0, 200)}`).toBe(200)
				expect(answer.text).toContain('Thank you')
				const { items } = await storage.messages.list({ box: 'inbox', limit: 10, offset: 0 })
				expect(items.map((message) => message.subject)).toContain(subject)
			}
		})

		/** A form post of `bytes` bytes, as a browser sends a too-large one. */
		const bigPost = (path: string, bytes: number) =>
			visitor.request(path, {
				method: 'POST',
				headers: {
					Origin: visitor.origin,
					'Content-Type': 'application/x-www-form-urlencoded',
					'Content-Length': bytes,
				},
				body: Buffer.alloc(bytes, 'a'),
			})

		it('refuses a body over client_max_body_size in nginx, before the instances see it', async () => {
			const before = servedByEach('POST', '/contact')
			const answer = await bigPost('/contact', 21568 * 1024 + 1)
			expect(answer.status).toBe(413)
			expect(answer.headers.server).toMatch(/^nginx/)
			expect(servedByEach('POST', '/contact')).toEqual(before)
		})

		it('passes on Canopy’s own 413 for a body under nginx’s limit, never a 502', async () => {
			const answer = await bigPost('/contact', 21500 * 1024)
			expect(answer.status).toBe(413)
			expect(JSON.parse(answer.text)).toEqual({ error: 'The request body is larger than 64 KB.' })
			// The connection nginx keeps to that instance is good for the next request.
			for (let n = 0; n < 4; n++) expect((await visitor.request('/articles')).status).toBe(200)
		})

		// Last: it stops A.
		it('keeps the site up when A stops: pages from B, and A’s readers resume on B, missing nothing', async () => {
			const streamsOn = () => servedByEach('GET', '/api/articles/stream')
			const before = streamsOn()
			const since = await storage.changes.latestId()
			const readers = [1, 2].map(() => visitor.openStream(`/api/articles/stream?since=${since}`))
			await waitUntil(() => readers.every((reader) => reader.opens === 1), 5_000)
			// least_conn: one stream on each.
			await waitUntil(() => streamsOn().a + streamsOn().b === before.a + before.b + 2)
			const opened = streamsOn()
			expect([opened.a - before.a, opened.b - before.b]).toEqual([1, 1])
			await publish(b, 'Before the stop')
			await waitUntil(() => readers.every((reader) => titles(reader).length === 1), liveBoundMs)

			// Visitors loading pages all along, from before the stop: after `settleMs`, every page must
			// be B's, and a 200.
			const settleMs = 1_000
			const pages: { ms: number; status: number }[] = []
			let stopAt = Number.POSITIVE_INFINITY
			let servedByA = Number.NaN
			const loading = Promise.all(
				[1, 2, 3, 4].map(async () => {
					while (Date.now() - stopAt < settleMs + 500) {
						const ms = Date.now() - stopAt
						pages.push({ ms, status: (await visitor.request('/articles')).status })
					}
				}),
			)
			await new Promise((resolve) => setTimeout(resolve, 300))
			stopAt = Date.now()
			const stopped = a.stop().then(() => Date.now() - stopAt)
			setTimeout(() => {
				servedByA = served(a, 'GET', '/articles')
			}, settleMs)
			// A ends its streams first; while its reader waits to reconnect, B publishes.
			await waitUntil(() => readers.some((r) => r.endedAt !== undefined), 5_000)
			const moved = readers.find((r) => r.endedAt !== undefined) as StreamClient
			const endedAt = moved.endedAt as number
			await publish(b, 'While A stops')
			// After the retry the stream gave (3 s), the reader is on B, caught up from its last event.
			const caughtUp = waitUntil(() => titles(moved).length === 2, 3_000 + liveBoundMs).then(
				() => Date.now() - endedAt,
			)
			// Then A closes the connections nginx keeps open to it, nginx's within 4 s (keepalive_timeout).
			await loading
			const stoppedMs = await stopped

			const caughtUpMs = await caughtUp
			expect(titles(readers.find((r) => r !== moved) as StreamClient)).toHaveLength(2)
			await publish(b, 'After the stop')
			await waitUntil(() => readers.every((r) => titles(r).length === 3), liveBoundMs)
			for (const r of readers) {
				expect(titles(r)).toEqual(['Before the stop', 'While A stops', 'After the stop'])
				expect(r.failures).toEqual([])
			}
			expect(readers.map((r) => r.opens).sort()).toEqual([1, 2])
			expect(streamsOn().b - before.b).toBe(2)

			const failed = pages.filter((page) => page.status !== 200)
			console.info(
				`A stopped ${stoppedMs} ms after SIGTERM; of ${pages.length} pages meanwhile, not 200: ${JSON.stringify(failed)}; its stream's reader had missed nothing ${caughtUpMs} ms after the stream ended`,
			)
			expect(pages.filter((page) => page.ms >= settleMs).length).toBeGreaterThan(0)
			expect(failed.filter((page) => page.ms < 0 || page.ms >= settleMs)).toEqual([])
			expect(served(a, 'GET', '/articles')).toBe(servedByA)
		})
	},
)
