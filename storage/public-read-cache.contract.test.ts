// The public reads kept between changes (decision 038): kept, dropped by a change committed here
// (at once) or by another instance (when the feed wakes), never paired with a newer position than
// the reads hold, and frozen.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { Article, ArticleWrite } from './port/articles.ts'
import { type PublicReadCache, withPublicReadCache } from './public-read-cache.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

describe.each(databases)('public read cache: $name', ({ create }) => {
	let storage: Storage
	let database: TestDatabase
	let cache: PublicReadCache | undefined
	let other: Storage | undefined
	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))
	afterEach(async () => {
		cache?.stop()
		cache = undefined
		await other?.close()
		other = undefined
	})

	const publish = async (on: Storage, overrides: Partial<ArticleWrite> = {}): Promise<Article> => {
		const result = await on.articles.create(articleWrite(overrides))
		if (!result.ok) throw new Error(`not saved: ${result.reason}`)
		return result.saved.article
	}
	/** A write no change announces, as an operator's SQL would be. */
	const retitleQuietly = (id: number, title: string) =>
		storage.authDatabase.db.updateTable('articles').set({ title }).where('id', '=', id).execute()
	/**
	 * A cache that has heard the feed go quiet: PostgreSQL's LISTEN connection wakes every watcher
	 * when it is made (what was committed before is unknown to it), and at each NOTIFY of the
	 * test's own writes, which arrive after them (later still on a busy machine); each drops what
	 * was kept. So: woken once, then no wake for a quiet spell.
	 */
	const listeningCache = async (options?: Parameters<typeof withPublicReadCache>[1]) => {
		if (storage.dialect !== 'postgres') return withPublicReadCache(storage, options)
		let lastWake = 0
		let woke = () => {}
		const woken = new Promise<void>((resolve) => {
			woke = resolve
		})
		const stop = storage.changes.watch(() => {
			lastWake = performance.now()
			woke()
		})
		const made = withPublicReadCache(storage, options)
		await woken
		const quietMs = 300
		while (performance.now() - lastWake < quietMs)
			await new Promise((resolve) => setTimeout(resolve, 50))
		stop()
		return made
	}
	const titleOf = async (reads: Storage, slug: string) =>
		(await reads.articles.findPublishedBySlug(slug))?.title

	it('keeps a read until a change, and drops it at once when this process commits one', async () => {
		const article = await publish(storage, { slug: 'peat', title: 'Peatlands' })
		cache = await listeningCache()
		const reads = cache.storage
		expect(await titleOf(reads, 'peat')).toBe('Peatlands')

		await retitleQuietly(article.id, 'Quietly changed')
		// Kept: the database was not read again.
		expect(await titleOf(reads, 'peat')).toBe('Peatlands')
		expect(await titleOf(storage, 'peat')).toBe('Quietly changed')

		// A save through the storage commits a change: the very next read sees it.
		const saved = await storage.articles.update(article.id, article.version, {
			...articleWrite({ slug: 'peat' }),
			title: 'Peatlands, saved',
		})
		expect(saved.ok).toBe(true)
		expect(await titleOf(reads, 'peat')).toBe('Peatlands, saved')
		const list = await reads.articles.listPublished({ limit: 10 })
		expect(list.map((card) => card.title)).toEqual(['Peatlands, saved'])
	})

	it('drops what it keeps when another instance commits a change', async () => {
		const article = await publish(storage, { slug: 'river', title: 'River clean-up' })
		cache = withPublicReadCache(storage)
		const reads = cache.storage
		expect(await titleOf(reads, 'river')).toBe('River clean-up')
		const settingsBefore = await reads.settings.all()
		expect(settingsBefore['site.title']).toBeUndefined()

		other = database.open()
		// A settings change alone drops the kept settings (no article change to lean on).
		await other.settings.set({ 'site.title': 'Wetland Watch' })
		await vi.waitFor(
			async () => expect((await reads.settings.all())['site.title']).toBe('Wetland Watch'),
			{ timeout: 3000, interval: 20 },
		)
		expect(await titleOf(reads, 'river')).toBe('River clean-up')
		const update = await other.articles.update(article.id, article.version, {
			...articleWrite({ slug: 'river' }),
			title: 'River clean-up, day two',
		})
		expect(update.ok).toBe(true)
		// SQLite finds another process's change by polling, PostgreSQL by its NOTIFY.
		await vi.waitFor(
			async () => expect(await titleOf(reads, 'river')).toBe('River clean-up, day two'),
			{
				timeout: 3000,
				interval: 20,
			},
		)
	})

	it('never pairs a list with a position newer than the list', async () => {
		await publish(storage, { slug: 'first' })
		cache = withPublicReadCache(storage)
		const reads = cache.storage
		expect(await reads.articles.listPublished({ limit: 10 })).toHaveLength(1)

		// Another instance publishes; this one hears of it a little later. Whatever is read in
		// between, a list is never paired with a position that counts a change the list lacks:
		// a stream resuming from the position is then sent the change (again) rather than never.
		other = database.open()
		await publish(other, { slug: 'second' })
		const second = await other.changes.latestId()
		for (let i = 0; i < 40; i++) {
			const position = await reads.changes.latestId()
			const list = await reads.articles.listPublished({ limit: 10 })
			if (position >= second) expect(list).toHaveLength(2)
			if (list.length === 2) return
			await new Promise((resolve) => setTimeout(resolve, 25))
		}
		throw new Error('the other instance’s change was never seen')
	})

	it('reads again after maxAgeMs without a change, and hands out frozen results', async () => {
		const article = await publish(storage, { slug: 'moss', title: 'Moss' })
		cache = await listeningCache({ maxAgeMs: 50 })
		const reads = cache.storage
		const first = await reads.articles.findPublishedBySlug('moss')
		expect(Object.isFrozen(first)).toBe(true)
		expect(Object.isFrozen(first?.tags)).toBe(true)
		expect(() => first?.tags.push({ name: 'x', slug: 'x' })).toThrow(TypeError)

		await retitleQuietly(article.id, 'Moss, later')
		await new Promise((resolve) => setTimeout(resolve, 80))
		expect(await titleOf(reads, 'moss')).toBe('Moss, later')
	})

	it('keeps about maxBytes: the oldest reads go first, and one too large is not kept', async () => {
		const body = 'peat '.repeat(2_000) // about 20 KB as kept (two bytes a character)
		const a = await publish(storage, { slug: 'a', title: 'A', bodyMarkdown: body, bodyHtml: body })
		const b = await publish(storage, { slug: 'b', title: 'B', bodyMarkdown: body, bodyHtml: body })
		const large = await publish(storage, {
			slug: 'large',
			title: 'Large',
			bodyMarkdown: body.repeat(5),
			bodyHtml: body.repeat(5),
		})
		cache = await listeningCache({ maxBytes: 400_000 })
		const reads = cache.storage
		expect(await titleOf(reads, 'a')).toBe('A')
		expect(await titleOf(reads, 'b')).toBe('B')
		expect(await titleOf(reads, 'large')).toBe('Large')
		for (const [article, title] of [
			[a, 'A, quietly'],
			[b, 'B, quietly'],
			[large, 'Large, quietly'],
		] as const)
			await retitleQuietly(article.id, title)
		// Both small ones kept (about 80 KB each with their Markdown and HTML); the large one,
		// over an eighth of the budget, read again.
		expect(await titleOf(reads, 'a')).toBe('A')
		expect(await titleOf(reads, 'b')).toBe('B')
		expect(await titleOf(reads, 'large')).toBe('Large, quietly')

		// Ten of about 40 KB in a budget of 360 KB: reading the tenth drops the first.
		cache.stop()
		const many = [a, b]
		for (let i = 2; i < 10; i++)
			many.push(await publish(storage, { slug: `m${i}`, bodyMarkdown: body, bodyHtml: body }))
		cache = await listeningCache({ maxBytes: 360_000 })
		const budget = cache.storage
		for (const article of many) await budget.articles.findPublishedBySlug(article.slug)
		const [first, , , , , , , , , last] = many
		await retitleQuietly(first?.id ?? 0, 'First, again')
		await retitleQuietly(last?.id ?? 0, 'Last, again')
		expect(await titleOf(budget, last?.slug ?? '')).toBe(last?.title)
		expect(await titleOf(budget, first?.slug ?? '')).toBe('First, again')
	})

	it('keeps no failed read and, once stopped, reads the database every time', async () => {
		cache = withPublicReadCache(storage)
		const reads = cache.storage
		const failing = vi
			.spyOn(storage.articles, 'findPublishedBySlug')
			.mockRejectedValueOnce(new Error('the database went away'))
		await expect(reads.articles.findPublishedBySlug('none')).rejects.toThrow('went away')
		expect(await reads.articles.findPublishedBySlug('none')).toBeUndefined()
		expect(failing).toHaveBeenCalledTimes(2)
		failing.mockRestore()

		const article = await publish(storage, { slug: 'fen', title: 'Fen' })
		expect(await titleOf(reads, 'fen')).toBe('Fen')
		cache.stop()
		await retitleQuietly(article.id, 'Fen, after')
		expect(await titleOf(reads, 'fen')).toBe('Fen, after')
	})
})
