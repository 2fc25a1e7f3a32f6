import { describe, expect, it } from 'vitest'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { freshStorageEachTest, sqliteDatabase, type TestDatabase } from '#tests/fixtures/storage.ts'
import { listArticles, saveArticle, unpublishArticle } from './articles.server.ts'

describe('articles', () => {
	let database: TestDatabase
	let storage: Storage

	freshStorageEachTest(sqliteDatabase, (fresh) => ({ storage, database } = fresh))

	it('makes the slug from the title, renders the body and times the read', async () => {
		const result = await saveArticle(
			storage,
			{
				title: 'Why Peat Matters',
				body: `${'word '.repeat(700)}\n\n<script>x</script>`,
				tags: ['Soil', 'soil'],
			},
			'published',
		)
		expect(result.ok).toBe(true)
		if (!result.ok) return
		expect(result.article).toMatchObject({
			slug: 'why-peat-matters',
			readingMinutes: 3,
			// One tag: names that make the same address are one, named as first written.
			tags: [{ name: 'Soil', slug: 'soil' }],
		})
		expect(result.article.bodyHtml).not.toContain('<script')
		expect(result.change?.kind).toBe('added')
	})

	it('answers invalid input with messages per field', async () => {
		const result = await saveArticle(
			storage,
			{ title: ' ', body: '', cover: 'ftp://x/y.png', slug: 'Bad Slug', tags: Array(11).fill('x') },
			'published',
		)
		expect(result).toEqual({
			ok: false,
			errors: expect.objectContaining({
				title: ['Give the article a title.'],
				body: ['The article has no text.'],
				slug: ['Use lowercase letters, digits and single hyphens in the slug.'],
				tags: ['Use at most 10 tags.'],
				cover: expect.arrayContaining([expect.stringContaining('https:// address')]),
			}),
		})
	})

	it('requires alt text for a cover image', async () => {
		const result = await saveArticle(
			storage,
			{ title: 'Coral', body: 'Text', cover: 'https://img.example/c.jpg' },
			'published',
		)
		expect(result).toEqual({
			ok: false,
			errors: { coverAlt: [expect.stringContaining('Describe the cover image')] },
		})
	})

	it('keeps the first publication time when an article is updated or republished', async () => {
		const first = await saveArticle(storage, { title: 'Kelp', body: 'One' }, 'published')
		await unpublishArticle(storage, 'kelp')
		const again = await saveArticle(storage, { title: 'Kelp', body: 'Two' }, 'published')
		expect(first.ok && again.ok && again.article.publishedAt === first.article.publishedAt).toBe(
			true,
		)
	})

	it('lists pages with a cursor and the change id they were read at', async () => {
		for (let day = 1; day <= 5; day++) {
			await saveArticle(
				storage,
				{ title: `Day ${day}`, body: 'x', publishedAt: `2026-03-0${day}T00:00:00Z` },
				'published',
			)
		}
		const first = await listArticles(storage, { limit: 2 })
		expect(first.items.map((item) => item.title)).toEqual(['Day 5', 'Day 4'])
		expect(first.changeId).toBe(await storage.changes.latestId())
		const second = await listArticles(storage, { limit: 2, cursor: first.nextCursor })
		const third = await listArticles(storage, { limit: 2, cursor: second.nextCursor })
		expect(second.items.map((item) => item.title)).toEqual(['Day 3', 'Day 2'])
		expect(third.items.map((item) => item.title)).toEqual(['Day 1'])
		expect(third.nextCursor).toBeNull()
		expect((await listArticles(storage, { limit: 2, cursor: 'garbage' })).items).toEqual(
			first.items,
		)
	})

	it('does nothing when unpublishing an unknown article', async () => {
		expect(await unpublishArticle(storage, 'nothing-here')).toBeUndefined()
	})
})
