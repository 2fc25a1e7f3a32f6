// Full-text search (migration 0018) on both databases: the same answers from FTS5 and tsvector,
// ranked title first, diacritics and case ignored, drafts for staff only, and the index kept in
// step by every save and delete.
import { describe, expect, it } from 'vitest'
import { parseQuery } from '#app/features/search/search-query.ts'
import { textStems, withStems } from '#app/features/search/stems.server.ts'
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

describe.each(databases)('search storage contract: $name', ({ name, create }) => {
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

	it('finds words in every script, written with or without their marks, after a save and after a reindex', async () => {
		await add('ground', 'الأرض الحية', 'Ελλάδα: новый лес. हिन्दी', { tags: ['Ποτάμια'] })
		const everyForm = async () => {
			for (const typed of [
				'الأرض',
				'الارض',
				'الأرض الحية',
				'ελλάδα',
				'ΕΛΛΑΔΑ',
				'новый',
				'новыи',
				'ποταμια',
				'हिन्दी',
			])
				expect((await find(typed)).slugs, typed).toEqual(['ground'])
		}
		await everyForm()
		// Written again from the tables (SQLite's canopy_fold, PostgreSQL's): as a save writes it.
		const tag = await storage.tags.findBySlug(
			(await storage.articles.findBySlug('ground'))?.tags[0]?.slug ?? '',
		)
		if (!tag) throw new Error('no tag')
		expect((await storage.tags.update(tag.id, { ...tag, name: 'Ποτάμια και λίμνες' })).ok).toBe(
			true,
		)
		await everyForm()
		expect((await find('λιμνες')).slugs).toEqual(['ground'])
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

		// A tag or an author renamed, merged or deleted: the articles carrying it follow at once.
		const tag = await storage.tags.findBySlug('wading-birds')
		if (!tag) throw new Error('no tag')
		const renamed = await storage.tags.update(tag.id, { ...tag, name: 'Shorebirds' })
		expect(renamed.ok).toBe(true)
		expect((await find('wading')).total).toBe(0)
		expect((await find('shorebirds')).slugs).toEqual(['heron'])
		await add('egret', 'White and tall', 'Standing still too.', { tags: ['Egrets'] })
		const egrets = await storage.tags.findBySlug('egrets')
		if (!egrets) throw new Error('no tag')
		expect((await storage.tags.merge(egrets.id, tag.id)).ok).toBe(true)
		expect((await find('shorebirds')).slugs.sort()).toEqual(['egret', 'heron'])
		expect(await storage.tags.delete(tag.id)).toBe(true)
		expect((await find('shorebirds')).total).toBe(0)
		const author = await storage.authors.findBySlug('ana-costa')
		if (!author) throw new Error('no author')
		expect((await storage.authors.update(author.id, { ...author, name: 'Ana Silva' })).ok).toBe(
			true,
		)
		expect((await find('costa')).total).toBe(0)
		expect((await find('silva')).slugs).toEqual(['heron'])
	})

	it('matches a word by its stems once they are stored, and only for the version they were made from', async () => {
		const study = await add('study', 'A study of moss', 'Moss grows where the forest is wet.', {
			tags: ['Mosses'],
		})
		const bosque = await add('bosque', 'El bosque', 'Un bosque húmedo.', { language: 'es' })
		const stemmed = async (text: string) => {
			const query = parseQuery(text)
			if (!query) throw new Error(`no query in ${text}`)
			const { hits } = await storage.search.search(
				await withStems(query, text, ['en', 'es']),
				readers,
			)
			return hits.map((hit) => hit.slug)
		}
		const stemsOf = async (article: typeof study, language: string) => ({
			id: article.id,
			version: article.version,
			titleStems: await textStems([article.title], language),
			stems: await textStems([article.summary, article.bodyMarkdown], language),
			language,
		})
		// Saved, not yet stemmed: "studies" is not "study".
		expect(await stemmed('studies')).toEqual([])
		expect((await storage.search.unstemmed(10)).map((due) => due.id)).toEqual([study.id, bosque.id])
		expect(
			await storage.search.setStems([await stemsOf(study, 'en'), await stemsOf(bosque, 'es')]),
		).toEqual({ stored: 2, unindexed: [] })
		expect(await storage.search.unstemmed(10)).toEqual([])
		expect(await stemmed('studies')).toEqual(['study'])
		expect(await stemmed('bosques')).toEqual(['bosque'])
		// A stem found in a title ranks as the title: before one found in a text alone, newer.
		const titled = await add('decline', 'The decline of fens', 'Drained for farming.')
		const texted = await add('fens', 'Fens today', 'Their decline and declining birds.')
		expect(
			await storage.search.setStems([await stemsOf(titled, 'en'), await stemsOf(texted, 'en')]),
		).toEqual({ stored: 2, unindexed: [] })
		expect(await stemmed('declines')).toEqual(['decline', 'fens'])
		// A phrase stays exact; an excluded word too.
		expect(await stemmed('"studies of"')).toEqual([])
		// The tag renamed: the index rebuilt from the tables keeps the stems.
		const tag = await storage.tags.findBySlug('mosses')
		if (!tag) throw new Error('no tag')
		expect((await storage.tags.update(tag.id, { ...tag, name: 'Bryophytes' })).ok).toBe(true)
		expect(await stemmed('studies')).toEqual(['study'])
		// A save makes them due again; stems made from the version before it are not stored.
		const stale = await stemsOf(study, 'en')
		const saved = await storage.articles.update(study.id, study.version, {
			...articleWrite({ slug: 'study', title: 'A study of lichen', summary: '', tags: [] }),
			bodyMarkdown: 'Lichen on the stones.',
		})
		if (!saved.ok) throw new Error('update failed')
		expect((await storage.search.unstemmed(10)).map((due) => due.id)).toEqual([study.id])
		expect(await storage.search.setStems([stale])).toEqual({ stored: 0, unindexed: [] })
		expect(await storage.search.setStems([await stemsOf(saved.saved.article, 'en')])).toEqual({
			stored: 1,
			unindexed: [],
		})
		expect(await stemmed('lichens')).toEqual(['study'])
		// The site's language changed: those naming none are due again when asked with it.
		expect(await storage.search.unstemmed(10)).toEqual([])
		expect((await storage.search.unstemmed(10, 'fr')).map((due) => due.id)).toEqual([
			study.id,
			titled.id,
			texted.id,
		])
		expect(await storage.search.unstemmed(10, 'en')).toEqual([])
	})

	it('gives each step its own articles while another holds some, and takes them again once let go or run out', async () => {
		const ids: number[] = []
		for (const slug of ['one', 'two', 'three', 'four', 'five'])
			ids.push((await add(slug, `Article ${slug}`, 'Words.')).id)
		const now = new Date()
		const lease = { now, leaseMs: 60_000 }
		// Two instances' steps at the same moment: neither takes what the other holds.
		const [first, second] = await Promise.all([
			storage.search.unstemmed(2, undefined, lease),
			storage.search.unstemmed(2, undefined, lease),
		])
		const taken = [...first, ...second].map((due) => due.id)
		expect(taken).toHaveLength(4)
		expect(new Set(taken).size).toBe(4)
		const third = await storage.search.unstemmed(10, undefined, lease)
		expect(third.map((due) => due.id)).toEqual(ids.filter((id) => !taken.includes(id)))
		expect(await storage.search.unstemmed(10, undefined, lease)).toEqual([])
		// Read without a lease (what an operator's check does), every due article is there.
		expect((await storage.search.unstemmed(10)).map((due) => due.id)).toEqual(ids)
		// The first step stems one article and leaves the other: that one is free again at once.
		const [made, left] = first
		if (!made || !left) throw new Error('the first step took fewer than two')
		const stems = { titleStems: '', stems: 'word', language: 'en' }
		expect(
			await storage.search.setStems([{ id: made.id, version: made.version, ...stems }], [left.id]),
		).toEqual({ stored: 1, unindexed: [] })
		expect((await storage.search.unstemmed(10, undefined, lease)).map((due) => due.id)).toEqual([
			left.id,
		])
		// An instance that died holding the second step's articles: they wait out the lease.
		const later = { now: new Date(now.getTime() + 61_000), leaseMs: 60_000 }
		expect((await storage.search.unstemmed(10, undefined, later)).map((due) => due.id)).toEqual(
			ids.filter((id) => id !== made.id),
		)
	})

	it('stores an article without stems when the index cannot take them, and finds it by its words', async () => {
		const long = await add('long', 'A long read', 'Words of the text.')
		// 150,000 different stems: over PostgreSQL's 1 MB for a tsvector; SQLite takes them.
		const many = Array.from({ length: 150_000 }, (_, n) => `stem${n.toString(36)}`).join(' ')
		const result = await storage.search.setStems([
			{ id: long.id, version: long.version, titleStems: '', stems: many, language: 'en' },
		])
		expect(result).toEqual({ stored: 1, unindexed: name === 'postgres' ? [long.id] : [] })
		expect(await storage.search.unstemmed(10)).toEqual([])
		expect((await find('text')).slugs).toEqual(['long'])
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

	it('searches the media library by name and description, following renames and deletes', async () => {
		const image = async (hash: string, name: string | null, alt: string | null) => {
			const bytes = new Uint8Array([hash.charCodeAt(0)])
			await storage.uploads.put({
				hash,
				mime: 'image/png',
				size: 1,
				width: 1,
				height: 1,
				bytes,
				createdBy: null,
			})
			await storage.uploads.setDetails(hash, { name, alt })
		}
		const library = async (words: string) =>
			(
				await storage.uploads.library({
					search: parseQuery(words) ?? undefined,
					limit: 10,
					offset: 0,
				})
			).images.map((found) => found.name)
		await image('a'.repeat(64), 'IMG_2041.jpg', 'Curlews over the Élorn estuary')
		await image('b'.repeat(64), 'peat-bog.png', null)
		expect(await library('img_2041')).toEqual(['IMG_2041.jpg'])
		expect(await library('elorn')).toEqual(['IMG_2041.jpg'])
		expect(await library('curl')).toEqual(['IMG_2041.jpg'])
		expect(await library('peat bog')).toEqual(['peat-bog.png'])
		expect(await library('png')).toEqual(['peat-bog.png'])
		// In any script, with or without its marks.
		await image('c'.repeat(64), 'δέλτα.jpg', 'Новый лес у реки')
		expect(await library('ΔΕΛΤΑ')).toEqual(['δέλτα.jpg'])
		expect(await library('новыи лес')).toEqual(['δέλτα.jpg'])
		await storage.uploads.setDetails('c'.repeat(64), { name: 'δέλτα.jpg', alt: 'Ὅρμος' })
		expect(await library('ορμος')).toEqual(['δέλτα.jpg'])
		await storage.uploads.setDetails('b'.repeat(64), { name: 'blanket-mire.png', alt: null })
		expect(await library('peat')).toEqual([])
		expect(await library('mire')).toEqual(['blanket-mire.png'])
		await storage.uploads.delete('b'.repeat(64))
		expect(await library('mire')).toEqual([])
		expect((await storage.uploads.library({ limit: 10, offset: 0 })).total).toBe(2)
	})

	it('on a word in hundreds of articles: titles first, then the newest, counted up to 500', async () => {
		// More matches than either database ranks (500, 200): the head's matches come first.
		for (let n = 1; n <= 505; n++)
			await add(`fen-${n}`, n % 200 === 0 ? `Fen ${n}` : `Notes ${n}`, 'A walk across the fen.')
		const first = await storage.search.search(parseQuery('fen') ?? { all: [], none: [] }, readers)
		expect(first.total).toBe(500)
		expect(first.more).toBe(true)
		expect(
			first.hits
				.slice(0, 2)
				.map((hit) => hit.slug)
				.sort(),
		).toEqual(['fen-200', 'fen-400'])
		// Then the rest, newest first.
		expect(first.hits.slice(2, 5).map((hit) => hit.slug)).toEqual(['fen-505', 'fen-504', 'fen-503'])
		const second = await storage.search.search(parseQuery('fen') ?? { all: [], none: [] }, {
			...readers,
			offset: 10,
		})
		expect(second.hits.map((hit) => hit.slug)[0]).toBe('fen-497')
		const excluded = await storage.search.search(
			parseQuery('fen -walk') ?? { all: [], none: [] },
			readers,
		)
		expect(excluded.total).toBe(0)
	}, 60_000)
})
