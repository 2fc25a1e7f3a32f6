// The push part of the storage contract (migrations 0007, 0008): subscriptions stored once per
// endpoint, one delivery per subscription written with the publish that announces an article
// (once in its life), cancelled when it stops being public, and leased to one worker at a time;
// dead subscriptions deleted and old deliveries retired into totals, on both databases.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
	articleWrite,
	insertPushSubscriptions,
	pushSubscription,
} from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { ArticleWrite } from './port/articles.ts'
import type { NewPushSubscription } from './port/push.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

const minute = 60_000

describe.each(databases)('push storage contract: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	async function subscribe(count: number, overrides: Partial<NewPushSubscription> = {}) {
		const saved = []
		for (let i = 0; i < count; i++)
			saved.push(
				(await storage.push.saveSubscription(pushSubscription(overrides), new Date())).subscription,
			)
		return saved
	}

	async function publish(overrides: Partial<ArticleWrite> = {}) {
		const created = await storage.articles.create(articleWrite(overrides))
		if (!created.ok) throw new Error('create failed')
		return created.saved.article
	}

	/** Due now: the publish wrote its deliveries at the time it ran. */
	const soon = () => new Date(Date.now() + 1_000)

	it('stores a subscription once per endpoint; sending it again refreshes its keys', async () => {
		const first = pushSubscription()
		const t0 = new Date('2026-03-01T10:00:00Z')
		const saved = await storage.push.saveSubscription(first, t0)
		expect(saved.created).toBe(true)
		expect(saved.subscription).toMatchObject({
			endpoint: first.endpoint,
			p256dh: first.p256dh,
			createdAt: t0.toISOString(),
			refreshedAt: t0.toISOString(),
		})
		const t1 = new Date('2026-03-08T10:00:00Z')
		const again = await storage.push.saveSubscription(
			{ ...first, p256dh: 'Bnew', auth: 'new-auth', expirationTime: '2026-04-01T00:00:00Z' },
			t1,
		)
		expect(again.created).toBe(false)
		expect(again.subscription).toEqual({
			id: saved.subscription.id,
			endpoint: first.endpoint,
			p256dh: 'Bnew',
			auth: 'new-auth',
			expirationTime: '2026-04-01T00:00:00.000Z',
			createdAt: t0.toISOString(),
			refreshedAt: t1.toISOString(),
		})
		expect(await storage.push.findSubscription(first.endpoint)).toEqual(again.subscription)
		expect(await storage.push.findSubscription('https://push.example.net/none')).toBeUndefined()
	})

	it('stores one row when the same endpoint is sent many times at once', async () => {
		const one = pushSubscription()
		const results = await Promise.all(
			Array.from({ length: 6 }, () => storage.push.saveSubscription(one, new Date())),
		)
		expect(results.filter((result) => result.created)).toHaveLength(1)
		expect(new Set(results.map((result) => result.subscription.id)).size).toBe(1)
		expect(await storage.push.subscriberCount()).toBe(1)
	})

	it('counts the subscribers that can still be sent to', async () => {
		const now = new Date('2026-03-01T10:00:00Z')
		await subscribe(2)
		await subscribe(1, { expirationTime: '2026-03-01T09:00:00Z' })
		await subscribe(1, { expirationTime: '2026-03-02T09:00:00Z' })
		expect(await storage.push.subscriberCount(now)).toBe(3)
		expect(await storage.push.subscriberCount(new Date('2026-03-03T00:00:00Z'))).toBe(2)
	})

	it('writes one delivery per subscription when an article is published, and marks it announced', async () => {
		const subscribers = await subscribe(3)
		await subscribe(1, { expirationTime: new Date(Date.now() - minute).toISOString() })
		const draft = await publish({ status: 'draft', publishedAt: null })
		expect(await storage.push.deliveriesOf(draft.id)).toEqual([])
		expect(draft).toMatchObject({ notify: true, notifiedAt: null })

		const published = await storage.articles.update(draft.id, draft.version, {
			...articleWrite(),
			slug: draft.slug,
		})
		if (!published.ok) throw new Error('publish failed')
		const deliveries = await storage.push.deliveriesOf(draft.id)
		expect(deliveries.map((d) => d.subscriptionId).sort()).toEqual(
			subscribers.map((s) => s.id).sort(),
		)
		expect(deliveries.every((d) => d.state === 'pending' && d.attempts === 0)).toBe(true)
		const notifiedAt = published.saved.article.notifiedAt
		expect(notifiedAt).not.toBeNull()
		expect(deliveries.every((d) => d.createdAt === notifiedAt)).toBe(true)
		expect((await storage.articles.findById(draft.id))?.notifiedAt).toBe(notifiedAt)
		expect((await storage.push.resultsByArticle([draft.id])).get(draft.id)).toEqual({
			pending: 3,
			sent: 0,
			gone: 0,
			failed: 0,
			cancelled: 0,
		})
	})

	it('announces through every path that makes an article public: create, save by slug, schedule', async () => {
		await subscribe(2)
		const created = await publish()
		const bySlug = await storage.articles.saveBySlug(articleWrite())
		const scheduled = await publish({
			status: 'draft',
			publishedAt: null,
			publishAt: '2026-01-01T10:00:00.000Z',
		})
		const [due] = await storage.articles.publishDue(new Date('2026-01-01T10:00:01Z'), 10)
		expect(due?.id).toBe(scheduled.id)
		expect(due?.notifiedAt).toBe('2026-01-01T10:00:01.000Z')
		for (const article of [created, bySlug.article, scheduled])
			expect(await storage.push.deliveriesOf(article.id)).toHaveLength(2)
		expect(created.notifiedAt).not.toBeNull()
		expect(bySlug.article.notifiedAt).not.toBeNull()
	})

	it('writes nothing for an article published with notify false, and keeps that choice on later saves', async () => {
		await subscribe(2)
		const quiet = await publish({ notify: false, email: false })
		expect(quiet).toMatchObject({ notify: false, email: false, notifiedAt: null })
		expect(await storage.push.deliveriesOf(quiet.id)).toEqual([])
		// A save that says nothing of notify (the editor today) keeps it off.
		const unpublished = await storage.articles.update(quiet.id, quiet.version, {
			...articleWrite({ status: 'draft', publishedAt: null }),
			slug: quiet.slug,
		})
		if (!unpublished.ok) throw new Error('unpublish failed')
		const again = await storage.articles.update(quiet.id, unpublished.saved.article.version, {
			...articleWrite(),
			slug: quiet.slug,
		})
		expect(again.ok && again.saved.article.notify).toBe(false)
		expect(await storage.push.deliveriesOf(quiet.id)).toEqual([])
	})

	it('sends no notice for an article mailed to the newsletter alone (notify off, email on)', async () => {
		await subscribe(2)
		const mailed = await publish({ notify: false })
		expect(mailed).toMatchObject({ notifiedAt: null, notify: false, email: true })
		expect(mailed.emailedAt).not.toBeNull()
		expect(await storage.push.deliveriesOf(mailed.id)).toEqual([])
	})

	it('announces an article once in its life: a republish notifies no one again', async () => {
		await subscribe(2)
		const article = await publish()
		const [first] = await storage.push.claimDue(soon(), minute, 1)
		if (!first) throw new Error('nothing claimed')
		await storage.push.markSent(first.id, 201, new Date())

		const off = await storage.articles.update(article.id, article.version, {
			...articleWrite({ status: 'draft', publishedAt: null }),
			slug: article.slug,
		})
		if (!off.ok) throw new Error('unpublish failed')
		// What had not gone out is cancelled; what went out stays sent.
		expect((await storage.push.resultsByArticle([article.id])).get(article.id)).toMatchObject({
			pending: 0,
			sent: 1,
			cancelled: 1,
		})
		expect(await storage.push.claimDue(soon(), minute, 10)).toEqual([])

		await subscribe(1)
		const on = await storage.articles.update(article.id, off.saved.article.version, {
			...articleWrite(),
			slug: article.slug,
		})
		expect(on.ok && on.saved.article.notifiedAt).toBe(article.notifiedAt)
		expect(await storage.push.deliveriesOf(article.id)).toHaveLength(2)
		expect(await storage.push.claimDue(soon(), minute, 10)).toEqual([])
	})

	it('announces a draft once when several saves publish it at the same moment', async () => {
		await subscribe(3)
		const draft = articleWrite({ status: 'draft', publishedAt: null })
		await storage.articles.saveBySlug(draft)
		const saves = await Promise.all(
			Array.from({ length: 6 }, () =>
				storage.articles.saveBySlug({ ...draft, status: 'published' }),
			),
		)
		const id = saves[0]?.article.id ?? 0
		expect(await storage.push.deliveriesOf(id)).toHaveLength(3)
		// Exactly one of them made it public: the others saved a published article again.
		expect(saves.map((saved) => saved.change?.kind).sort()).toEqual([
			'added',
			'modified',
			'modified',
			'modified',
			'modified',
			'modified',
		])
		expect(new Set(saves.map((saved) => saved.article.notifiedAt)).size).toBe(1)
	})

	it('writes the deliveries in the publish’s own transaction: a publish that fails leaves none', async () => {
		await subscribe(3)
		const draft = await publish({ status: 'draft', publishedAt: null })
		const db = storage.authDatabase.db
		// The change row is written after the deliveries: without its table the publish fails there.
		await sql`ALTER TABLE changes RENAME TO changes_away`.execute(db)
		try {
			await expect(
				storage.articles.update(draft.id, draft.version, { ...articleWrite(), slug: draft.slug }),
			).rejects.toThrow()
		} finally {
			await sql`ALTER TABLE changes_away RENAME TO changes`.execute(db)
		}
		expect(await storage.push.deliveriesOf(draft.id)).toEqual([])
		expect(await storage.articles.findById(draft.id)).toMatchObject({
			status: 'draft',
			notifiedAt: null,
		})
		// And the same publish, once it can succeed, announces it.
		await storage.articles.update(draft.id, draft.version, { ...articleWrite(), slug: draft.slug })
		expect(await storage.push.deliveriesOf(draft.id)).toHaveLength(3)
	})

	it('sends nothing of a deleted article: its deliveries go with it', async () => {
		await subscribe(2)
		const byId = await publish()
		const bySlug = await publish()
		expect(await storage.articles.deleteById(byId.id)).toMatchObject({ ok: true })
		await storage.articles.deleteBySlug(bySlug.slug)
		expect(await storage.push.claimDue(soon(), minute, 10)).toEqual([])
		expect(await storage.push.deliveriesOf(byId.id)).toEqual([])
		expect(await storage.push.deliveriesOf(bySlug.id)).toEqual([])
	})

	it('leases each due delivery to one worker, with what the payload needs, and takes back an expired lease', async () => {
		const subscribers = await subscribe(60)
		const article = await publish({ coverImageUrl: '/media/abc.png', coverImageAlt: 'A marsh' })
		const now = soon()
		// PostgreSQL: two pools, as two instances would have, each claiming on all its
		// connections at once. SQLite: one handle per process.
		const second = database.dialect === 'postgres' ? database.open() : storage
		try {
			const claims = await Promise.all(
				[storage, second].flatMap((worker) =>
					Array.from({ length: 4 }, () => worker.push.claimDue(now, minute, 5)),
				),
			)
			// Then the rest: every delivery was taken exactly once.
			const claimed = [...claims.flat(), ...(await storage.push.claimDue(now, minute, 100))]
			expect(claimed.map((d) => d.subscription.id).sort()).toEqual(
				subscribers.map((s) => s.id).sort(),
			)
			expect(claimed.every((d) => d.attempts === 1)).toBe(true)
		} finally {
			if (second !== storage) await second.close()
		}
		expect(await storage.push.claimDue(now, minute, 100)).toEqual([])

		// A worker that died: the lease runs out and the deliveries are taken again.
		const later = new Date(now.getTime() + minute + 1)
		const retaken = await storage.push.claimDue(later, minute, 100)
		expect(retaken).toHaveLength(60)
		const [first] = retaken
		const subscriber = subscribers.find((s) => s.id === first?.subscription.id)
		expect(first).toEqual({
			id: expect.any(Number),
			attempts: 2,
			createdAt: article.notifiedAt,
			subscription: {
				id: subscriber?.id,
				endpoint: subscriber?.endpoint,
				p256dh: subscriber?.p256dh,
				auth: subscriber?.auth,
			},
			article: {
				id: article.id,
				slug: article.slug,
				title: article.title,
				summary: article.summary,
				coverImageUrl: '/media/abc.png',
				coverImageAlt: 'A marsh',
			},
		})
	})

	it('records each result: sent, retried later, failed, gone; only pending ones are claimed again', async () => {
		const [a, b, c, d] = await subscribe(4)
		const article = await publish()
		const other = await publish()
		const now = soon()
		const claimed = await storage.push.claimDue(now, minute, 4)
		const of = (subscriptionId: number | undefined) => {
			const found = claimed.find((delivery) => delivery.subscription.id === subscriptionId)
			if (!found) throw new Error('not claimed')
			return found.id
		}
		expect(claimed.every((delivery) => delivery.article.id === article.id)).toBe(true)
		await storage.push.markSent(of(a?.id), 201, now)
		await storage.push.retryLater(
			of(b?.id),
			503,
			'Service Unavailable',
			new Date(now.getTime() + 5_000),
		)
		await storage.push.markFailed(of(c?.id), 413, 'Payload Too Large', now)
		await storage.push.markGone(of(d?.id), 410, now)

		// Gone: the subscription is deleted and its delivery of the other article cancelled.
		expect(d && (await storage.push.findSubscription(d.endpoint))).toBeUndefined()
		expect(await storage.push.subscriberCount()).toBe(3)
		const results = await storage.push.resultsByArticle([article.id, other.id, 999_999])
		expect(results.get(article.id)).toEqual({
			pending: 1,
			sent: 1,
			gone: 1,
			failed: 1,
			cancelled: 0,
		})
		expect(results.get(other.id)).toEqual({ pending: 3, sent: 0, gone: 0, failed: 0, cancelled: 1 })
		expect(results.get(999_999)).toEqual({ pending: 0, sent: 0, gone: 0, failed: 0, cancelled: 0 })

		const rows = await storage.push.deliveriesOf(article.id)
		const row = (id: number) => rows.find((delivery) => delivery.id === id)
		expect(row(of(a?.id))).toMatchObject({
			state: 'sent',
			lastStatus: 201,
			finishedAt: now.toISOString(),
		})
		expect(row(of(c?.id))).toMatchObject({
			state: 'failed',
			lastStatus: 413,
			lastError: 'Payload Too Large',
		})
		expect(row(of(d?.id))).toMatchObject({ state: 'gone', lastStatus: 410, subscriptionId: null })
		expect(row(of(b?.id))).toMatchObject({
			state: 'pending',
			lastStatus: 503,
			lastError: 'Service Unavailable',
			nextAttemptAt: new Date(now.getTime() + 5_000).toISOString(),
			finishedAt: null,
		})

		// The other article's three, then the retry once it is due, with its attempts counted.
		const next = await storage.push.claimDue(now, minute, 10)
		expect(next.map((delivery) => delivery.article.id)).toEqual([other.id, other.id, other.id])
		const retried = await storage.push.claimDue(new Date(now.getTime() + 5_000), minute, 10)
		expect(retried).toMatchObject([{ id: of(b?.id), attempts: 2 }])
		await storage.push.retryLater(of(b?.id), null, 'timed out', new Date(now.getTime() + 10_000))
		expect(
			(await storage.push.deliveriesOf(article.id)).find((delivery) => delivery.id === of(b?.id)),
		).toMatchObject({ attempts: 2, lastStatus: null, lastError: 'timed out' })
	})

	it('an unsubscribe cancels what was still to go; a result already under way is still recorded', async () => {
		const [kept, leaving, racing] = await subscribe(3)
		const article = await publish()
		const now = soon()
		const claimed = await storage.push.claimDue(now, minute, 10)
		const inFlight = claimed.find((delivery) => delivery.subscription.id === racing?.id)
		const retrying = claimed.find((delivery) => delivery.subscription.id === kept?.id)
		if (!inFlight || !retrying || !leaving || !racing) throw new Error('not claimed')
		const leavingDelivery = claimed.find((delivery) => delivery.subscription.id === leaving.id)
		if (!leavingDelivery) throw new Error('not claimed')
		await storage.push.retryLater(leavingDelivery.id, 500, 'oops', now)

		expect(await storage.push.deleteSubscription(leaving.endpoint, now)).toBe(true)
		expect(await storage.push.deleteSubscription(leaving.endpoint, now)).toBe(false)
		// The article is unpublished while two sends are under way.
		const off = await storage.articles.update(article.id, article.version, {
			...articleWrite({ status: 'draft', publishedAt: null }),
			slug: article.slug,
		})
		expect(off.ok).toBe(true)
		await storage.push.markSent(inFlight.id, 201, now)
		await storage.push.retryLater(retrying.id, 429, 'Too Many Requests', now)
		expect(await storage.push.claimDue(new Date(now.getTime() + 10 * minute), minute, 10)).toEqual(
			[],
		)
		expect((await storage.push.resultsByArticle([article.id])).get(article.id)).toEqual({
			pending: 0,
			sent: 1,
			gone: 0,
			failed: 0,
			cancelled: 2,
		})
	})

	it('writes a delivery for each of ten thousand subscribers with the publish', async () => {
		await insertPushSubscriptions(storage, 10_000)
		const article = await publish()
		expect((await storage.push.resultsByArticle([article.id])).get(article.id)?.pending).toBe(
			10_000,
		)
		expect(await storage.push.claimDue(soon(), minute, 10_000)).toHaveLength(10_000)
	})
})
