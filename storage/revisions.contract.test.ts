// An article's history (migration 0017): a revision per save in the save's transaction, autosaves
// of one sitting merged, pending edits of a published article kept apart from what readers see,
// and only the newest kept; on both databases.
import { describe, expect, it } from 'vitest'
import { storageRules } from '#server/storage-rules.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import type { RevisionContent } from './port/revisions.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

const ada = { id: 'user-ada', name: 'Ada' }
const bo = { id: 'user-bo', name: 'Bo' }

describe.each(databases)('revisions storage contract: $name', ({ create }) => {
	let storage: Storage

	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	async function addUsers() {
		const now = new Date().toISOString()
		for (const user of [ada, bo])
			await storage.authDatabase.db
				.insertInto('user')
				.values({
					id: user.id,
					name: user.name,
					email: `${user.id}@example.org`,
					emailVerified: false,
					image: null,
					createdAt: now,
					updatedAt: now,
					role: 'editor',
					deactivatedAt: null,
				})
				.execute()
	}

	async function draft() {
		const created = await storage.articles.create(
			articleWrite({
				status: 'draft',
				publishedAt: null,
				title: 'River notes',
				bodyMarkdown: 'First words.',
				tags: ['water', 'soil'],
				revision: { kind: 'autosaved', by: ada },
			}),
		)
		if (!created.ok) throw new Error('create failed')
		return created.saved.article
	}

	it('keeps what each save left, who made it and which fields changed', async () => {
		await addUsers()
		const article = await draft()
		const saved = await storage.articles.update(
			article.id,
			1,
			articleWrite({
				slug: article.slug,
				status: 'draft',
				publishedAt: null,
				title: 'River notes, spring',
				bodyMarkdown: 'First words.',
				tags: ['water', 'soil'],
				revision: { by: bo },
			}),
		)
		if (!saved.ok) throw new Error('update failed')
		const published = await storage.articles.update(
			article.id,
			2,
			articleWrite({
				slug: article.slug,
				title: 'River notes, spring',
				bodyMarkdown: 'First words, and more.',
				tags: ['water'],
				revision: { by: ada },
			}),
		)
		if (!published.ok) throw new Error('publish failed')
		const list = await storage.revisions.list(article.id)
		expect(
			list.map(({ kind, byName, version, changed }) => ({ kind, byName, version, changed })),
		).toEqual([
			{
				kind: 'published',
				byName: 'Ada',
				version: 3,
				changed: ['bodyMarkdown', 'tags', 'status'],
			},
			{ kind: 'saved', byName: 'Bo', version: 2, changed: ['title'] },
			{ kind: 'autosaved', byName: 'Ada', version: 1, changed: [] },
		])
		const first = await storage.revisions.get(article.id, list[2]?.id ?? 0)
		expect(first).toMatchObject({
			title: 'River notes',
			bodyMarkdown: 'First words.',
			tags: ['water', 'soil'],
			authors: ['Test Author'],
			status: 'draft',
		})
		// Another article's revision is not this one's.
		expect(await storage.revisions.get(article.id + 1, list[2]?.id ?? 0)).toBeUndefined()
	})

	it('merges one person’s autosaves of a sitting, and adds nothing for a save that changed nothing', async () => {
		await addUsers()
		const article = await draft()
		let version = 1
		for (const body of ['First words. Two', 'First words. Two three']) {
			const saved = await storage.articles.update(
				article.id,
				version,
				articleWrite({
					slug: article.slug,
					status: 'draft',
					publishedAt: null,
					title: 'River notes',
					bodyMarkdown: body,
					tags: ['water', 'soil'],
					revision: { kind: 'autosaved', by: ada },
				}),
			)
			if (!saved.ok) throw new Error('update failed')
			version = saved.saved.article.version
		}
		const again = await storage.articles.update(
			article.id,
			version,
			articleWrite({
				slug: article.slug,
				status: 'draft',
				publishedAt: null,
				title: 'River notes',
				bodyMarkdown: 'First words. Two three',
				tags: ['water', 'soil'],
				revision: { by: ada },
			}),
		)
		expect(again.ok).toBe(true)
		const list = await storage.revisions.list(article.id)
		expect(list).toHaveLength(1)
		expect(list[0]).toMatchObject({ kind: 'autosaved', version: 3, changed: ['bodyMarkdown'] })
		expect((await storage.revisions.get(article.id, list[0]?.id ?? 0))?.bodyMarkdown).toBe(
			'First words. Two three',
		)
	})

	it('keeps edits to a published article pending, apart from what readers see, until a save settles them', async () => {
		await addUsers()
		const created = await storage.articles.create(
			articleWrite({ title: 'Live', bodyMarkdown: 'Live text.', revision: { by: ada } }),
		)
		if (!created.ok) throw new Error('create failed')
		const { article } = created.saved
		const edits: RevisionContent = {
			slug: article.slug,
			title: 'Live, better',
			summary: article.summary,
			bodyMarkdown: 'Live text, better.',
			coverImageUrl: null,
			coverImageAlt: null,
			tags: ['test'],
			authors: ['Test Author'],
			seoTitle: '',
			seoDescription: '',
			socialImageUrl: null,
		}
		const pending = await storage.revisions.savePending(article.id, 1, edits, ada)
		expect(pending).toMatchObject({ ok: true, revision: { kind: 'pending', version: 1 } })
		if (!pending.ok) throw new Error('not kept')
		expect(pending.revision.changed).toEqual(['title', 'bodyMarkdown'])
		// A second autosave replaces the first: one pending revision per article.
		const again = await storage.revisions.savePending(
			article.id,
			1,
			{ ...edits, bodyMarkdown: 'Live text, better still.' },
			ada,
		)
		expect(again.ok && again.revision.id).toBe(pending.revision.id)
		expect((await storage.articles.findById(article.id))?.bodyMarkdown).toBe('Live text.')
		expect((await storage.revisions.pending(article.id))?.bodyMarkdown).toBe(
			'Live text, better still.',
		)
		// Bo updates the article: Ada's pending edits stay in the history, no longer pending.
		const updated = await storage.articles.update(
			article.id,
			1,
			articleWrite({
				slug: article.slug,
				title: 'Live',
				bodyMarkdown: 'Bo’s text.',
				revision: { by: bo },
			}),
		)
		if (!updated.ok) throw new Error('update failed')
		expect(await storage.revisions.pending(article.id)).toBeUndefined()
		expect((await storage.revisions.list(article.id)).map((revision) => revision.kind)).toEqual([
			'saved',
			'autosaved',
			'published',
		])
		// Edits built on an older version are refused: they would undo Bo's save.
		expect(await storage.revisions.savePending(article.id, 1, edits, ada)).toEqual({
			ok: false,
			reason: 'conflict',
			version: 2,
		})
		expect(await storage.revisions.savePending(article.id + 99, 1, edits, ada)).toEqual({
			ok: false,
			reason: 'missing',
		})
		// Ada's own Update replaces her pending edits with the revision it makes.
		await storage.revisions.savePending(article.id, 2, edits, ada)
		const mine = await storage.articles.update(
			article.id,
			2,
			articleWrite({
				slug: article.slug,
				title: edits.title,
				bodyMarkdown: edits.bodyMarkdown,
				revision: { by: ada },
			}),
		)
		expect(mine.ok).toBe(true)
		expect((await storage.revisions.list(article.id)).map((revision) => revision.kind)).toEqual([
			'saved',
			'saved',
			'autosaved',
			'published',
		])
		// Discarding keeps the edits in the history.
		await storage.revisions.savePending(article.id, 3, { ...edits, title: 'Discard me' }, ada)
		expect(await storage.revisions.discardPending(article.id)).toBe(true)
		expect(await storage.revisions.pending(article.id)).toBeUndefined()
		expect((await storage.revisions.list(article.id))[0]?.title).toBe('Discard me')
		expect(await storage.revisions.discardPending(article.id)).toBe(false)
	})

	it('keeps only the newest revisions the rules say, and none of a deleted article', async () => {
		const own = await create()
		const opened = own.open({ articles: { ...storageRules.articles, revisionsKept: 3 } })
		await opened.migrate()
		const created = await opened.articles.create(articleWrite({ title: 'v1' }))
		if (!created.ok) throw new Error('create failed')
		const { article } = created.saved
		for (let version = 1; version <= 5; version++) {
			const saved = await opened.articles.update(
				article.id,
				version,
				articleWrite({ slug: article.slug, title: `v${version + 1}` }),
			)
			if (!saved.ok) throw new Error('update failed')
		}
		expect((await opened.revisions.list(article.id)).map((revision) => revision.title)).toEqual([
			'v6',
			'v5',
			'v4',
		])
		await opened.articles.deleteById(article.id)
		expect(await opened.revisions.list(article.id)).toEqual([])
		await opened.close()
		await own.drop()
	})

	it('records the scheduled publish by the job', async () => {
		const created = await storage.articles.create(
			articleWrite({ status: 'draft', publishedAt: null, publishAt: '2026-01-01T10:00:00.000Z' }),
		)
		if (!created.ok) throw new Error('create failed')
		await storage.articles.publishDue(new Date('2026-01-01T10:00:01Z'), 10)
		expect(
			(await storage.revisions.list(created.saved.article.id)).map(({ kind, status }) => ({
				kind,
				status,
			})),
		).toEqual([
			{ kind: 'published', status: 'published' },
			{ kind: 'saved', status: 'draft' },
		])
	})
})
