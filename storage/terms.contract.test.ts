// Tags and author profiles (docs/decisions/026-tags-and-authors.md), on both databases: the
// migration from free-text names, articles with several of each, and renaming and merging with
// their 301s and live changes.

import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { parseQuery } from '#app/features/search/search-query.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import { loadMigrations, migrationsTable } from './migrations.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

const beforeTerms = '0016_tags_authors'

/** Runs the migrations before tags and authors, then `sql` (rows as the old schema had them). */
async function oldSchema(database: TestDatabase, rows: string): Promise<void> {
	const earlier = loadMigrations(database.dialect).filter(
		(migration) => migration.name < beforeTerms,
	)
	const record = (name: string) =>
		`INSERT INTO schema_migrations (name, applied_at) VALUES ('${name}', '2026-01-01T00:00:00Z');`
	const script = [migrationsTable, ...earlier.flatMap((m) => [m.sql, record(m.name)]), rows]
	if (database.dialect === 'sqlite') {
		const native = new DatabaseSync(join(database.env.DATA_DIR ?? '', 'canopy.db'))
		for (const part of script) native.exec(part.endsWith(';') ? part : `${part};`)
		native.close()
		return
	}
	const client = new pg.Client({ connectionString: database.env.DATABASE_URL })
	await client.connect()
	for (const part of script) await client.query(part)
	await client.end()
}

const oldArticle = (id: number, slug: string, tags: string, author: string) =>
	`INSERT INTO articles (slug, title, summary, body_markdown, body_html, tags, author_name,
	status, reading_minutes, published_at, created_at, updated_at)
	VALUES ('${slug}', '${slug}', '', 'Text', '<p>Text</p>', '${tags}', '${author}',
	'published', 1, '2026-01-0${id}T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');`

/** The published articles a reader's search for `text` finds, best first. */
async function foundSlugs(storage: Storage, text: string): Promise<string[]> {
	const query = parseQuery(text)
	if (!query) throw new Error(`no query in ${text}`)
	const found = await storage.search.search(query, {
		includeDrafts: false,
		kinds: ['article'],
		limit: 10,
		offset: 0,
	})
	return found.hits.map((hit) => hit.slug)
}

describe.each(databases)('tags and authors: $name', ({ create }) => {
	describe('moving in from free-text names', () => {
		let database: TestDatabase | undefined
		let storage: Storage | undefined
		afterEach(async () => {
			await storage?.close()
			await database?.drop()
		})

		it('makes every name a tag or a profile, keeps order, and loses none', async () => {
			database = await create()
			await oldSchema(
				database,
				[
					`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt", role)
					VALUES ('u1', 'Ana Lima', 'ana@example.org', ${database.dialect === 'postgres' ? 'true' : '1'},
					'2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'editor');`,
					oldArticle(1, 'one', '["wetlands","soil & water"]', 'Ana Lima'),
					oldArticle(2, 'two', '["Wetlands","rivers"]', 'Guest Writer'),
					oldArticle(3, 'three', '[]', ''),
				].join('\n'),
			)
			storage = database.open()
			// This one, then the later ones: the history (0017), which starts each article's from
			// the article as it stands, the search index (0018), and any after them.
			const applied = await storage.migrate()
			expect(applied.slice(0, 3)).toEqual([beforeTerms, '0017_revisions_seo', '0018_search'])

			const one = await storage.articles.findBySlug('one')
			expect(one?.tags).toEqual([
				// Of names that are one tag, the first in code-point order names it.
				{ name: 'Wetlands', slug: 'wetlands' },
				{ name: 'soil & water', slug: 'soil-and-water' },
			])
			expect(one?.authors).toEqual([{ name: 'Ana Lima', slug: 'ana-lima' }])
			// "Wetlands" and "wetlands" were always the same tag.
			expect((await storage.articles.findBySlug('two'))?.tags.map((tag) => tag.slug)).toEqual([
				'wetlands',
				'rivers',
			])
			expect((await storage.articles.findBySlug('three'))?.authors).toEqual([])
			const tags = await storage.tags.list()
			expect(tags.map((tag) => [tag.slug, tag.articles])).toEqual([
				['rivers', 1],
				['soil-and-water', 1],
				['wetlands', 2],
			])
			const ana = await storage.authors.findBySlug('ana-lima')
			expect(ana?.userId).toBe('u1')
			expect((await storage.authors.findBySlug('guest-writer'))?.userId).toBeNull()
			const [first, ...more] = await storage.revisions.list(one?.id ?? 0)
			expect(more).toEqual([])
			expect(first && (await storage.revisions.get(one?.id ?? 0, first.id))).toMatchObject({
				kind: 'saved',
				title: 'one',
				bodyMarkdown: 'Text',
				tags: ['Wetlands', 'soil & water'],
				authors: ['Ana Lima'],
				status: 'published',
			})
			// The migrated articles are in the search index, their tags and authors with them.
			expect(await foundSlugs(storage, 'wetlands lima')).toEqual(['one'])
			// The old columns are gone: a save writes the links alone.
			const saved = await storage.articles.saveBySlug(
				articleWrite({ slug: 'one', tags: ['Rivers'], authors: ['Ana Lima', 'Guest Writer'] }),
			)
			expect(saved.article.tags).toEqual([{ name: 'rivers', slug: 'rivers' }])
			const rivers = await storage.tags.findBySlug('rivers')
			expect(rivers && (await storage.tags.findById(rivers.id))).toMatchObject({ articles: 2 })
			expect(saved.article.authors.map((author) => author.slug)).toEqual([
				'ana-lima',
				'guest-writer',
			])
		})
	})

	describe('with a fresh database', () => {
		let storage: Storage
		freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

		it('lists a tag’s and an author’s published articles only', async () => {
			await storage.articles.create(
				articleWrite({ slug: 'a', tags: ['Peat', 'Rivers'], authors: ['Ana', 'Ben'] }),
			)
			await storage.articles.create(articleWrite({ slug: 'b', tags: ['Peat'], authors: ['Ben'] }))
			await storage.articles.create(
				articleWrite({ slug: 'c', tags: ['Peat'], authors: ['Ana'], status: 'draft' }),
			)
			const slugs = async (options: { tag?: string; author?: string }) =>
				(await storage.articles.listPublished({ limit: 10, ...options })).map((card) => card.slug)
			expect(await slugs({ tag: 'peat' })).toEqual(['b', 'a'])
			expect(await slugs({ tag: 'rivers' })).toEqual(['a'])
			expect(await slugs({ author: 'ana' })).toEqual(['a'])
			expect(await slugs({ author: 'ben' })).toEqual(['b', 'a'])
			// A page as long as the matches found among the newest (SQLite walks those first), and
			// the next one from its last card; the draft on the tag is never among them.
			const [newest] = await storage.articles.listPublished({ limit: 1, tag: 'peat' })
			if (!newest) throw new Error('no card')
			expect(newest.slug).toBe('b')
			const after = { publishedAt: newest.publishedAt, id: newest.id }
			const next = await storage.articles.listPublished({ limit: 1, tag: 'peat', after })
			expect(next.map((card) => card.slug)).toEqual(['a'])
			const last = next[0]
			if (!last) throw new Error('no card')
			const end = { publishedAt: last.publishedAt, id: last.id }
			expect(await storage.articles.listPublished({ limit: 1, tag: 'peat', after: end })).toEqual(
				[],
			)
			expect(
				(await storage.articles.listPublished({ limit: 1, author: 'ana', tag: 'rivers' })).map(
					(card) => card.slug,
				),
			).toEqual(['a'])
			const [card] = await storage.articles.listPublished({ limit: 1, tag: 'rivers' })
			expect(card?.authors).toEqual([
				{ name: 'Ana', slug: 'ana' },
				{ name: 'Ben', slug: 'ben' },
			])
			const peat = await storage.tags.findBySlug('peat')
			expect(peat && (await storage.tags.findById(peat.id))?.articles).toBe(2)
		})

		it('renames a tag: its old address answers 301, its articles show the new name live', async () => {
			const created = await storage.articles.create(articleWrite({ tags: ['climate'] }))
			if (!created.ok) throw new Error('create failed')
			const tag = await storage.tags.findBySlug('climate')
			if (!tag) throw new Error('no tag')
			const before = await storage.changes.latestId()
			const renamed = await storage.tags.update(tag.id, {
				...tag,
				name: 'Climate crisis',
				slug: 'climate-crisis',
				description: 'Heat, floods and what we do.',
			})
			expect(renamed).toMatchObject({ ok: true, value: { slug: 'climate-crisis', articles: 1 } })
			expect(await storage.redirects.find('/tags/climate')).toMatchObject({
				to: '/tags/climate-crisis',
				status: 301,
			})
			const changes = (await storage.changes.after(before, 100)).map((c) => [c.topic, c.entityId])
			expect(changes).toContainEqual(['articles', String(created.saved.article.id)])
			expect((await storage.articles.findById(created.saved.article.id))?.tags).toEqual([
				{ name: 'Climate crisis', slug: 'climate-crisis' },
			])
			// Writing the old name later finds the tag it became.
			const again = await storage.articles.create(articleWrite({ tags: ['climate'] }))
			expect(again.ok && again.saved.article.tags).toEqual([
				{ name: 'Climate crisis', slug: 'climate-crisis' },
			])
			// An address another tag holds is refused.
			await storage.articles.create(articleWrite({ tags: ['floods'] }))
			expect(await storage.tags.update(tag.id, { ...tag, slug: 'floods' })).toEqual({
				ok: false,
				reason: 'slug-taken',
			})
		})

		it('creates an article with known and new tags alike: order kept, repeats once, history, search, one change', async () => {
			// The first makes its tags; the second (PostgreSQL: one statement) finds them all.
			await storage.articles.create(articleWrite({ tags: ['Peat bogs', 'Rivers'] }))
			for (const tags of [
				['Rivers', 'peat bogs', 'PEAT BOGS', 'Rivers'],
				['Rivers', 'Sphagnum'],
			]) {
				const before = await storage.changes.latestId()
				const created = await storage.articles.create(
					articleWrite({ title: 'Mosses hold water', tags, authors: ['Ana Lima', 'ana lima'] }),
				)
				if (!created.ok) throw new Error('create failed')
				const { article } = created.saved
				expect(article.tags.map((tag) => tag.slug)).toEqual(
					tags.includes('Sphagnum') ? ['rivers', 'sphagnum'] : ['rivers', 'peat-bogs'],
				)
				expect(article.authors).toEqual([{ name: 'Ana Lima', slug: 'ana-lima' }])
				expect((await storage.articles.findById(article.id))?.tags).toEqual(article.tags)
				const history = await storage.revisions.list(article.id)
				expect(history.map((revision) => [revision.kind, revision.version])).toEqual([
					['published', 1],
				])
				const changes = await storage.changes.after(before, 10)
				expect(changes.map((change) => [change.entityId, change.kind])).toEqual([
					[String(article.id), 'added'],
				])
			}
			// A tag's name finds its articles, from the first save on.
			expect(await foundSlugs(storage, 'peat bogs')).toHaveLength(2)
		})

		it('merges one tag into another without doubling an article that had both', async () => {
			const both = await storage.articles.create(articleWrite({ tags: ['bees', 'pollinators'] }))
			const one = await storage.articles.create(articleWrite({ tags: ['bees'] }))
			if (!both.ok || !one.ok) throw new Error('create failed')
			const bees = await storage.tags.findBySlug('bees')
			const pollinators = await storage.tags.findBySlug('pollinators')
			if (!bees || !pollinators) throw new Error('no tags')
			const merged = await storage.tags.merge(bees.id, pollinators.id)
			expect(merged).toMatchObject({ ok: true, value: { slug: 'pollinators', articles: 2 } })
			expect(await storage.tags.findBySlug('bees')).toBeUndefined()
			expect((await storage.articles.findById(both.saved.article.id))?.tags).toEqual([
				{ name: 'pollinators', slug: 'pollinators' },
			])
			expect(await storage.redirects.find('/tags/bees')).toMatchObject({ to: '/tags/pollinators' })
		})

		it('gives each team member one profile, claiming the one with their name', async () => {
			await storage.articles.create(articleWrite({ authors: ['Chloé Martin'] }))
			const [first, second] = ['u-first', 'u-second']
			for (const [index, id] of [first, second].entries())
				await storage.accounts.create(
					{ id, name: 'Chloé Martin', email: `chloe${index}@example.org`, role: 'editor' },
					{ id: `credential-${id}`, passwordHash: 'not-a-real-hash' },
					new Date(),
				)
			const claimed = await storage.authors.forUser(first, 'Chloé Martin')
			expect(claimed).toMatchObject({ slug: 'chloe-martin', userId: first, articles: 1 })
			expect((await storage.authors.forUser(first, 'Chloé Martin')).id).toBe(claimed.id)
			const own = await storage.authors.forUser(second, 'Chloé Martin')
			expect(own.id).not.toBe(claimed.id)
			expect(own.userId).toBe(second)
			// A profile belongs to one account at most.
			expect(await storage.authors.update(own.id, { ...own, userId: first })).toEqual({
				ok: false,
				reason: 'account-taken',
			})
		})
	})
})
