// A NUL character can arrive in any text (a pasted document, a search typed by a robot).
// PostgreSQL refuses text with NUL, and the whole statement with it; both adapters store the
// replacement character in its place instead, so the same write works alike on both.

import { describe, expect, it } from 'vitest'
import { parseQuery } from '#app/features/search/search-query.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import { storableText } from './kysely/storable-text.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

describe('storableText', () => {
	it('replaces NUL, raw or escaped in JSON, and leaves every other text as it is', () => {
		expect(storableText('a\u0000b')).toBe('a\uFFFDb')
		expect(storableText(JSON.stringify(['a\u0000b']))).toBe('["a\\ufffdb"]')
		expect(JSON.parse(storableText(JSON.stringify({ tag: '\u0000' })))).toEqual({ tag: '\uFFFD' })
		for (const text of ['', 'plain', 'ünïcödé 🌍', '\\u0041', 'a\u0001b'])
			expect(storableText(text)).toBe(text)
	})
})

describe.each(databases)('text with NUL characters: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	it('stores an article and its tags with the replacement character where NUL was', async () => {
		const created = await storage.articles.create(
			articleWrite({ title: 'Tides\u0000', bodyMarkdown: 'a\u0000b', tags: ['sea\u0000'] }),
		)
		if (!created.ok) throw new Error('create failed')
		const read = await storage.articles.findById(created.saved.article.id)
		expect([read?.title, read?.bodyMarkdown, read?.tags.map((tag) => tag.name)]).toEqual([
			'Tides\uFFFD',
			'a\uFFFDb',
			['sea\uFFFD'],
		])
	})

	it('searches with a NUL in the query', async () => {
		await storage.articles.create(articleWrite({ title: 'Tides' }))
		// A NUL is a space between words, as any sign is (search-query.ts).
		const search = (text: string) =>
			storage.articles.listForEditor({
				query: parseQuery(text) ?? undefined,
				limit: 10,
				offset: 0,
			})
		expect((await search('Ti\u0000')).total).toBe(1)
		expect((await search('Tides\u0000x')).total).toBe(0)
		expect((await search('Tides')).total).toBe(1)
	})
})
