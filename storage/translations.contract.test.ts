// Articles in several languages (migration 0022): each article's language, the flat groups of an
// original and its translations, the checks that keep them flat, the public lists in a language,
// and the export and import of both.
import { describe, expect, it } from 'vitest'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import type {
	Article,
	ArticleCreateResult,
	ArticleUpdateResult,
	ArticleWrite,
	LanguageFilter,
} from './port/articles.ts'
import type { PortableRows, PortableWrites } from './port/portable.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

function made(result: ArticleCreateResult | ArticleUpdateResult): Article {
	if (!result.ok) throw new Error(`not saved: ${result.reason}`)
	return result.saved.article
}

describe.each(databases)('translations storage contract: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	const article = async (overrides: Partial<ArticleWrite> = {}) =>
		made(await storage.articles.create(articleWrite(overrides)))
	/** Someone to send creates with an Idempotency-Key as. */
	const user = async (id: string) => {
		const now = new Date().toISOString()
		await storage.authDatabase.db
			.insertInto('user')
			.values({
				id,
				name: id,
				email: `${id}@example.org`,
				emailVerified: false,
				image: null,
				createdAt: now,
				updatedAt: now,
				role: 'editor',
				deactivatedAt: null,
			})
			.execute()
	}
	const save = async (saved: Article, overrides: Partial<ArticleWrite>) =>
		made(
			await storage.articles.update(saved.id, saved.version, {
				...articleWrite({ slug: saved.slug, status: saved.status }),
				...overrides,
			}),
		)

	it('keeps an article’s language until a save names another', async () => {
		const plain = await article()
		expect(plain).toMatchObject({ language: '', translationOf: null })
		await user('u1')
		// With an Idempotency-Key, and without: each create path stores it.
		const keyed = made(
			await storage.articles.create(articleWrite({ language: 'ar' }), {
				userId: 'u1',
				key: 'k1',
				fingerprint: 'f1',
			}),
		)
		expect(keyed.language).toBe('ar')
		const spanish = await article({ language: 'es' })
		expect(spanish.language).toBe('es')
		expect((await storage.articles.findById(spanish.id))?.language).toBe('es')

		const kept = await save(spanish, { title: 'Otro título' })
		expect(kept).toMatchObject({ title: 'Otro título', language: 'es' })
		const moved = await save(kept, { language: 'pt-BR' })
		expect((await storage.articles.findById(moved.id))?.language).toBe('pt-BR')
		const bySlug = await storage.articles.saveBySlug(
			articleWrite({ slug: moved.slug, title: 'Por slug' }),
		)
		expect(bySlug.article.language).toBe('pt-BR')

		// Cards carry it: the public lists, and the live stream's and newsletter's reads by id.
		const [card] = await storage.articles.listPublishedByIds([moved.id])
		expect(card?.language).toBe('pt-BR')
		const listed = await storage.articles.listPublished({ limit: 10 })
		expect(listed.find((one) => one.id === plain.id)?.language).toBe('')
	})

	it('lists the published others of a group, from the original or any translation', async () => {
		const original = await article({ language: '' })
		const spanish = await article({ language: 'es', translationOf: original.id })
		const french = await article({ language: 'fr', translationOf: original.id })
		const german = await article({ language: 'de', translationOf: original.id, status: 'draft' })
		expect(spanish.translationOf).toBe(original.id)
		const other = await article({ language: 'es' })

		const ids = async (id: number) => (await storage.articles.translations(id)).map((one) => one.id)
		expect(await ids(original.id)).toEqual([spanish.id, french.id])
		expect(await storage.articles.translations(spanish.id)).toEqual([
			{
				id: original.id,
				slug: original.slug,
				title: original.title,
				language: '',
				kind: 'article',
			},
			{ id: french.id, slug: french.slug, title: french.title, language: 'fr', kind: 'article' },
		])
		// A draft is never listed, but finds its published group.
		expect(await ids(german.id)).toEqual([original.id, spanish.id, french.id])
		expect(await ids(other.id)).toEqual([])
		expect(await ids(999_999)).toEqual([])

		// Two in the same language: by id.
		const another = await article({ language: 'es', translationOf: original.id })
		expect(await ids(french.id)).toEqual([original.id, spanish.id, another.id])

		// An original taken down leaves its translations in touch with each other.
		await save(original, { status: 'draft' })
		expect(await ids(spanish.id)).toEqual([another.id, french.id])

		// Pages make groups of their own.
		const about = await article({ kind: 'page', language: 'en' })
		const acerca = await article({ kind: 'page', language: 'es', translationOf: about.id })
		expect(await storage.articles.translations(acerca.id)).toEqual([
			{ id: about.id, slug: about.slug, title: about.title, language: 'en', kind: 'page' },
		])
	})

	it('refuses links that would not make a flat group of one kind, and writes nothing', async () => {
		const original = await article()
		const translation = await article({ language: 'es', translationOf: original.id })
		const page = await article({ kind: 'page' })
		const loner = await article({ language: 'fr' })
		await user('u1')
		const before = {
			count: await storage.articles.count(),
			changes: await storage.changes.latestId(),
		}

		const refusedCreate = async (translationOf: number, overrides: Partial<ArticleWrite> = {}) => {
			const write = articleWrite({ translationOf, ...overrides })
			expect(await storage.articles.create(write)).toEqual({
				ok: false,
				reason: 'translation-invalid',
			})
			expect(
				await storage.articles.create(articleWrite({ ...write, slug: `${write.slug}-k` }), {
					userId: 'u1',
					key: `k-${write.slug}`,
					fingerprint: 'f',
				}),
			).toEqual({ ok: false, reason: 'translation-invalid' })
			await expect(storage.articles.saveBySlug(write)).rejects.toThrow('cannot be a translation')
			expect(await storage.articles.findBySlug(write.slug)).toBeUndefined()
		}
		await refusedCreate(translation.id)
		await refusedCreate(page.id)
		await refusedCreate(original.id, { kind: 'page' })
		await refusedCreate(999_999)

		const refusedUpdate = async (saved: Article, translationOf: number) => {
			const result = await storage.articles.update(saved.id, saved.version, {
				...articleWrite({ slug: saved.slug, title: 'Not kept' }),
				translationOf,
			})
			expect(result).toEqual({ ok: false, reason: 'translation-invalid' })
			expect(await storage.articles.findById(saved.id)).toEqual(saved)
		}
		await refusedUpdate(loner, loner.id)
		await refusedUpdate(loner, translation.id)
		await refusedUpdate(loner, page.id)
		await refusedUpdate(loner, 999_999)
		// An original with translations of its own would chain two groups.
		await refusedUpdate(original, loner.id)
		await expect(
			storage.articles.saveBySlug({
				...articleWrite({ slug: original.slug }),
				translationOf: loner.id,
			}),
		).rejects.toThrow('cannot be a translation')

		expect(await storage.articles.count()).toBe(before.count)
		expect(await storage.changes.latestId()).toBe(before.changes)
		expect(await storage.articles.findById(original.id)).toEqual(original)

		// A save that leaves the link out keeps it; null unlinks; then it may join another group.
		const kept = await save(translation, { title: 'Kept' })
		expect(kept.translationOf).toBe(original.id)
		const unlinked = await save(kept, { translationOf: null })
		expect(unlinked.translationOf).toBeNull()
		expect(await storage.articles.translations(original.id)).toEqual([])
		const relinked = await save(unlinked, { translationOf: loner.id })
		expect(relinked.translationOf).toBe(loner.id)
		// And an original whose translations are all gone may become one.
		expect((await save(original, { translationOf: loner.id })).translationOf).toBe(loner.id)
	})

	it('keeps groups flat when an original is linked while it is made a translation', async () => {
		for (let round = 0; round < 5; round++) {
			const [a, b, c] = [await article(), await article(), await article()]
			// b would translate a while a translates c: one of the two must be refused.
			const results = await Promise.all([
				storage.articles.update(b.id, b.version, {
					...articleWrite({ slug: b.slug }),
					translationOf: a.id,
				}),
				storage.articles.update(a.id, a.version, {
					...articleWrite({ slug: a.slug }),
					translationOf: c.id,
				}),
			])
			expect(results.filter((result) => result.ok)).toHaveLength(1)
			expect(results.filter((result) => !result.ok)).toEqual([
				{ ok: false, reason: 'translation-invalid' },
			])
			const links = await Promise.all(
				[a, b].map(async (one) => (await storage.articles.findById(one.id))?.translationOf),
			)
			expect(links.filter((link) => link !== null)).toHaveLength(1)
		}
	})

	it('makes the translations of a deleted original originals of their own', async () => {
		const original = await article()
		const spanish = await article({ language: 'es', translationOf: original.id })
		const french = await article({ language: 'fr', translationOf: original.id })
		const deleted = await storage.articles.deleteById(original.id)
		expect(deleted.ok).toBe(true)
		expect((await storage.articles.findById(spanish.id))?.translationOf).toBeNull()
		expect((await storage.articles.findById(french.id))?.translationOf).toBeNull()
		expect(await storage.articles.translations(spanish.id)).toEqual([])

		const page = await article({ kind: 'page' })
		const pagina = await article({ kind: 'page', language: 'es', translationOf: page.id })
		await storage.articles.deleteBySlug(page.slug)
		expect((await storage.articles.findById(pagina.id))?.translationOf).toBeNull()
	})

	it('lists a language’s articles, with the site’s own when asked, page by page', async () => {
		const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 0, minute)).toISOString()
		const languages = ['', 'es', 'fr', 'es', '', 'es', 'fr', '', 'es', '']
		const written: Article[] = []
		for (const [i, language] of languages.entries())
			written.push(
				await article({
					language,
					publishedAt: at(i),
					tags: i % 2 === 0 ? ['soil'] : ['water'],
					authors: i % 3 === 0 ? ['Ana'] : ['Bo'],
				}),
			)
		// Never listed: a draft and a page in the language.
		await article({ language: 'es', status: 'draft', publishedAt: at(20) })
		await article({ language: 'es', kind: 'page', publishedAt: at(21) })
		// Two at the same time: the cursor breaks the tie by id.
		written.push(await article({ language: 'es', publishedAt: at(9), tags: ['soil'] }))

		const newestFirst = (wanted: (one: Article) => boolean) =>
			written
				.filter(wanted)
				.sort((a, b) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? '') || b.id - a.id)
				.map((one) => one.id)
		/** Every page of the list, `limit` at a time, through the cursor. */
		const walk = async (
			limit: number,
			options: { language: LanguageFilter; tag?: string; author?: string },
		) => {
			const ids: number[] = []
			let after: { publishedAt: string; id: number } | undefined
			for (;;) {
				const page = await storage.articles.listPublished({ limit, after, ...options })
				ids.push(...page.map((card) => card.id))
				const last = page.at(-1)
				if (page.length < limit || !last) return ids
				after = { publishedAt: last.publishedAt, id: last.id }
			}
		}
		const spanish = { tag: 'es', includeUnset: false }
		const spanishAndOwn = { tag: 'es', includeUnset: true }
		const tagged = (name: string) => (one: Article) => one.tags.some((tag) => tag.name === name)
		const by = (name: string) => (one: Article) =>
			one.authors.some((author) => author.name === name)
		for (const limit of [1, 2, 3, 50]) {
			expect(await walk(limit, { language: spanish })).toEqual(
				newestFirst((one) => one.language === 'es'),
			)
			expect(await walk(limit, { language: spanishAndOwn })).toEqual(
				newestFirst((one) => one.language === 'es' || one.language === ''),
			)
			expect(await walk(limit, { language: { tag: '', includeUnset: true } })).toEqual(
				newestFirst((one) => one.language === ''),
			)
			expect(await walk(limit, { language: spanishAndOwn, tag: 'soil' })).toEqual(
				newestFirst((one) => ['es', ''].includes(one.language) && tagged('soil')(one)),
			)
			expect(await walk(limit, { language: spanish, author: 'ana' })).toEqual(
				newestFirst((one) => one.language === 'es' && by('Ana')(one)),
			)
			expect(
				await walk(limit, { language: { tag: 'fr', includeUnset: false }, tag: 'water' }),
			).toEqual(newestFirst((one) => one.language === 'fr' && tagged('water')(one)))
		}
		expect(
			await storage.articles.listPublished({
				limit: 5,
				language: { tag: 'de', includeUnset: false },
			}),
		).toEqual([])
		// Without a language, every article as before.
		expect((await storage.articles.listPublished({ limit: 50 })).map((card) => card.id)).toEqual(
			newestFirst(() => true),
		)
	})

	it('lists an article in a language the site does not offer with the site’s, and a regional one with its own', async () => {
		const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 0, minute)).toISOString()
		const [own, russian, mexican, spanish, arabic, portuguese] = [
			await article({ language: '', publishedAt: at(0) }),
			await article({ language: 'ru', publishedAt: at(1) }),
			await article({ language: 'es-MX', publishedAt: at(2) }),
			await article({ language: 'es', publishedAt: at(3) }),
			await article({ language: 'ar', publishedAt: at(4) }),
			await article({ language: 'pt-BR', publishedAt: at(5) }),
		]
		const ids = async (language: LanguageFilter) =>
			(await storage.articles.listPublished({ limit: 50, language })).map((card) => card.id)
		// A site in English that also offers Spanish and Arabic.
		const others = ['es', 'ar']
		expect(await ids({ tag: 'en', includeUnset: true, others })).toEqual(
			[portuguese, russian, own].map((one) => one.id),
		)
		expect(await ids({ tag: 'es', includeUnset: false, others })).toEqual(
			[spanish, mexican].map((one) => one.id),
		)
		expect(await ids({ tag: 'ar', includeUnset: false, others })).toEqual([arabic.id])
		// Without `others` (a feed's ?lang=), the tag as written.
		expect(await ids({ tag: 'es', includeUnset: false })).toEqual([spanish.id])
	})

	it('finds an article’s neighbours in its own language, past the others', async () => {
		const at = (minute: number) => new Date(Date.UTC(2026, 3, 1, 0, minute)).toISOString()
		const [first, , third, fourth] = [
			await article({ language: 'es', publishedAt: at(0) }),
			await article({ language: 'ar', publishedAt: at(1) }),
			await article({ language: '', publishedAt: at(2) }),
			await article({ language: 'ar', publishedAt: at(3) }),
		]
		const cursor = (one: Article) => ({ publishedAt: one.publishedAt ?? '', id: one.id })
		// Spanish is the site's language here: those naming none count as Spanish.
		const spanish = { tag: 'es', includeUnset: true }
		const fromFirst = await storage.articles.neighbours(cursor(first), spanish)
		expect(fromFirst.older).toBeNull()
		expect(fromFirst.newer?.id).toBe(third.id)
		const fromThird = await storage.articles.neighbours(cursor(third), spanish)
		expect([fromThird.older?.id, fromThird.newer]).toEqual([first.id, null])
		// Without a language, the next one whatever it is in.
		expect((await storage.articles.neighbours(cursor(third))).newer?.id).toBe(fourth.id)
	})

	it('names the languages published articles and pages are in', async () => {
		expect(await storage.articles.languages()).toEqual([])
		await article({ language: 'fr' })
		await article({ language: '' })
		await article({ language: 'pt-BR' })
		await article({ language: 'es' })
		await article({ language: 'fr' })
		await article({ language: 'de', status: 'draft' })
		await article({ language: 'ar', kind: 'page' })
		expect(await storage.articles.languages()).toEqual(['ar', 'es', 'fr', 'pt-BR'])
		expect(await storage.articles.languages('article')).toEqual(['es', 'fr', 'pt-BR'])
		expect(await storage.articles.languages('page')).toEqual(['ar'])
	})

	it('exports languages and links; imports them, an original after its translation', async () => {
		const early = await article({ language: 'es' })
		const original = await article({ language: '' })
		const french = await article({ language: 'fr', translationOf: original.id })
		// Made before its original: the file holds it first.
		const linked = await save(early, { translationOf: original.id })
		const page = await article({ kind: 'page', language: 'ar' })

		const rows = await storage.portable.read(async (reader) => {
			const all: PortableRows['articles'][] = []
			for await (const row of reader.rows('articles')) all.push(row)
			return all
		})
		expect(
			rows.map(({ id, language, translationOf }) => ({ id, language, translationOf })),
		).toEqual([
			{ id: linked.id, language: 'es', translationOf: original.id },
			{ id: original.id, language: '', translationOf: null },
			{ id: french.id, language: 'fr', translationOf: original.id },
			{ id: page.id, language: 'ar', translationOf: null },
		])

		const writes = (list: PortableRows['articles'][]): PortableWrites['articles'][] =>
			list.map((row) => ({ ...row, bodyHtml: '<p>Imported</p>' }))
		const expectGroup = async () => {
			expect((await storage.articles.findById(linked.id))?.translationOf).toBe(original.id)
			expect((await storage.articles.findById(page.id))?.language).toBe('ar')
			expect((await storage.articles.translations(original.id)).map((one) => one.id)).toEqual([
				linked.id,
				french.id,
			])
		}
		// One article per insert, as a long file comes in batches.
		await storage.portable.write(async (writer) => {
			await writer.clearReplaceable()
			for (const row of writes(rows)) await writer.insert('articles', [row])
			await writer.finish()
		})
		await expectGroup()
		// The delete of an imported original still lets its translations go.
		await storage.articles.deleteById(original.id)
		expect((await storage.articles.findById(french.id))?.translationOf).toBeNull()

		// A file from before translations: the site's language, no links.
		const older = rows.map(({ language: _language, translationOf: _link, ...row }) => row)
		await storage.portable.write(async (writer) => {
			await writer.clearReplaceable()
			await writer.insert('articles', writes(older))
			await writer.finish()
		})
		for (const row of rows)
			expect(await storage.articles.findById(row.id)).toMatchObject({
				language: '',
				translationOf: null,
			})

		// A link the site would refuse comes in as no link: the rest of the file still does.
		const broken = rows.map((row) =>
			row.id === french.id
				? { ...row, translationOf: linked.id }
				: row.id === page.id
					? { ...row, translationOf: original.id }
					: row,
		)
		await storage.portable.write(async (writer) => {
			await writer.clearReplaceable()
			await writer.insert(
				'articles',
				writes([
					...broken,
					{ ...rows[0], id: 500, slug: 'stray', translationOf: 9_999 } as PortableRows['articles'],
				]),
			)
			await writer.finish()
		})
		expect((await storage.articles.findById(french.id))?.translationOf).toBeNull()
		expect((await storage.articles.findById(page.id))?.translationOf).toBeNull()
		expect((await storage.articles.findById(500))?.translationOf).toBeNull()
		expect((await storage.articles.findById(linked.id))?.translationOf).toBe(original.id)
	})
})
