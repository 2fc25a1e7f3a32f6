// Two real server processes on one PostgreSQL database, as behind a load balancer: whichever
// instance a request reaches, the reader and the editor see one site. A first-admin link, a
// session, the live stream and the rate limits are shared through the database. (The periodic
// jobs: instances-jobs.test.ts.)
import { EventSource } from 'eventsource'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKey } from '#app/features/api-keys/api-keys.server.ts'
import type { ArticleEvent } from '#app/features/articles/article-types.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { contactFields, pastForm, postContactJson } from '#tests/fixtures/contact.ts'
import {
	cliAccount,
	type Instance,
	type Instances,
	postForm,
	startInstances,
} from '#tests/fixtures/instances.ts'
import { waitUntil } from '#tests/fixtures/sse.ts'
import { postgresUrl } from '#tests/fixtures/storage.ts'

const password = 'estuary salt marsh 12'

function listen(url: string) {
	const source = new EventSource(url)
	const received: { id: number; event: ArticleEvent }[] = []
	source.addEventListener('article', (message) => {
		received.push({ id: Number(message.lastEventId), event: JSON.parse(message.data) })
	})
	const opened = new Promise<void>((resolve) =>
		source.addEventListener('open', () => resolve(), { once: true }),
	)
	return { source, received, opened }
}

const titles = (received: { event: ArticleEvent }[]) =>
	received.map(({ event }) => (event.kind === 'removed' ? `-${event.id}` : event.article.title))

describe.runIf(postgresUrl)('two instances on one PostgreSQL database', () => {
	describe('one site, whichever instance answers', () => {
		let site: Instances
		let storage: Storage
		let a: Instance
		let b: Instance
		const sources: EventSource[] = []

		beforeAll(async () => {
			// Behind a proxy on this machine: X-Forwarded-For says who the visitor is.
			site = await startInstances(2, { env: { TRUST_PROXY: '127.0.0.1' } })
			;[a, b] = site.instances as [Instance, Instance]
			storage = site.database.open()
		}, 120_000)
		afterAll(async () => {
			for (const source of sources) source.close()
			await storage?.close()
			await site?.close()
		}, 60_000)

		/** An account made with the CLI, as an operator would. */
		const account = (email: string, role: 'admin' | 'editor', name: string) =>
			cliAccount(site, storage, { email, role, name, password })

		// First: it needs a site without any account yet.
		it('makes the first admin on B from the setup link A printed, and only once', async () => {
			// Printed just after the line the start waits for: on a busy machine it can come a
			// moment later, so it is waited for (up to 5 s).
			const printed = async (instance: Instance) => {
				for (let tries = 0; tries < 100; tries++) {
					const token = /\/admin\/setup\?token=([\w-]{43})/.exec(instance.output())?.[1]
					if (token) return token
					await new Promise((resolve) => setTimeout(resolve, 50))
				}
				return ''
			}
			const token = await printed(a)
			expect(token).not.toBe('')
			const form = await fetch(`${b.url}/admin/setup?token=${token}`)
			expect(form.status).toBe(200)
			expect(await form.text()).toContain('Make the admin account')

			const admin = { name: 'Rosa Lima', email: 'rosa@example.org', password }
			const made = await postForm(site, b, `/admin/setup?token=${token}`, admin)
			expect(made.status).toBe(302)
			expect(made.location).toBe('/admin')

			const again = await postForm(site, a, `/admin/setup?token=${token}`, {
				...admin,
				email: 'second@example.org',
			})
			expect(again.status).toBe(403)
			expect(again.text).toContain('This site is set up')
			// The link B printed for itself no longer makes an admin either: the site has one.
			const own = await printed(b)
			expect(own).not.toBe('')
			expect(own).not.toBe(token)
			const late = await postForm(site, b, `/admin/setup?token=${own}`, {
				...admin,
				email: 'third@example.org',
			})
			expect(late.status).toBe(403)
			expect(late.text).toContain('This site is set up')
		})

		it('keeps a session made on A good on B, and a sign-out on B ends it on A', async () => {
			await account('ana@example.org', 'editor', 'Ana Costa')
			const signedIn = await postForm(site, a, '/admin/sign-in', {
				email: 'ana@example.org',
				password,
			})
			expect(signedIn.status).toBe(302)
			const { cookie } = signedIn
			expect(cookie).toContain('canopy.session_token=')

			const onB = await fetch(`${b.url}/admin`, { headers: { Cookie: cookie }, redirect: 'manual' })
			expect(onB.status).toBe(200)
			expect(await onB.text()).toContain('Signed in as <strong>Ana Costa</strong>')

			const signedOut = await postForm(site, b, '/admin/sign-out', {}, cookie)
			expect(signedOut.status).toBe(302)
			const onA = await fetch(`${a.url}/admin`, { headers: { Cookie: cookie }, redirect: 'manual' })
			expect(onA.status).toBe(302)
			expect(onA.headers.get('location')).toMatch(/^\/admin\/sign-in/)
		})

		it('streams articles published through A to a client of B and one of A, in order', async () => {
			const key = (
				await createApiKey(storage, {
					name: 'Publishing script',
					createdBy: await account('ada@example.org', 'admin', 'Ada Admin'),
				})
			).key
			const since = await storage.changes.latestId()
			const clients = [b, a].map((instance) => {
				const client = listen(`${instance.url}/api/articles/stream?since=${since}`)
				sources.push(client.source)
				return client
			})
			await Promise.all(clients.map((client) => client.opened))

			const published: string[] = []
			for (const n of [1, 2, 3]) {
				const api = (path: string, body: unknown) =>
					fetch(`${a.url}/api/admin/articles${path}`, {
						method: 'POST',
						headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
						body: JSON.stringify(body),
					})
				const title = `Across instances ${n}`
				const created = await (
					await api('', { title, summary: 'Seen everywhere.', body: 'Text.', tags: [] })
				).json()
				const made = await api(`/${created.article.id}/publish`, {
					version: created.article.version,
				})
				expect(made.status).toBe(200)
				published.push(title)
			}
			await waitUntil(() => clients.every((client) => client.received.length >= 3), 15_000)
			const [onB, onA] = clients as [ReturnType<typeof listen>, ReturnType<typeof listen>]
			expect(titles(onB.received)).toEqual(published)
			expect(onB.received.map((r) => r.id)).toEqual(onA.received.map((r) => r.id))
			expect(onB.received.map((r) => r.id)).toEqual(
				[...onB.received.map((r) => r.id)].sort((x, y) => x - y),
			)
			for (const { event } of onB.received) expect(event.kind).toBe('added')
			// B's page cache heard of it too: its list shows the article at once.
			expect(await (await fetch(`${b.url}/articles`)).text()).toContain('Across instances 3')
		})

		it('counts the contact limit across both: five messages on A, then one on B is refused', async () => {
			// A browser on the site sends the site's origin, whichever instance the balancer picks.
			const visitor = { 'X-Forwarded-For': '198.51.100.77', Origin: site.siteUrl }
			for (let n = 1; n <= 5; n++) {
				const sent = await postContactJson(
					a.url,
					{ ...contactFields, subject: `Limit ${n}`, ...(await pastForm(storage)) },
					visitor,
				)
				expect(sent.status).toBe(201)
			}
			const refused = await postContactJson(
				b.url,
				{ ...contactFields, subject: 'Limit 6', ...(await pastForm(storage)) },
				visitor,
			)
			expect(refused.status).toBe(429)
			const retryAfter = Number(refused.headers.get('retry-after'))
			expect(retryAfter).toBeGreaterThan(0)
			expect(retryAfter).toBeLessThanOrEqual(600)
			// Another visitor is not held back, on either.
			const other = await postContactJson(
				b.url,
				{ ...contactFields, subject: 'Another visitor', ...(await pastForm(storage)) },
				{ 'X-Forwarded-For': '198.51.100.78', Origin: site.siteUrl },
			)
			expect(other.status).toBe(201)
		})

		// Twelve password checks and a CLI process: give them time on a busy machine.
		it('counts sign-in attempts across both, per account and per address', {
			timeout: 60_000,
		}, async () => {
			await account('ben@example.org', 'editor', 'Ben Okafor')
			const attempt = (instance: Instance, email: string, address: string) =>
				fetch(`${instance.url}/api/auth/sign-in/email`, {
					method: 'POST',
					headers: {
						'Content-Type': 'application/json',
						Origin: site.siteUrl,
						'X-Forwarded-For': address,
					},
					body: JSON.stringify({ email, password: 'not the password' }),
				})
			const expectRefused = (response: Response) => {
				expect(response.status).toBe(429)
				expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
			}

			// One account from five addresses on A, then a sixth address on B: the account's limit.
			for (let n = 1; n <= 5; n++)
				expect((await attempt(a, 'ben@example.org', `203.0.113.${n}`)).status).toBe(401)
			expectRefused(await attempt(b, 'ben@example.org', '203.0.113.6'))

			// One address trying five accounts on A, then a sixth on B: the address's limit.
			for (let n = 1; n <= 5; n++)
				expect((await attempt(a, `nobody${n}@example.org`, '203.0.113.50')).status).toBe(401)
			expectRefused(await attempt(b, 'nobody6@example.org', '203.0.113.50'))
		})
	})
})
