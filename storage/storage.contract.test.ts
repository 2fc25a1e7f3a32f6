// The storage contract: the same behaviour from every adapter. Runs against SQLite always and
// PostgreSQL when TEST_DATABASE_URL is set (CI sets it).
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { articleFile, articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
	const started = Date.now()
	return new Promise((resolve, reject) => {
		const check = () => {
			if (predicate()) return resolve()
			if (Date.now() - started > timeoutMs)
				return reject(new Error(`not true within ${timeoutMs} ms`))
			setTimeout(check, 10)
		}
		check()
	})
}

const execFileAsync = promisify(execFile)

describe.each(databases)('storage contract: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	it('migrates once and reports nothing to do the second time', async () => {
		expect(await storage.migrate()).toEqual([])
		await expect(storage.ping()).resolves.toBeUndefined()
	})

	it('stores an article and reads it back with the same values', async () => {
		const write = articleWrite({
			tags: ['soil', 'food'],
			coverImageUrl: '/x.png',
			coverImageAlt: 'A field',
		})
		const { article } = await storage.articles.saveBySlug(write)
		expect(article).toMatchObject({
			slug: write.slug,
			title: write.title,
			tags: [
				{ name: 'soil', slug: 'soil' },
				{ name: 'food', slug: 'food' },
			],
			authors: [{ name: 'Test Author', slug: 'test-author' }],
			coverImageUrl: '/x.png',
			coverImageAlt: 'A field',
			status: 'published',
			publishedAt: write.publishedAt,
			version: 1,
		})
		expect(typeof article.id).toBe('number')
		expect(article.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
		expect(await storage.articles.findBySlug(write.slug)).toEqual(article)
		expect(await storage.articles.count()).toBe(1)
	})

	it('records added, modified and removed changes in the same transaction as the article', async () => {
		const draft = articleWrite({ status: 'draft' })
		expect((await storage.articles.saveBySlug(draft)).change).toBeNull()
		const published = await storage.articles.saveBySlug({ ...draft, status: 'published' })
		expect(published.change).toMatchObject({
			topic: 'articles',
			entityId: String(published.article.id),
			kind: 'added',
		})
		const edited = await storage.articles.saveBySlug({
			...draft,
			status: 'published',
			title: 'New title',
		})
		expect(edited.change?.kind).toBe('modified')
		expect(edited.article.version).toBe(3)
		const unpublished = await storage.articles.saveBySlug({ ...draft, status: 'draft' })
		expect(unpublished.change?.kind).toBe('removed')

		const changes = await storage.changes.after(0, 100)
		expect(changes.map((change) => change.kind)).toEqual(['added', 'modified', 'removed'])
		expect(changes.map((change) => change.id)).toEqual(
			[...changes.map((change) => change.id)].sort((a, b) => a - b),
		)
		expect(await storage.changes.latestId()).toBe(changes.at(-1)?.id)
	})

	it('deletes: a published article leaves a removal, a draft leaves nothing', async () => {
		const shown = await storage.articles.saveBySlug(articleWrite())
		const hidden = await storage.articles.saveBySlug(articleWrite({ status: 'draft' }))
		expect((await storage.articles.deleteBySlug(shown.article.slug))?.kind).toBe('removed')
		expect(await storage.articles.deleteBySlug(hidden.article.slug)).toBeNull()
		expect(await storage.articles.deleteBySlug('no-such-article')).toBeNull()
		expect(await storage.articles.count()).toBe(0)
	})

	it('keeps drafts out of every public read', async () => {
		const draft = await storage.articles.saveBySlug(articleWrite({ status: 'draft' }))
		const shown = await storage.articles.saveBySlug(articleWrite())
		expect(await storage.articles.findPublishedBySlug(draft.article.slug)).toBeUndefined()
		expect((await storage.articles.listPublished({ limit: 10 })).map((card) => card.id)).toEqual([
			shown.article.id,
		])
		expect(
			(await storage.articles.listPublishedByIds([draft.article.id, shown.article.id])).map(
				(card) => card.id,
			),
		).toEqual([shown.article.id])
		expect((await storage.articles.listPublishedFull(10)).map((article) => article.id)).toEqual([
			shown.article.id,
		])
	})

	it('keeps pages out of every article read, and finds them by their own', async () => {
		const article = await storage.articles.create(articleWrite())
		const page = await storage.articles.create(
			articleWrite({ kind: 'page', slug: 'about', title: 'About us', tags: [] }),
		)
		if (!article.ok || !page.ok) throw new Error('not saved')
		const pageId = page.saved.article.id
		expect(page.saved.article.kind).toBe('page')
		expect(page.saved.change?.topic).toBe('pages')
		expect(article.saved.change?.topic).toBe('articles')
		expect((await storage.articles.listPublished({ limit: 10 })).map((card) => card.id)).toEqual([
			article.saved.article.id,
		])
		expect(await storage.articles.listPublishedByIds([pageId])).toEqual([])
		expect((await storage.articles.listPublishedFull(10)).map((row) => row.kind)).toEqual([
			'article',
		])
		expect(await storage.articles.findPublishedBySlug('about')).toBeUndefined()
		expect((await storage.articles.findPublishedBySlug('about', 'page'))?.id).toBe(pageId)
		expect(await storage.articles.listPublishedPages()).toEqual([
			{
				id: pageId,
				slug: 'about',
				title: 'About us',
				updatedAt: page.saved.article.updatedAt,
				language: '',
				translationOf: null,
			},
		])
		// The sitemap's articles: addresses (and what their hreflang needs) only, pages left out.
		expect(await storage.articles.listPublishedAddresses(10)).toEqual([
			{
				id: article.saved.article.id,
				slug: article.saved.article.slug,
				updatedAt: article.saved.article.updatedAt,
				language: '',
				translationOf: null,
			},
		])
		const editorList = (kind?: 'article' | 'page') =>
			storage.articles
				.listForEditor({ kind, limit: 10, offset: 0 })
				.then((list) => list.items.map((item) => item.id))
		expect(await editorList()).toEqual([article.saved.article.id])
		expect(await editorList('page')).toEqual([pageId])
		// A save keeps what the row is; an unpublished page's removal is on its own topic too.
		const updated = await storage.articles.update(pageId, page.saved.article.version, {
			...articleWrite({ slug: 'about', title: 'About us', status: 'draft' }),
			kind: 'article',
		})
		expect(updated.ok && [updated.saved.article.kind, updated.saved.change?.topic]).toEqual([
			'page',
			'pages',
		])
	})

	it('finds the articles just before and after one, past drafts and pages, ties broken by id', async () => {
		const at = (day: number) => `2026-03-0${day}T09:00:00.000Z`
		const first = await storage.articles.saveBySlug(articleWrite({ publishedAt: at(1) }))
		await storage.articles.saveBySlug(articleWrite({ status: 'draft', publishedAt: at(2) }))
		await storage.articles.create(articleWrite({ kind: 'page', slug: 'about', publishedAt: at(2) }))
		const middle = await storage.articles.saveBySlug(articleWrite({ publishedAt: at(3) }))
		const sameTime = await storage.articles.saveBySlug(articleWrite({ publishedAt: at(3) }))
		const cursor = (saved: typeof first) => ({
			publishedAt: saved.article.publishedAt ?? '',
			id: saved.article.id,
		})
		const ids = async (of: typeof first) => {
			const { newer, older } = await storage.articles.neighbours(cursor(of))
			return [older?.id ?? null, newer?.id ?? null]
		}
		expect(await ids(first)).toEqual([null, middle.article.id])
		expect(await ids(middle)).toEqual([first.article.id, sameTime.article.id])
		expect(await ids(sameTime)).toEqual([middle.article.id, null])
	})

	it('pages newest first by keyset, with ties on the publication time broken by id', async () => {
		const sameTime = '2026-05-01T10:00:00.000Z'
		for (let i = 0; i < 5; i++)
			await storage.articles.saveBySlug(articleWrite({ publishedAt: sameTime }))
		for (let i = 0; i < 4; i++) {
			await storage.articles.saveBySlug(
				articleWrite({ publishedAt: `2026-0${i + 1}-15T00:00:00.000Z` }),
			)
		}
		const everything = await storage.articles.listPublished({ limit: 100 })
		expect(everything).toHaveLength(9)
		const seen: number[] = []
		let after: { publishedAt: string; id: number } | undefined
		for (;;) {
			const page = await storage.articles.listPublished({ limit: 2, after })
			if (page.length === 0) break
			seen.push(...page.map((card) => card.id))
			const last = page.at(-1)
			after = last && { publishedAt: last.publishedAt, id: last.id }
		}
		expect(seen).toEqual(everything.map((card) => card.id))
		const order = everything.map((card) => [card.publishedAt, card.id] as const)
		const sorted = [...order].sort((a, b) => b[0].localeCompare(a[0]) || b[1] - a[1])
		expect(order).toEqual(sorted)
	})

	it('keeps change ids unique and ordered with other processes writing at the same time', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'canopy-articles-'))
		const others = Array.from({ length: 3 }, (_, i) => {
			const file = join(folder, `other-${i}.md`)
			writeFileSync(file, articleFile({ title: `From another process ${i}` }))
			return execFileAsync(process.execPath, ['server/cli.ts', 'article:publish', file], {
				env: { ...process.env, ...database.env },
			})
		})
		const mine = Array.from({ length: 10 }, () => storage.articles.saveBySlug(articleWrite()))
		const [outputs, saved] = await Promise.all([Promise.all(others), Promise.all(mine)])
		rmSync(folder, { recursive: true, force: true })
		for (const { stdout } of outputs)
			expect(stdout).toMatch(/^Published: "From another process \d"/)
		const feed = await storage.changes.after(0, 100)
		expect(feed).toHaveLength(13)
		const ids = feed.map((change) => change.id)
		expect(new Set(ids).size).toBe(13)
		expect(ids).toEqual([...ids].sort((a, b) => a - b))
		for (const { change } of saved) expect(ids).toContain(change?.id)
	})

	it('prunes old changes and moves the horizon, keeping the position when the table empties', async () => {
		for (let i = 0; i < 5; i++) await storage.articles.saveBySlug(articleWrite())
		const latest = await storage.changes.latestId()
		expect(await storage.changes.horizon()).toBe(0)
		expect(await storage.changes.prune(2)).toBe(3)
		expect(await storage.changes.horizon()).toBe(latest - 2)
		expect((await storage.changes.after(0, 10)).map((change) => change.id)).toEqual([
			latest - 1,
			latest,
		])
		expect(await storage.changes.prune(0)).toBe(2)
		expect(await storage.changes.latestId()).toBe(latest)
		const next = await storage.articles.saveBySlug(articleWrite())
		expect(next.change?.id).toBeGreaterThan(latest)
	})

	it('wakes watchers for writes made by another process on the same database', async () => {
		let wakes = 0
		const stop = storage.changes.watch(() => {
			wakes++
		})
		try {
			// Let the watcher settle (PostgreSQL: LISTEN is up; SQLite: the first poll has run).
			await new Promise((resolve) => setTimeout(resolve, 400))
			const before = wakes
			const folder = mkdtempSync(join(tmpdir(), 'canopy-articles-'))
			const file = join(folder, 'other.md')
			writeFileSync(file, articleFile({ title: 'Written elsewhere' }))
			await execFileAsync(process.execPath, ['server/cli.ts', 'article:publish', file], {
				env: { ...process.env, ...database.env },
			})
			rmSync(folder, { recursive: true, force: true })
			await waitFor(() => wakes > before, 1_000)
		} finally {
			stop()
		}
	})

	it('wakes a watcher for a write by another handle made at once after watch() returns', async () => {
		let wakes = 0
		const stop = storage.changes.watch(() => {
			wakes++
		})
		const other = database.open()
		try {
			await other.articles.saveBySlug(articleWrite())
			await waitFor(() => wakes > 0, 1_000)
		} finally {
			stop()
			await other.close()
		}
	})

	it('stores settings and announces the change on the feed', async () => {
		expect(await storage.settings.all()).toEqual({})
		await storage.settings.set({ 'site.title': 'Rivers First', 'site.tagline': 'Clean water' })
		await storage.settings.set({ 'site.title': 'Rivers First!' })
		expect(await storage.settings.all()).toEqual({
			'site.title': 'Rivers First!',
			'site.tagline': 'Clean water',
		})
		const feed = await storage.changes.after(0, 10)
		expect(feed.map((change) => change.topic)).toEqual(['settings', 'settings'])
	})

	it('keeps the first value of a setting stored only if absent, without announcing it', async () => {
		expect(await storage.settings.setIfAbsent('auth.secret', 'first')).toBe('first')
		expect(await storage.settings.setIfAbsent('auth.secret', 'second')).toBe('first')
		expect(await storage.changes.after(0, 10)).toEqual([])
	})
})
