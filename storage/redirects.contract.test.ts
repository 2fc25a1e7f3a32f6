// Redirects on both databases (migration 0015): a published article's rename records a 301 from
// its old address, chains collapse, renaming back leaves no loop, an admin's loop is refused.
import { describe, expect, it } from 'vitest'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

describe.each(databases)('redirects storage contract: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	const moves = async () =>
		(await storage.redirects.list()).map((moved) => `${moved.from} → ${moved.to} ${moved.status}`)

	async function rename(id: number, slug: string, status: 'published' | 'draft' = 'published') {
		const current = await storage.articles.findById(id)
		if (!current) throw new Error('missing')
		const updated = await storage.articles.update(id, current.version, {
			...articleWrite({ slug, title: current.title, status }),
			publishedAt: current.publishedAt,
		})
		if (!updated.ok) throw new Error(updated.reason)
		return updated.saved
	}

	it('records a 301 when a published article is renamed, and collapses a second rename', async () => {
		const created = await storage.articles.create(articleWrite({ slug: 'heron-count' }))
		if (!created.ok) throw new Error('not created')
		const id = created.saved.article.id
		const since = await storage.changes.latestId()
		await rename(id, 'heron-count-2026')
		expect(await moves()).toEqual(['/articles/heron-count → /articles/heron-count-2026 301'])
		expect((await storage.changes.after(since, 10)).map((change) => change.topic).sort()).toEqual([
			'articles',
			'redirects',
		])
		await rename(id, 'herons')
		// No chain: the first address goes straight to the last.
		expect(await moves()).toEqual([
			'/articles/heron-count → /articles/herons 301',
			'/articles/heron-count-2026 → /articles/herons 301',
		])
		expect(await storage.redirects.find('/articles/heron-count')).toMatchObject({
			to: '/articles/herons',
			automatic: true,
		})
		// Back to the first address: it has content again, and nothing points at itself.
		await rename(id, 'heron-count')
		expect(await moves()).toEqual([
			'/articles/heron-count-2026 → /articles/heron-count 301',
			'/articles/herons → /articles/heron-count 301',
		])
	})

	it('records nothing for a draft never published, and a page’s move at its own address', async () => {
		const draft = await storage.articles.create(
			articleWrite({ slug: 'draft-one', status: 'draft', publishedAt: null }),
		)
		if (!draft.ok) throw new Error('not created')
		await rename(draft.saved.article.id, 'draft-two', 'draft')
		expect(await moves()).toEqual([])
		const page = await storage.articles.create(
			articleWrite({ kind: 'page', slug: 'about', tags: [] }),
		)
		if (!page.ok) throw new Error('not created')
		await rename(page.saved.article.id, 'about-us')
		expect(await moves()).toEqual(['/about → /about-us 301'])
	})

	it('keeps an admin’s redirects, sends older ones on, refuses a loop, and deletes', async () => {
		expect(
			await storage.redirects.put({ from: '/blog/a', to: '/articles/a', status: 302 }),
		).toEqual({
			ok: true,
		})
		expect(await storage.redirects.put({ from: '/old/a', to: '/blog/a', status: 301 })).toEqual({
			ok: true,
		})
		// To an address that itself redirects: straight to where that ends, no chain.
		expect(await moves()).toEqual(['/blog/a → /articles/a 302', '/old/a → /articles/a 301'])
		// What led to an address that moves on goes straight to its new place.
		await storage.redirects.put({ from: '/short', to: '/blog/a', status: 301 })
		await storage.redirects.put({ from: '/articles/a', to: '/articles/a-new', status: 301 })
		expect(await moves()).toEqual([
			'/articles/a → /articles/a-new 301',
			'/blog/a → /articles/a-new 302',
			'/old/a → /articles/a-new 301',
			'/short → /articles/a-new 301',
		])
		await storage.redirects.put({ from: '/blog/a', to: '/articles/a-new', status: 301 })
		expect(
			await storage.redirects.put({ from: '/articles/a-new', to: '/blog/a', status: 301 }),
		).toEqual({
			ok: false,
			reason: 'loop',
		})
		expect(await storage.redirects.put({ from: '/x', to: '/x', status: 301 })).toEqual({
			ok: false,
			reason: 'loop',
		})
		expect(await storage.redirects.delete('/old/a')).toBe(true)
		expect(await storage.redirects.delete('/old/a')).toBe(false)
		expect(await moves()).toEqual([
			'/articles/a → /articles/a-new 301',
			'/blog/a → /articles/a-new 301',
			'/short → /articles/a-new 301',
		])
	})

	it('imports many in one transaction, or none when one would loop', async () => {
		expect(
			await storage.redirects.putMany([
				{ from: '/2019/heron', to: '/articles/heron', status: 301 },
				{ from: '/p/42', to: '/2019/heron', status: 302 },
			]),
		).toEqual({ ok: true, count: 2 })
		// Chains collapse across the file's own rows, as one by one.
		expect(await moves()).toEqual([
			'/2019/heron → /articles/heron 301',
			'/p/42 → /articles/heron 302',
		])
		const before = await storage.changes.latestId()
		expect(
			await storage.redirects.putMany([
				{ from: '/a', to: '/b', status: 301 },
				{ from: '/articles/heron', to: '/p/42', status: 301 },
			]),
		).toEqual({ ok: false, loops: ['/articles/heron'] })
		expect(await moves()).toEqual([
			'/2019/heron → /articles/heron 301',
			'/p/42 → /articles/heron 302',
		])
		expect(await storage.changes.latestId()).toBe(before)
	})
})
