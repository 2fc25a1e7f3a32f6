// The push retention part of the storage contract (migration 0008): dead subscriptions deleted with
// their pending deliveries cancelled, and finished deliveries retired into per-article totals
// that resultsByArticle adds back, once, whoever runs it and however often, on both databases.
import { describe, expect, it } from 'vitest'
import {
	articleWrite,
	insertPushSubscriptions,
	pushSubscription,
} from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { NewPushSubscription, PushDeliveryState } from './port/push.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

const minute = 60_000
const day = 24 * 60 * minute

describe.each(databases)('push retention contract: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	async function subscribe(at: Date, overrides: Partial<NewPushSubscription> = {}) {
		return (await storage.push.saveSubscription(pushSubscription(overrides), at)).subscription
	}

	async function publish() {
		const created = await storage.articles.create(articleWrite())
		if (!created.ok) throw new Error('create failed')
		return created.saved.article
	}

	/** Sets deliveries' final states and when they finished, as the worker would have. */
	async function finish(ids: number[], state: PushDeliveryState, finishedAt: Date) {
		if (ids.length === 0) return
		await storage.authDatabase.db
			.updateTable('push_deliveries')
			.set({ state, finished_at: finishedAt.toISOString() })
			.where('id', 'in', ids)
			.execute()
	}

	it('deletes expired and long-silent subscriptions, and cancels what was still to go to them', async () => {
		const now = new Date()
		const staleBefore = new Date(now.getTime() - 270 * day)
		const fresh = await subscribe(now)
		const silent = await subscribe(new Date(staleBefore.getTime() - minute))
		const justInTime = await subscribe(staleBefore)
		const expiring = await subscribe(now, {
			expirationTime: new Date(now.getTime() + minute).toISOString(),
		})
		const lasting = await subscribe(now, {
			expirationTime: new Date(now.getTime() + day).toISOString(),
		})
		const article = await publish()
		expect(await storage.push.deliveriesOf(article.id)).toHaveLength(5)

		// Two minutes on: `expiring` has expired, `silent` has not been sent again for 270 days.
		const later = new Date(now.getTime() + 2 * minute)
		expect(await storage.push.deleteDeadSubscriptions(later, staleBefore)).toBe(2)
		for (const gone of [silent, expiring])
			expect(await storage.push.findSubscription(gone.endpoint)).toBeUndefined()
		for (const kept of [fresh, justInTime, lasting])
			expect(await storage.push.findSubscription(kept.endpoint)).toBeDefined()

		// Only the kept subscriptions are sent to; the others' deliveries are cancelled, and kept.
		const claimed = await storage.push.claimDue(later, minute, 10)
		expect(claimed.map((d) => d.subscription.id).sort()).toEqual(
			[fresh.id, justInTime.id, lasting.id].sort(),
		)
		expect((await storage.push.resultsByArticle([article.id])).get(article.id)).toMatchObject({
			pending: 3,
			cancelled: 2,
		})
		const cancelled = (await storage.push.deliveriesOf(article.id)).filter(
			(d) => d.state === 'cancelled',
		)
		expect(cancelled).toMatchObject([
			{ subscriptionId: null, finishedAt: later.toISOString() },
			{ subscriptionId: null, finishedAt: later.toISOString() },
		])
		expect(await storage.push.deleteDeadSubscriptions(later, staleBefore)).toBe(0)
	})

	it('retires finished deliveries into totals: the results stay the same, and twice changes nothing', async () => {
		const now = new Date()
		for (let i = 0; i < 7; i++) await subscribe(now)
		const article = await publish()
		const other = await publish()
		const ids = (await storage.push.deliveriesOf(article.id)).map((d) => d.id)
		const old = new Date(now.getTime() - 31 * day)
		const recent = new Date(now.getTime() - 29 * day)
		await finish(ids.slice(0, 2), 'sent', old)
		await finish(ids.slice(2, 3), 'gone', old)
		await finish(ids.slice(3, 4), 'failed', old)
		await finish(ids.slice(4, 5), 'cancelled', old)
		await finish(ids.slice(5, 6), 'sent', recent)
		// ids[6] stays pending, however old it is.
		const before = await storage.push.resultsByArticle([article.id, other.id])
		expect(before.get(article.id)).toEqual({
			pending: 1,
			sent: 3,
			gone: 1,
			failed: 1,
			cancelled: 1,
		})

		const cutoff = new Date(now.getTime() - 30 * day)
		expect(await storage.push.retireDeliveries(cutoff)).toBe(5)
		expect(await storage.push.resultsByArticle([article.id, other.id])).toEqual(before)
		expect((await storage.push.deliveriesOf(article.id)).map((d) => d.id)).toEqual(ids.slice(5))
		expect(await storage.push.retireDeliveries(cutoff)).toBe(0)
		expect(await storage.push.resultsByArticle([article.id, other.id])).toEqual(before)

		// More finish and are retired later: added to the same totals.
		await finish(ids.slice(6), 'failed', old)
		expect(await storage.push.retireDeliveries(new Date(now.getTime() - 28 * day))).toBe(2)
		expect((await storage.push.resultsByArticle([article.id])).get(article.id)).toEqual({
			pending: 0,
			sent: 3,
			gone: 1,
			failed: 2,
			cancelled: 1,
		})
		expect(await storage.push.deliveriesOf(article.id)).toEqual([])

		// The totals go with their article.
		expect(await storage.articles.deleteById(article.id)).toMatchObject({ ok: true })
		const totals = await storage.authDatabase.db
			.selectFrom('push_delivery_totals')
			.select('article_id')
			.execute()
		expect(totals).toEqual([])
		expect((await storage.push.resultsByArticle([article.id])).get(article.id)).toEqual({
			pending: 0,
			sent: 0,
			gone: 0,
			failed: 0,
			cancelled: 0,
		})
	})

	it('counts each retired delivery once with several instances retiring at once, and lets an article be deleted meanwhile', async () => {
		// 1,500 subscribers, three articles: 1,200 finished rows each, retired in batches of 1,000.
		await insertPushSubscriptions(storage, 1_500)
		const articles = [await publish(), await publish(), await publish()]
		const old = new Date(Date.now() - 40 * day)
		const states: PushDeliveryState[] = ['sent', 'gone', 'failed', 'cancelled', 'pending']
		for (const article of articles) {
			const ids = (await storage.push.deliveriesOf(article.id)).map((d) => d.id)
			for (const [i, state] of states.entries()) {
				if (state !== 'pending')
					await finish(
						ids.filter((_, n) => n % states.length === i),
						state,
						old,
					)
			}
		}
		const [kept, deleted, third] = articles.map((a) => a.id) as [number, number, number]
		const before = await storage.push.resultsByArticle([kept, third])
		expect(before.get(kept)).toEqual({
			pending: 300,
			sent: 300,
			gone: 300,
			failed: 300,
			cancelled: 300,
		})

		// PostgreSQL: two pools, as two instances would have. SQLite: one handle per process.
		const second = database.dialect === 'postgres' ? database.open() : storage
		try {
			const cutoff = new Date(Date.now() - 30 * day)
			const [retired] = await Promise.all([
				Promise.all([storage, second, storage, second].map((s) => s.push.retireDeliveries(cutoff))),
				storage.articles.deleteById(deleted),
			])
			// Of the rows of the articles kept, every one retired by exactly one of the four.
			const retiredSum = retired.reduce((sum, n) => sum + n, 0)
			expect(retiredSum).toBeGreaterThanOrEqual(2 * 1_200)
			expect(retiredSum).toBeLessThanOrEqual(3 * 1_200)
		} finally {
			if (second !== storage) await second.close()
		}
		expect(await storage.push.resultsByArticle([kept, third])).toEqual(before)
		expect((await storage.push.resultsByArticle([deleted])).get(deleted)).toEqual({
			pending: 0,
			sent: 0,
			gone: 0,
			failed: 0,
			cancelled: 0,
		})
		for (const id of [kept, third])
			expect((await storage.push.deliveriesOf(id)).every((d) => d.state === 'pending')).toBe(true)
		expect(await storage.articles.findById(deleted)).toBeUndefined()
	})
})
