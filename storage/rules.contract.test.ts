// The storage carries out the features' decisions, it does not make them (decision 022): opened
// with other rules, both adapters write other change rows and other push deliveries, alike. With
// Canopy's own rules (app/features/articles/publishing-rules.ts) the push and storage contracts
// show what they write.
import { afterEach, describe, expect, it } from 'vitest'
import { articleWrite, pushSubscription } from '#tests/fixtures/factories.ts'
import { databases, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { ArticleRules } from './port/articles.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

describe.each(databases)('storage rules come from the caller: $name', ({ create }) => {
	let database: TestDatabase | undefined
	let storage: Storage | undefined
	afterEach(async () => {
		await storage?.close()
		await database?.drop()
	})

	async function openWith(articles: ArticleRules): Promise<Storage> {
		database = await create()
		storage = database.open({ articles })
		await storage.migrate()
		await storage.push.saveSubscription(pushSubscription(), new Date())
		return storage
	}

	it('asks the rules whether a publish announces the article, on every path', async () => {
		const asked: [string | null, boolean, boolean][] = []
		const opened = await openWith({
			publicChange: (wasPublic, isPublic) => (isPublic ? (wasPublic ? 'modified' : 'added') : null),
			announces: (change, notify, announcedBefore) => {
				asked.push([change, notify, announcedBefore])
				return false
			},
			address: (kind, slug) => `/${kind}/${slug}`,
			termSlug: (_kind, name) => name.toLowerCase(),
			revisionsKept: 5,
		})
		const created = await opened.articles.create(articleWrite())
		if (!created.ok) throw new Error('create failed')
		const bySlug = await opened.articles.saveBySlug(articleWrite({ notify: false, email: false }))
		const scheduled = await opened.articles.create(
			articleWrite({ status: 'draft', publishedAt: null, publishAt: '2026-01-01T10:00:00.000Z' }),
		)
		if (!scheduled.ok) throw new Error('create failed')
		await opened.articles.publishDue(new Date('2026-01-01T10:00:01Z'), 10)
		expect(asked).toContainEqual(['added', true, false])
		expect(asked).toContainEqual(['added', false, false])
		for (const id of [created.saved.article.id, bySlug.article.id, scheduled.saved.article.id]) {
			expect(await opened.push.deliveriesOf(id)).toEqual([])
			expect((await opened.articles.findById(id))?.notifiedAt ?? null).toBeNull()
		}
	})

	it('writes the change the rules name, and none where they name none', async () => {
		const opened = await openWith({
			// Readers hear only of new articles here: edits and removals are no change.
			publicChange: (wasPublic, isPublic) => (isPublic && !wasPublic ? 'added' : null),
			announces: () => true,
			address: (kind, slug) => `/${kind}/${slug}`,
			termSlug: (_kind, name) => name.toLowerCase(),
			revisionsKept: 5,
		})
		const created = await opened.articles.create(articleWrite({ slug: 'one' }))
		if (!created.ok) throw new Error('create failed')
		expect(created.saved.change?.kind).toBe('added')
		expect(await opened.push.deliveriesOf(created.saved.article.id)).toHaveLength(1)
		const before = await opened.changes.latestId()
		const edited = await opened.articles.saveBySlug(articleWrite({ slug: 'one', title: 'Edited' }))
		expect(edited.change).toBeNull()
		expect(await opened.articles.deleteBySlug('one')).toBeNull()
		expect(await opened.changes.latestId()).toBe(before)
	})
})
