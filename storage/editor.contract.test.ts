// The editor area's part of the storage contract (migration 0003): versioned article writes,
// the editor's list, scheduled publishing, images, API keys and rate limits, on both databases.

import { randomBytes } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { parseQuery } from '#app/features/search/search-query.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

describe.each(databases)('editor storage contract: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	async function insertUser(id: string) {
		const now = new Date().toISOString()
		await storage.authDatabase.db
			.insertInto('user')
			.values({
				id,
				name: 'Ada',
				email: `${id}@example.org`,
				emailVerified: false,
				image: null,
				createdAt: now,
				updatedAt: now,
				role: 'admin',
				deactivatedAt: null,
			})
			.execute()
	}

	it('creates a draft, then refuses to save over a newer version and says what is there', async () => {
		const created = await storage.articles.create(
			articleWrite({ status: 'draft', publishedAt: null }),
		)
		if (!created.ok) throw new Error('create failed')
		const { article } = created.saved
		expect(article.version).toBe(1)
		expect(created.saved.change).toBeNull()

		const first = await storage.articles.update(article.id, 1, {
			...articleWrite(),
			slug: article.slug,
			title: 'Mine',
			status: 'draft',
			publishedAt: null,
		})
		expect(first.ok && first.saved.article.version).toBe(2)

		const stale = await storage.articles.update(article.id, 1, {
			...articleWrite(),
			slug: article.slug,
			title: 'Theirs',
			status: 'draft',
			publishedAt: null,
		})
		expect(stale).toMatchObject({
			ok: false,
			reason: 'conflict',
			current: { title: 'Mine', version: 2 },
		})
		expect((await storage.articles.findById(article.id))?.title).toBe('Mine')

		expect(await storage.articles.update(999_999, 1, articleWrite())).toEqual({
			ok: false,
			reason: 'missing',
		})
	})

	it('lets only one of two racing saves of the same version win', async () => {
		const created = await storage.articles.create(
			articleWrite({ status: 'draft', publishedAt: null }),
		)
		if (!created.ok) throw new Error('create failed')
		const { id, slug } = created.saved.article
		const results = await Promise.all(
			['A', 'B'].map((title) =>
				storage.articles.update(id, 1, {
					...articleWrite(),
					slug,
					title,
					status: 'draft',
					publishedAt: null,
				}),
			),
		)
		expect(results.filter((result) => result.ok)).toHaveLength(1)
		expect(results.filter((result) => !result.ok && result.reason === 'conflict')).toHaveLength(1)
		expect((await storage.articles.findById(id))?.version).toBe(2)
	})

	it('refuses a slug another article holds, on create and on update', async () => {
		const a = await storage.articles.create(articleWrite({ slug: 'taken' }))
		expect(a.ok).toBe(true)
		expect(await storage.articles.create(articleWrite({ slug: 'taken' }))).toEqual({
			ok: false,
			reason: 'slug-taken',
		})
		const b = await storage.articles.create(articleWrite({ slug: 'other' }))
		if (!b.ok) throw new Error('create failed')
		expect(
			await storage.articles.update(b.saved.article.id, 1, articleWrite({ slug: 'taken' })),
		).toEqual({ ok: false, reason: 'slug-taken' })
		expect(await storage.articles.slugTaken('taken')).toBe(true)
		expect(await storage.articles.slugTaken('other', b.saved.article.id)).toBe(false)
		expect(await storage.articles.slugTaken('free')).toBe(false)
	})

	it('records public changes for publish, edit and unpublish, and none for drafts', async () => {
		const created = await storage.articles.create(
			articleWrite({ status: 'draft', publishedAt: null }),
		)
		if (!created.ok) throw new Error('create failed')
		const { id, slug } = created.saved.article
		const write = (status: 'draft' | 'published', version: number) =>
			storage.articles.update(id, version, {
				...articleWrite(),
				slug,
				status,
				publishedAt: status === 'published' ? new Date().toISOString() : null,
			})
		const kinds = []
		for (const [status, version] of [
			['draft', 1],
			['published', 2],
			['published', 3],
			['draft', 4],
		] as const) {
			const result = await write(status, version)
			if (!result.ok) throw new Error(`update failed: ${result.reason}`)
			kinds.push(result.saved.change?.kind ?? null)
		}
		expect(kinds).toEqual([null, 'added', 'modified', 'removed'])
	})

	it('lists every article for the editor, filtered by status and searched by words', async () => {
		await storage.articles.create(
			articleWrite({ title: 'Wetlands at 50% loss', status: 'published' }),
		)
		await storage.articles.create(
			articleWrite({ title: 'Draft about soil', status: 'draft', publishedAt: null }),
		)
		await storage.articles.create(
			articleWrite({
				title: 'Coming soon',
				status: 'draft',
				publishedAt: null,
				publishAt: '2030-01-01T00:00:00.000Z',
			}),
		)

		const all = await storage.articles.listForEditor({ limit: 10, offset: 0 })
		expect(all.total).toBe(3)
		expect(all.items[0]?.title).toBe('Coming soon')
		expect(all.items[0]?.publishAt).toBe('2030-01-01T00:00:00.000Z')

		const titles = async (options: Parameters<Storage['articles']['listForEditor']>[0]) =>
			(await storage.articles.listForEditor(options)).items.map((item) => item.title)
		expect(await titles({ status: 'published', limit: 10, offset: 0 })).toEqual([
			'Wetlands at 50% loss',
		])
		expect(await titles({ status: 'draft', limit: 10, offset: 0 })).toEqual(['Draft about soil'])
		expect(await titles({ status: 'scheduled', limit: 10, offset: 0 })).toEqual(['Coming soon'])
		// Through the search index, drafts included: words, whatever their case or signs.
		const words = (text: string) => parseQuery(text) ?? undefined
		expect(await titles({ query: words('SOIL'), limit: 10, offset: 0 })).toEqual([
			'Draft about soil',
		])
		expect(await titles({ query: words('50%'), limit: 10, offset: 0 })).toEqual([
			'Wetlands at 50% loss',
		])
		expect(await titles({ query: words('clay'), limit: 10, offset: 0 })).toEqual([])
		expect(
			await titles({ query: words('soil'), status: 'published', limit: 10, offset: 0 }),
		).toEqual([])
		const page = await storage.articles.listForEditor({ limit: 2, offset: 2 })
		expect(page).toMatchObject({ total: 3, items: [{ title: 'Wetlands at 50% loss' }] })
	})

	it('publishes each due scheduled draft once, even with two runs at the same moment', async () => {
		const due = await storage.articles.create(
			articleWrite({ status: 'draft', publishedAt: null, publishAt: '2026-01-01T10:00:00.000Z' }),
		)
		await storage.articles.create(
			articleWrite({ status: 'draft', publishedAt: null, publishAt: '2099-01-01T10:00:00.000Z' }),
		)
		if (!due.ok) throw new Error('create failed')
		const before = await storage.changes.latestId()

		// PostgreSQL: two pools, as two instances would have. SQLite: one handle per process.
		const second = database.dialect === 'postgres' ? database.open() : storage
		try {
			const runs = await Promise.all([
				storage.articles.publishDue(new Date('2026-06-01T00:00:00Z'), 10),
				second.articles.publishDue(new Date('2026-06-01T00:00:00Z'), 10),
			])
			expect(runs.flat().map((article) => article.id)).toEqual([due.saved.article.id])
		} finally {
			if (second !== storage) await second.close()
		}
		const article = await storage.articles.findById(due.saved.article.id)
		expect(article).toMatchObject({
			status: 'published',
			publishAt: null,
			publishedAt: '2026-01-01T10:00:00.000Z',
		})
		const changes = await storage.changes.after(before, 10)
		expect(changes.map((change) => [change.entityId, change.kind])).toEqual([
			[String(due.saved.article.id), 'added'],
		])
	})

	it('deletes by id only at the expected version, and records a removal for a public article', async () => {
		const created = await storage.articles.create(articleWrite({ status: 'published' }))
		if (!created.ok) throw new Error('create failed')
		const { id } = created.saved.article
		expect(await storage.articles.deleteById(id, 7)).toEqual({ ok: false, reason: 'conflict' })
		const deleted = await storage.articles.deleteById(id, 1)
		expect(deleted.ok && deleted.change?.kind).toBe('removed')
		expect(await storage.articles.deleteById(id)).toEqual({ ok: false, reason: 'missing' })
	})

	it('stores an image once per content and gives back the same bytes', async () => {
		const bytes = new Uint8Array(randomBytes(70_000))
		const meta = {
			hash: 'a'.repeat(64),
			mime: 'image/png',
			size: bytes.length,
			width: 4,
			height: 3,
		}
		const first = await storage.uploads.put({ ...meta, bytes, createdBy: null })
		const again = await storage.uploads.put({ ...meta, mime: 'image/webp', bytes, createdBy: null })
		// The same bytes again: what was stored first, kept as it was, and said to be there already.
		expect(first.added).toBe(true)
		expect(again).toEqual({ ...first, added: false })
		const stored = await storage.uploads.get(meta.hash)
		expect(stored?.meta).toMatchObject(meta)
		expect(Buffer.from(stored?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true)
		expect(await storage.uploads.get('b'.repeat(64))).toBeUndefined()
		// What a page needs of it, without its bytes.
		expect(await storage.uploads.describe(meta.hash)).toEqual(stored?.meta)
		expect(await storage.uploads.describe('b'.repeat(64))).toBeUndefined()
	})

	it('finds an API key by its hash until it is revoked', async () => {
		await insertUser('u1')
		const key = await storage.apiKeys.create({
			name: 'Deploy',
			keyHash: 'h1',
			prefix: 'cnp_abc',
			createdBy: 'u1',
		})
		expect(key).toMatchObject({
			name: 'Deploy',
			prefix: 'cnp_abc',
			lastUsedAt: null,
			revokedAt: null,
		})
		const used = await storage.apiKeys.useByHash('h1')
		expect(used?.id).toBe(key.id)
		expect(used?.lastUsedAt).not.toBeNull()
		expect(await storage.apiKeys.useByHash('nope')).toBeUndefined()
		expect(await storage.apiKeys.revoke(key.id)).toBe(true)
		expect(await storage.apiKeys.revoke(key.id)).toBe(false)
		expect(await storage.apiKeys.useByHash('h1')).toBeUndefined()
		expect((await storage.apiKeys.list())[0]?.revokedAt).not.toBeNull()
	})

	it('counts rate-limit hits exactly under concurrency and starts a new window when one ends', async () => {
		const now = 1_000_000
		const hits = await Promise.all(
			Array.from({ length: 8 }, () =>
				storage.rateLimits.hit('sign-in:a@example.org', 5, 60_000, now),
			),
		)
		expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
		expect(hits.filter((hit) => hit.allowed)).toHaveLength(5)
		expect(hits[0]?.resetAt).toBe(now + 60_000)
		const later = await storage.rateLimits.hit('sign-in:a@example.org', 5, 60_000, now + 60_000)
		expect(later).toEqual({ allowed: true, count: 1, resetAt: now + 120_000 })
		await storage.rateLimits.clear('sign-in:a@example.org')
		expect(
			(await storage.rateLimits.hit('sign-in:a@example.org', 5, 60_000, now + 60_001)).count,
		).toBe(1)
	})

	describe('a create sent with an Idempotency-Key', () => {
		const request = (userId: string, key: string, fingerprint = 'body-a') => ({
			userId,
			key,
			fingerprint,
		})

		it('makes the article once; sent again, it answers with that article', async () => {
			await insertUser('u-ada')
			const first = await storage.articles.create(
				articleWrite({ slug: 'first-try' }),
				request('u-ada', 'k1'),
			)
			if (!first.ok) throw new Error('create failed')
			// Sent again after a lost answer: the editor function picked a new free slug meanwhile.
			const again = await storage.articles.create(
				articleWrite({ slug: 'first-try-2' }),
				request('u-ada', 'k1'),
			)
			expect(again).toMatchObject({
				ok: false,
				reason: 'repeated',
				article: { id: first.saved.article.id, slug: 'first-try' },
			})
			expect(await storage.articles.count()).toBe(1)
			expect(await storage.changes.after(0, 10)).toHaveLength(1)
		})

		it('refuses the key with another body, and keeps keys apart per caller', async () => {
			await insertUser('u-ada')
			await insertUser('u-bo')
			expect((await storage.articles.create(articleWrite(), request('u-ada', 'k1'))).ok).toBe(true)
			expect(
				await storage.articles.create(articleWrite(), request('u-ada', 'k1', 'body-b')),
			).toEqual({
				ok: false,
				reason: 'key-reused',
			})
			expect((await storage.articles.create(articleWrite(), request('u-bo', 'k1'))).ok).toBe(true)
			expect(await storage.articles.count()).toBe(2)
		})

		it('makes one article when the same request arrives several times at once', async () => {
			await insertUser('u-ada')
			const results = await Promise.all(
				Array.from({ length: 5 }, () =>
					storage.articles.create(articleWrite({ slug: 'at-once' }), request('u-ada', 'k-once')),
				),
			)
			expect(results.filter((result) => result.ok)).toHaveLength(1)
			expect(results.filter((result) => !result.ok && result.reason === 'repeated')).toHaveLength(4)
			expect(await storage.articles.count()).toBe(1)
		})

		it('forgets a key after a day', async () => {
			await insertUser('u-ada')
			vi.useFakeTimers({ toFake: ['Date'] })
			try {
				vi.setSystemTime(new Date('2026-03-01T10:00:00Z'))
				expect((await storage.articles.create(articleWrite(), request('u-ada', 'k1'))).ok).toBe(
					true,
				)
				vi.setSystemTime(new Date('2026-03-02T09:59:00Z'))
				expect((await storage.articles.create(articleWrite(), request('u-ada', 'k1'))).ok).toBe(
					false,
				)
				vi.setSystemTime(new Date('2026-03-02T10:00:01Z'))
				expect((await storage.articles.create(articleWrite(), request('u-ada', 'k1'))).ok).toBe(
					true,
				)
			} finally {
				vi.useRealTimers()
			}
			expect(await storage.articles.count()).toBe(2)
		})
	})
})
