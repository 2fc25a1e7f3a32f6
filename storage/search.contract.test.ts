// Full-text search (migration 0018) on both databases: the same answers from FTS5 and tsvector,
// ranked title first, diacritics and case ignored, drafts for staff only, and the index kept in
// step by every save and delete.
import { describe, expect, it } from 'vitest'
import { parseQuery } from '#app/features/search/search-query.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import type { SearchOptions } from './port/search.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

const readers: SearchOptions = {
	includeDrafts: false,
	kinds: ['article', 'page'],
	limit: 10,
	offset: 0,
}

describe.each(databases)('search storage contract: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	async function add(slug: string, title: string, bodyMarkdown: string, more = {}) {
		const created = await storage.articles.create(
			articleWrite({ slug, title, bodyMarkdown, summary: '', tags: [], ...more }),
		)
		if (!created.ok) throw new Error('create failed')
		return created.saved.article
	}

	const find = async (text: string, options: Partial<SearchOptions> = {}) => {
		const query = parseQuery(text)
		if (!query) throw new Error(`no query in ${text}`)
		const { hits, total } = await storage.search.search(query, { ...readers, ...options })
		return { slugs: hits.map((hit) => hit.slug), total }
	}

	it('finds words anywhere, the title first, whatever their case or accents', async () => {
		await add('bogs', 'Bogs and fens', 'Peatlands hold a third of soil carbon.')
		await add('peatlands', 'Peatlands of the north', 'Wet ground.')
		await add('rhone', 'The Rhône delta', 'Flamingos in the Camargue.')
		expect((await find('peatlands')).slugs).toEqual(['peatlands', 'bogs'])
		// The last word is also the start of a longer one, as a reader types.
		expect((await find('peat')).slugs).toEqual(['peatlands', 'bogs'])
		expect((await find('RHONE')).slugs).toEqual(['rhone'])
		expect((await find('rhône camargue')).slugs).toEqual(['rhone'])
		expect((await find('flamingo')).slugs).toEqual(['rhone'])
		expect((await find('nothing-like-this')).total).toBe(0)
	})

	it('reads phrases, exclusions and OR', async () => {
		await add('cleanup', 'River day', 'The river clean-up starts at nine.')
		await add('clean', 'Clean water', 'A clean river, the river of our town.')
		expect((await find('"river clean"')).slugs).toEqual(['cleanup'])
		expect((await find('river -nine')).slugs).toEqual(['clean'])
		expect((await find('nine OR town')).slugs.sort()).toEqual(['clean', 'cleanup'])
	})

	it('searches tags and authors, shows drafts to staff only, and pages by kind', async () => {
		await add('heron', 'A grey visitor', 'Standing still.', {
			tags: ['Wading birds'],
			authors: ['Ana Costa'],
		})
		await add('draft', 'Herons, unfinished', 'Not yet.', { status: 'draft', publishedAt: null })
		await add('about', 'About us', 'We count herons.', { kind: 'page' })
		expect((await find('wading')).slugs).toEqual(['heron'])
		expect((await find('costa')).slugs).toEqual(['heron'])
		expect((await find('herons')).slugs).toEqual(['about'])
		expect((await find('herons', { includeDrafts: true })).slugs.sort()).toEqual(['about', 'draft'])
		expect((await find('herons', { kinds: ['article'] })).slugs).toEqual([])
	})

	it('follows every save and delete, and counts every match across pages', async () => {
		const article = await add('estuary', 'Estuary', 'Salt and silt.')
		expect((await find('silt')).slugs).toEqual(['estuary'])
		const saved = await storage.articles.update(
			article.id,
			1,
			articleWrite({ slug: 'estuary', title: 'Estuary', bodyMarkdown: 'Mud and reeds.' }),
		)
		expect(saved.ok).toBe(true)
		expect((await find('silt')).total).toBe(0)
		expect((await find('reeds')).slugs).toEqual(['estuary'])
		await storage.articles.deleteById(article.id)
		expect((await find('reeds')).total).toBe(0)

		for (let n = 1; n <= 12; n++) await add(`marsh-${n}`, `Marsh ${n}`, 'Marsh life.')
		const first = await find('marsh', { limit: 5 })
		expect(first.total).toBe(12)
		expect(first.slugs).toHaveLength(5)
		const last = await find('marsh', { limit: 5, offset: 10 })
		expect(last.slugs).toHaveLength(2)
	})
})
