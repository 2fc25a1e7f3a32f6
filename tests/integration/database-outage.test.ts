// Canopy while its PostgreSQL goes away, on a private cluster this file starts and stops (the
// shared test server is never touched): every kind of request gets a fast 503 with Retry-After,
// never a hang or a 500; cached pages are still served; killed connections cost no request; the
// LISTEN connection comes back and the live stream misses nothing. Decision 016.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EventSource } from 'eventsource'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ArticleEvent } from '#app/features/articles/article-types.ts'
import { saveArticle } from '#app/features/articles/articles.server.ts'
import { saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import { StorageUnavailable } from '#storage/port/unavailable.ts'
import type { PostgresOptions } from '#storage/postgres/open-postgres.ts'
import { makeKey, makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { contactFields, pastForm, postContactJson } from '#tests/fixtures/contact.ts'
import { articleFile, articleWrite } from '#tests/fixtures/factories.ts'
import { getPage, postForm } from '#tests/fixtures/forms.ts'
import { type PrivatePostgres, startPrivatePostgres } from '#tests/fixtures/private-postgres.ts'
import { runCli } from '#tests/fixtures/process.ts'
import { waitUntil } from '#tests/fixtures/sse.ts'
import { postgresDatabase, postgresUrl, type TestDatabase } from '#tests/fixtures/storage.ts'

interface Answer {
	status: number
	retryAfter: string | null
	type: string
	body: string
	ms: number
}

async function timed(request: Promise<Response>): Promise<Answer> {
	const started = performance.now()
	const response = await request
	const body = await response.text()
	return {
		status: response.status,
		retryAfter: response.headers.get('retry-after'),
		type: response.headers.get('content-type') ?? '',
		body,
		ms: performance.now() - started,
	}
}

describe.runIf(postgresUrl)('a PostgreSQL outage under a running instance', () => {
	let cluster: PrivatePostgres
	let admin: pg.Client
	let app: TestApp | undefined
	let database: TestDatabase | undefined

	beforeAll(async () => {
		cluster = await startPrivatePostgres()
	}, 60_000)
	afterAll(async () => {
		await cluster?.remove()
	})
	afterEach(async () => {
		await admin?.end().catch(() => {})
		// A test that failed half-way leaves the cluster as the next one expects it.
		if (!(await cluster.ready())) await cluster.start().catch(() => cluster.resume())
		await app?.close()
		app = undefined
	})

	async function start(
		options: Parameters<typeof startTestApp>[0] = {},
		storageOptions: Omit<PostgresOptions, 'schema' | 'rules'> = {},
	) {
		app = await startTestApp({
			...options,
			database: async () => {
				database = await postgresDatabase(cluster.url, storageOptions)
				return database
			},
		})
		admin = new pg.Client({ connectionString: cluster.url })
		// Its own connection goes down with the cluster too.
		admin.on('error', () => {})
		await admin.connect()
		return app
	}

	/** The backends of the app's pool, its LISTEN connection or its probe, by their names. */
	const backends = async (name: string) =>
		(
			await admin.query<{ pid: number }>(
				'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
				[name],
			)
		).rows.map((row) => row.pid)
	const terminate = (name: string) =>
		admin.query(
			'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
			[name],
		)

	it('answers every kind of request with a 503 and Retry-After at once while PostgreSQL is stopped, serves cached pages, and recovers by itself', async () => {
		// With the push worker, which looks for deliveries every 200 ms.
		const running = await start({ pushDelivery: { intervalMs: 200 } })
		const editorId = await makeUser(running, 'ada@example.org', 'admin')
		const cookie = await signIn(running, 'ada@example.org')
		const key = await makeKey(running, editorId)
		const form = await pastForm(running.storage)
		await saveSiteSettings(running.storage, { title: 'River Watch' })
		// Never from the cache: the settings just saved are read.
		expect((await getPage(running, '/contact')).status).toBe(200)
		// Read until the whole-page cache holds it: the settings' change reaches the cache through
		// the feed a moment later, and empties it then.
		const cached = async () => (await getPage(running, '/articles')).headers.get('cache-status')
		await expect.poll(cached, { timeout: 5_000 }).toBe('canopy; hit')

		await cluster.stop('immediate')
		const answers: Record<string, Answer> = {
			cachedPage: await timed(getPage(running, '/articles')),
			page: await timed(getPage(running, '/home?from=outage')),
			article: await timed(getPage(running, '/articles/any-article')),
			editorPage: await timed(getPage(running, '/admin', cookie)),
			editorArticle: await timed(getPage(running, '/admin/articles/1', cookie)),
			editorMessage: await timed(getPage(running, '/admin/messages/1', cookie)),
			contactApi: await timed(postContactJson(running.url, { ...contactFields, ...form })),
			contactForm: await timed(postForm(running, '/contact', { ...contactFields, ...form })),
			adminApi: await timed(
				fetch(`${running.url}/api/admin/articles`, { headers: { Authorization: `Bearer ${key}` } }),
			),
			feed: await timed(getPage(running, '/feed.xml')),
			stream: await timed(getPage(running, '/api/articles/stream')),
			signIn: await timed(
				fetch(`${running.url}/api/auth/sign-in/email`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json', Origin: running.url },
					body: JSON.stringify({ email: 'ada@example.org', password: 'whatever it is' }),
				}),
			),
			ready: await timed(getPage(running, '/readyz')),
		}
		// At once: no answer waits for a connection's timeout (2 s for the guard's probe, 5 s for
		// the pool's); the bound leaves room for a busy machine, where one took 1,011 ms.
		for (const [name, answer] of Object.entries(answers)) {
			expect(answer.ms, `${name} answered at once`).toBeLessThan(1_500)
			if (name === 'cachedPage') continue
			expect({ name, status: answer.status }).toEqual({ name, status: 503 })
			expect(Number(answer.retryAfter), `${name} says when to come back`).toBeGreaterThanOrEqual(1)
			expect(answer.body).not.toMatch(/\bat .+\.ts:\d+|Unexpected Server Error/)
		}
		// Readers of pages already in the cache read on.
		expect(answers.cachedPage?.status).toBe(200)
		// A page is a page in the site's look, saying what happened.
		expect(answers.page?.type).toMatch(/^text\/html/)
		expect(answers.page?.body).toContain('Back in a moment')
		expect(answers.page?.body).toMatch(/class="site-title"[^>]*>River Watch</)
		// Not "not found", nor "sign in again": what happened, and that it is not theirs.
		for (const editor of [answers.editorPage, answers.editorArticle, answers.editorMessage]) {
			expect(editor?.body).toContain('Back in a moment')
			expect(editor?.body).not.toMatch(/not found|could not load/)
		}
		// The form comes back with what was written in it.
		expect(answers.contactForm?.body).toContain('could not be sent just now')
		expect(answers.contactForm?.body).toContain(contactFields.message)
		expect(JSON.parse(answers.contactApi?.body ?? '{}').error).toMatch(/same idempotencyKey/)
		expect(JSON.parse(answers.adminApi?.body ?? '{}').error).toMatch(/cannot reach its database/)
		expect(running.storage.health.available).toBe(false)
		// The push worker steps on meanwhile, and fails each time.
		await new Promise((resolve) => setTimeout(resolve, 1_500))

		await cluster.start()
		const back = performance.now()
		await waitUntil(() => running.storage.health.available, 5_000)
		const recoveredMs = performance.now() - back
		expect((await getPage(running, '/home?from=outage')).status).toBe(200)
		expect((await postContactJson(running.url, { ...contactFields, ...form })).status).toBe(201)
		expect(recoveredMs).toBeLessThan(2_000)
		expect(running.logs.filter((entry) => entry.level === 'error')).toEqual([])
		// A job stepping through the outage said so once, not at each step.
		const retries = running.logs.filter(
			(entry) => entry.msg === 'push: could not read the deliveries; will retry',
		)
		expect(retries).toHaveLength(1)
	}, 60_000)

	/**
	 * Until its LISTEN connection is made, an instance cannot know what the feed missed: once
	 * made, it drops every public read it kept (storage/postgres/change-listener.ts). Kept reads
	 * are only kept from then on.
	 */
	async function listening(timeoutMs = 5_000) {
		const started = Date.now()
		for (;;) {
			const { rowCount } = await admin.query(
				`SELECT 1 FROM pg_stat_activity
				WHERE application_name = 'canopy listen' AND state = 'idle' AND query ILIKE 'LISTEN%'`,
			)
			if (rowCount === 1) return
			if (Date.now() - started > timeoutMs)
				throw new Error(`no LISTEN connection within ${timeoutMs} ms`)
			await new Promise((resolve) => setTimeout(resolve, 20))
		}
	}

	it('gives up on a database that accepts connections but never answers within about 3 s, then answers 503 at once', async () => {
		const running = await start()
		// On a busy machine the connection could otherwise be made after the page below is read,
		// and drop what it kept.
		await listening()
		expect((await getPage(running, '/home?warm')).status).toBe(200)
		cluster.freeze()
		try {
			// Pages whose reads are kept from before (decision 038) need no database: still 200.
			expect((await getPage(running, '/home?kept')).status).toBe(200)
			// Pages that must read it: an article, a tag and a search never read before.
			const first = await Promise.all(
				['/articles/x', '/tags/x', '/search?q=x'].map((path) => timed(getPage(running, path))),
			)
			for (const answer of first) {
				expect(answer.status).toBe(503)
				expect(answer.ms).toBeLessThan(4_500)
			}
			const after = await Promise.all(
				['/articles/y', '/tags/y', '/search?q=y'].map((path) => timed(getPage(running, path))),
			)
			// At once: no connection is tried (the bound leaves room for a busy machine).
			for (const answer of after) {
				expect(answer.status).toBe(503)
				expect(answer.ms).toBeLessThan(1_000)
			}
		} finally {
			cluster.resume()
		}
		await waitUntil(() => running.storage.health.available, 5_000)
		expect((await getPage(running, '/home?c')).status).toBe(200)
	}, 60_000)

	it('loses no request when the pool’s connections are killed under it, and never repeats a write', async () => {
		const running = await start({ trustProxy: '127.0.0.1' })
		for (let round = 0; round < 5; round++) {
			// Several connections in the pool, then all of them killed.
			await Promise.all(
				['/home', '/articles', '/contact'].map((path) => getPage(running, `${path}?r=${round}`)),
			)
			expect((await backends('canopy')).length).toBeGreaterThan(0)
			await terminate('canopy')
			// At once: reads on a connection that died meanwhile run again on a new one.
			const reads = await Promise.all(
				['/home', '/articles', '/feed.xml', '/sitemap.xml'].map((path) =>
					getPage(running, `${path}?k=${round}`),
				),
			)
			expect(reads.map((response) => response.status)).toEqual([200, 200, 200, 200])
			// A write after the pool has seen its connections go is served by a new one.
			await new Promise((resolve) => setTimeout(resolve, 50))
			const form = await pastForm(running.storage)
			const sent = await postContactJson(
				running.url,
				{ ...contactFields, subject: `Round ${round}`, ...form },
				{ 'X-Forwarded-For': `10.1.0.${round}` },
			)
			expect(sent.status).toBe(201)
		}
		expect(running.storage.health.available).toBe(true)

		// A write racing the kill either lands or fails as an outage, and is never run twice: sent
		// again with its key, it is stored once.
		const keys: string[] = []
		for (let round = 0; round < 10; round++) {
			await running.storage.articles.count()
			await terminate('canopy')
			const key = `race-${round}`
			keys.push(key)
			const write = running.storage.messages.create(
				{
					idempotencyKey: key,
					name: 'Ana',
					email: 'ana@example.org',
					subject: key,
					message: 'Hello',
				},
				[],
			)
			const outcome = await write.then(
				() => 'stored',
				(error: unknown) => (error instanceof StorageUnavailable ? 'unavailable' : String(error)),
			)
			expect(['stored', 'unavailable']).toContain(outcome)
			expect(await running.storage.articles.count()).toBeGreaterThan(0)
		}
		for (const key of keys) {
			await running.storage.messages.create(
				{
					idempotencyKey: key,
					name: 'Ana',
					email: 'ana@example.org',
					subject: key,
					message: 'Hello',
				},
				[],
			)
		}
		const stored = await running.storage.messages.list({ box: 'inbox', limit: 100, offset: 0 })
		const races = stored.items.filter((message) => message.subject.startsWith('race-'))
		expect(races.map((message) => message.subject).sort()).toEqual([...keys].sort())
	}, 90_000)

	it('holds one LISTEN connection, makes it again after it is killed, and the stream misses nothing', async () => {
		// The LISTEN connection waits a second before it is made again, so that what is published
		// below surely lands while nobody listens (250 ms by default).
		const running = await start({ stream: { retryMs: 100 } }, { listenRetryMs: 1_000 })
		// A second watcher of the feed (as the inbox stream is) shares the one connection.
		const stopSecond = running.storage.changes.watch(() => {})
		// Made in the background as the instance starts: on a busy machine, after this line.
		await expect.poll(async () => (await backends('canopy listen')).length).toBe(1)

		const since = running.broker.lastId
		const source = new EventSource(`${running.url}/api/articles/stream?since=${since}`)
		const received: { id: number; event: ArticleEvent }[] = []
		source.addEventListener('article', (message) => {
			received.push({ id: Number(message.lastEventId), event: JSON.parse(message.data) })
		})
		await new Promise((resolve) => source.addEventListener('open', resolve, { once: true }))
		const other = database?.open()
		// Its pool connected before the gap opens: the publishes below take milliseconds.
		await other?.articles.count()
		const dir = mkdtempSync(join(tmpdir(), 'canopy-listen-'))
		try {
			await saveArticle(running.storage, { title: 'Before the kill', body: 'x' }, 'published')
			await waitUntil(() => received.length === 1, 5_000)
			const [first] = await backends('canopy listen')

			for (let kill = 0; kill < 2; kill++) {
				await terminate('canopy listen')
				// Published through another handle while nobody listens: no NOTIFY reaches us.
				for (let i = 0; i < 3; i++)
					await other?.articles.saveBySlug(
						articleWrite({ slug: `gap-${kill}-${i}`, title: `During gap ${kill}.${i}` }),
					)
				expect(await backends('canopy listen'), 'published while nobody listened').toEqual([])
			}
			// And from another process, whenever it lands.
			const file = join(dir, 'from-cli.md')
			writeFileSync(file, articleFile({ title: 'From the command line', body: 'Hello.' }))
			const cli = await runCli(['article:publish', file], running.env)
			expect(cli.code, cli.stderr).toBe(0)

			await waitUntil(() => received.length === 8, 10_000)
			const listening = await backends('canopy listen')
			expect(listening).toHaveLength(1)
			expect(listening[0]).not.toBe(first)

			const changes = await running.storage.changes.after(since, 100)
			const articleChanges = changes.filter((change) => change.topic === 'articles')
			expect(received.map((event) => event.id)).toEqual(articleChanges.map((change) => change.id))
			expect(
				received.map(({ event }) => (event.kind === 'removed' ? '' : event.article.title)),
			).toEqual([
				'Before the kill',
				'During gap 0.0',
				'During gap 0.1',
				'During gap 0.2',
				'During gap 1.0',
				'During gap 1.1',
				'During gap 1.2',
				'From the command line',
			])
		} finally {
			source.close()
			stopSecond()
			await other?.close()
			rmSync(dir, { recursive: true, force: true })
		}
	}, 60_000)
})
