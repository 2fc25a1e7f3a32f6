// The newsletter part of the storage contract (migration 0021): subscribers asked, confirmed,
// unsubscribed and deleted; one mail delivery per confirmed subscriber written with the publish
// that announces an article (by the tags followed), digests made once per slot, deliveries leased
// to one worker at a time, refusals suspending an address, on both databases.
import { describe, expect, it } from 'vitest'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import type { ArticleWrite } from './port/articles.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

const minute = 60_000
const soon = () => new Date(Date.now() + 1_000)

describe.each(databases)('newsletter storage contract: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	async function confirmed(
		email: string,
		preferences?: { cadence: 'each' | 'digest'; tags?: string[] },
	) {
		const { subscriber } = await storage.newsletter.subscribe(email, 'form', new Date())
		await storage.newsletter.confirm(subscriber.id, new Date())
		if (preferences) {
			const tagIds = []
			for (const slug of preferences.tags ?? []) {
				const tag = await storage.tags.findBySlug(slug)
				if (!tag) throw new Error(`no tag ${slug}`)
				tagIds.push(tag.id)
			}
			await storage.newsletter.setPreferences(
				subscriber.id,
				{ cadence: preferences.cadence, tagIds },
				new Date(),
			)
		}
		return subscriber.id
	}

	async function publish(overrides: Partial<ArticleWrite> = {}) {
		const created = await storage.articles.create(articleWrite(overrides))
		if (!created.ok) throw new Error('create failed')
		return created.saved.article
	}

	const recipients = async () =>
		(await storage.newsletter.claimDue(soon(), minute, 100)).map((d) => d.subscriber.email).sort()

	it('keeps one row per address, lower-cased; asking again after leaving starts over', async () => {
		const first = await storage.newsletter.subscribe('Reader@Example.org', 'form', new Date())
		expect(first).toMatchObject({
			created: true,
			subscriber: { email: 'reader@example.org', status: 'pending' },
		})
		const again = await storage.newsletter.subscribe('reader@example.org', 'form', new Date())
		expect(again.created).toBe(false)
		expect(again.subscriber.id).toBe(first.subscriber.id)
		const t = new Date('2026-05-01T10:00:00Z')
		expect(await storage.newsletter.confirm(first.subscriber.id, t)).toMatchObject({
			status: 'confirmed',
			consentAt: t.toISOString(),
		})
		// A confirmed address asking again stays confirmed.
		expect(
			(await storage.newsletter.subscribe('READER@example.org', 'form', new Date())).subscriber
				.status,
		).toBe('confirmed')
		await storage.newsletter.unsubscribe(first.subscriber.id, new Date())
		expect(
			(await storage.newsletter.subscribe('reader@example.org', 'form', new Date())).subscriber
				.status,
		).toBe('pending')
	})

	it('mails a new article to confirmed readers of every article and of its tags, never the pending or the digest readers', async () => {
		await publish({ slug: 'seed', tags: ['Rivers', 'Peat', 'Forests'] })
		await confirmed('all@example.org')
		await confirmed('rivers@example.org', { cadence: 'each', tags: ['rivers'] })
		await confirmed('forests@example.org', { cadence: 'each', tags: ['forests'] })
		await confirmed('weekly@example.org', { cadence: 'digest' })
		await storage.newsletter.subscribe('pending@example.org', 'form', new Date())
		await storage.newsletter.claimDue(soon(), minute, 100) // the seed's mails

		const article = await publish({ slug: 'river-cleanup', tags: ['Rivers'] })
		expect(await recipients()).toEqual(['all@example.org', 'rivers@example.org'])
		expect(await storage.newsletter.figuresOfArticle(article.id)).toMatchObject({ pending: 2 })
		// A tag made by this very publish (the transaction path on PostgreSQL) counts too.
		await publish({ slug: 'forests', tags: ['Forests', 'Brand new'] })
		expect(await recipients()).toEqual(['all@example.org', 'forests@example.org'])
	})

	it('writes nothing for an article published with email off, or for a page, and keeps that choice', async () => {
		await confirmed('all@example.org')
		const quiet = await publish({ email: false })
		expect(quiet.email).toBe(false)
		await publish({ slug: 'about', kind: 'page' })
		expect(await recipients()).toEqual([])
		const saved = await storage.articles.update(quiet.id, quiet.version, {
			...articleWrite({ status: 'draft', publishedAt: null }),
			slug: quiet.slug,
		})
		expect(saved.ok && saved.saved.article.email).toBe(false)
	})

	it('mails a scheduled article when the job publishes it, and only once in its life', async () => {
		await confirmed('all@example.org')
		const draft = await publish({
			status: 'draft',
			publishedAt: null,
			publishAt: '2026-01-01T10:00:00.000Z',
		})
		expect(await recipients()).toEqual([])
		await storage.articles.publishDue(new Date('2026-01-01T10:00:01Z'), 10)
		const [delivery] = await storage.newsletter.claimDue(soon(), minute, 10)
		expect(delivery).toMatchObject({ mail: { kind: 'article', articleId: draft.id } })
		await storage.newsletter.markSent(delivery?.id ?? 0, new Date())
		const published = await storage.articles.findById(draft.id)
		const off = await storage.articles.update(draft.id, published?.version ?? 0, {
			...articleWrite({ status: 'draft', publishedAt: null }),
			slug: draft.slug,
		})
		if (!off.ok) throw new Error('unpublish failed')
		await storage.articles.update(draft.id, off.saved.article.version, {
			...articleWrite(),
			slug: draft.slug,
		})
		expect(await recipients()).toEqual([])
		expect(await storage.newsletter.figuresOfArticle(draft.id)).toMatchObject({
			sent: 1,
			pending: 0,
		})
	})

	it('cancels what has not gone out when a reader unsubscribes or the article is unpublished', async () => {
		const reader = await confirmed('reader@example.org')
		await confirmed('other@example.org')
		const article = await publish()
		expect(await storage.newsletter.writeDeliveries(1_000)).toBe(2)
		await storage.newsletter.unsubscribe(reader, new Date())
		expect(await storage.newsletter.figuresOfArticle(article.id)).toMatchObject({
			pending: 1,
			cancelled: 1,
		})
		await storage.articles.update(article.id, article.version, {
			...articleWrite({ status: 'draft', publishedAt: null }),
			slug: article.slug,
		})
		expect(await storage.newsletter.figuresOfArticle(article.id)).toMatchObject({
			pending: 0,
			cancelled: 2,
		})
		expect(await recipients()).toEqual([])
	})

	it('leases a delivery to one worker; a lease that runs out lets it be taken again', async () => {
		await confirmed('reader@example.org')
		await publish()
		const [first] = await storage.newsletter.claimDue(soon(), minute, 10)
		expect(first?.attempts).toBe(1)
		expect(await storage.newsletter.claimDue(soon(), minute, 10)).toEqual([])
		const later = new Date(Date.now() + 2 * minute)
		const [again] = await storage.newsletter.claimDue(later, minute, 10)
		expect(again).toMatchObject({ id: first?.id, attempts: 2 })
		await storage.newsletter.retryLater(
			again?.id ?? 0,
			'451 try later',
			new Date(later.getTime() + minute),
		)
		expect(await storage.newsletter.claimDue(later, minute, 10)).toEqual([])
	})

	it('suspends an address after the set number of refusals, and a mail that goes through resets the count', async () => {
		const reader = await confirmed('bouncy@example.org')
		for (const slug of ['one', 'two', 'three']) await publish({ slug })
		const claimed = await storage.newsletter.claimDue(soon(), minute, 10)
		expect(claimed).toHaveLength(3)
		const [one, two, three] = claimed.map((d) => d.id) as [number, number, number]
		expect(await storage.newsletter.markRefused(one, '550 no such user', new Date(), 2)).toBe(false)
		await storage.newsletter.markSent(two, new Date())
		expect((await storage.newsletter.find(reader))?.failures).toBe(0)
		expect(await storage.newsletter.markRefused(three, '550 no such user', new Date(), 1)).toBe(
			true,
		)
		expect(await storage.newsletter.find(reader)).toMatchObject({ status: 'suspended' })
		await publish({ slug: 'four' })
		expect(await recipients()).toEqual([])
		const figures = await storage.newsletter.figures(10)
		expect(figures.map((f) => f.counts)).toContainEqual(expect.objectContaining({ suspended: 1 }))
	})

	it('makes one digest per slot, for digest readers following its tags, and records an empty week', async () => {
		const start = new Date('2000-01-01T00:00:00Z')
		const end = new Date(Date.now() + minute)
		await confirmed('weekly@example.org', { cadence: 'digest' })
		expect(
			await storage.newsletter.createDigest('2026-W1', { start, end }, new Date()),
		).toBeUndefined()
		expect((await storage.newsletter.latestDigest())?.slot).toBe('2026-W1')
		await publish({ slug: 'a', tags: ['Peat'] })
		await publish({ slug: 'b', tags: ['Rivers'] })
		await confirmed('peat@example.org', { cadence: 'digest', tags: ['peat'] })
		await confirmed('oceans@example.org', { cadence: 'digest', tags: ['rivers'] })
		await storage.newsletter.claimDue(soon(), minute, 100) // the articles' own mails: none (digest readers)
		const made = await storage.newsletter.createDigest('2026-W2', { start, end }, new Date())
		expect(made?.queued).toBe(3)
		expect(made?.digest.articleIds).toHaveLength(2)
		expect(
			await storage.newsletter.createDigest('2026-W2', { start, end }, new Date()),
		).toBeUndefined()
		const claimed = await storage.newsletter.claimDue(soon(), minute, 10)
		expect(claimed.map((d) => d.subscriber.email).sort()).toEqual([
			'oceans@example.org',
			'peat@example.org',
			'weekly@example.org',
		])
		expect(claimed[0]?.mail).toMatchObject({ kind: 'digest', digest: { slot: '2026-W2' } })
	})

	it('deletes a subscriber without a trace but the anonymous counts, and old unconfirmed addresses', async () => {
		const reader = await confirmed('reader@example.org')
		const article = await publish()
		await storage.newsletter.writeDeliveries(1_000)
		await storage.outbox.enqueue([
			{
				kind: 'newsletter-confirmation',
				recipient: 'reader@example.org',
				subject: 'Confirm',
				textBody: 'Follow the link.',
				replyTo: null,
			},
		])
		expect(await storage.newsletter.remove(reader, new Date())).toBe(true)
		expect(await storage.newsletter.remove(reader, new Date())).toBe(false)
		expect(await storage.newsletter.findByEmail('reader@example.org')).toBeUndefined()
		expect((await storage.outbox.pending()).map((mail) => mail.recipient)).not.toContain(
			'reader@example.org',
		)
		expect(await storage.newsletter.figuresOfArticle(article.id)).toMatchObject({ cancelled: 1 })
		await storage.newsletter.subscribe('old@example.org', 'form', new Date('2026-01-01T00:00:00Z'))
		await storage.newsletter.subscribe('new@example.org', 'form', new Date())
		expect(
			await storage.newsletter.deleteUnconfirmed(new Date(Date.now() - 7 * 24 * 60 * minute)),
		).toBe(1)
		expect((await storage.newsletter.all()).map((s) => s.email)).toEqual(['new@example.org'])
	})

	it('imports addresses once, confirmed only when the admin vouches, and lists and counts them', async () => {
		await confirmed('known@example.org')
		const result = await storage.newsletter.importMany(
			[
				{ email: 'Known@example.org', confirmed: true },
				{ email: 'a@example.org', confirmed: true },
				{ email: 'b@example.org', confirmed: false },
				{ email: 'B@example.org', confirmed: false },
			],
			new Date('2026-02-01T00:00:00Z'),
			new Date(),
		)
		expect(result).toMatchObject({ added: 2, existing: 1 })
		expect(result.toConfirm.map((s) => s.email)).toEqual(['b@example.org'])
		expect(await storage.newsletter.countsByStatus()).toMatchObject({ confirmed: 2, pending: 1 })
		const found = await storage.newsletter.list({
			search: 'A@',
			status: 'confirmed',
			limit: 10,
			offset: 0,
		})
		expect(found.subscribers.map((s) => s.email)).toEqual(['a@example.org'])
		expect(found.subscribers[0]).toMatchObject({
			source: 'import',
			consentAt: '2026-02-01T00:00:00.000Z',
		})
	})

	it('writes a mail’s deliveries in batches through every reader, each once however often it runs', async () => {
		const rows = Array.from({ length: 2_500 }, (_, i) => ({
			email: `r${i}@example.org`,
			confirmed: true,
		}))
		await storage.newsletter.importMany(rows, new Date(), new Date())
		const article = await publish()
		// The publish wrote one row, not 2,500.
		expect(await storage.newsletter.figuresOfArticle(article.id)).toMatchObject({ pending: 0 })
		const [first, second] = await Promise.all([
			storage.newsletter.writeDeliveries(1_000),
			storage.newsletter.writeDeliveries(1_000),
		])
		expect(first + second).toBeGreaterThanOrEqual(1_000)
		expect(await storage.newsletter.writeDeliveries(10_000)).toBe(2_500 - first - second)
		expect(await storage.newsletter.writeDeliveries(10_000)).toBe(0)
		expect(await storage.newsletter.figuresOfArticle(article.id)).toMatchObject({ pending: 2_500 })
	})
})
