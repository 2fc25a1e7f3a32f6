import { afterEach, describe, expect, it } from 'vitest'
import type { ArticleEvent } from '#app/features/articles/article-types.ts'
import { saveArticle, unpublishArticle } from '#app/features/articles/articles.server.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { parseSse, recordingSink, waitUntil } from '#tests/fixtures/sse.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import { createLiveBroker, type LiveBroker } from './broker.ts'
import { liveStreams, liveTopics } from './streams.ts'

/** What an open article list hears: the articles stream's topics. */
const articleStream = liveStreams[0]?.topics ?? new Set<string>()

const article = (title: string, body = 'Text about the planet.') => ({
	title,
	body,
	summary: `About ${title}`,
})

function articleEvents(text: string) {
	return parseSse(text)
		.events.filter((event) => event.event === 'article')
		.map((event) => ({ changeId: Number(event.id), ...(JSON.parse(event.data) as ArticleEvent) }))
}

describe.each(databases)('the live broker, as article lists hear it: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	let broker: LiveBroker

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	afterEach(async () => {
		broker?.close()
	})

	async function startBroker(options: Parameters<typeof createLiveBroker>[2] = {}) {
		broker = createLiveBroker(storage, liveTopics, options)
		await broker.start()
		return broker
	}

	it('sends each change to a live stream once, in order, with its change id', async () => {
		await startBroker()
		const sink = recordingSink()
		await broker.subscribe(sink, broker.lastId, articleStream)
		// Each write waits for its event: an event carries the article as it is when the broker
		// reads it, so writes landing in one read would all (rightly) show the final state.
		const first = await saveArticle(storage, article('Wetlands'), 'published')
		await waitUntil(() => articleEvents(sink.text).length >= 1)
		await saveArticle(storage, { ...article('Wetlands'), summary: 'Updated' }, 'published')
		await waitUntil(() => articleEvents(sink.text).length >= 2)
		await unpublishArticle(storage, 'wetlands')
		await waitUntil(() => articleEvents(sink.text).length >= 3)
		// Give the SQLite poller a chance to wake the broker again: nothing may be sent twice.
		await new Promise((resolve) => setTimeout(resolve, 400))
		const events = articleEvents(sink.text)
		expect(events.map((event) => event.kind)).toEqual(['added', 'modified', 'removed'])
		expect(events.map((event) => event.changeId)).toEqual(
			[...events.map((event) => event.changeId)].sort((a, b) => a - b),
		)
		expect(first.ok && events[0]?.kind === 'added' && events[0].article.title).toBe('Wetlands')
		expect(events[1]?.kind === 'modified' && events[1].article.summary).toBe('Updated')
	})

	it('replays what a returning client missed, from memory or from the table, then goes live', async () => {
		await startBroker({ ringSize: 2 })
		const start = broker.lastId
		for (const title of ['One', 'Two', 'Three', 'Four'])
			await saveArticle(storage, article(title), 'published')
		await waitUntil(() => broker.lastId >= start + 4)

		const fromMemory = recordingSink()
		await broker.subscribe(fromMemory, start + 2, articleStream)
		const fromTable = recordingSink()
		await broker.subscribe(fromTable, start, articleStream)
		await saveArticle(storage, article('Five'), 'published')
		await waitUntil(
			() =>
				articleEvents(fromTable.text).length === 5 && articleEvents(fromMemory.text).length === 3,
		)

		const titles = (text: string) =>
			articleEvents(text).map((event) => (event.kind === 'removed' ? '-' : event.article.title))
		expect(titles(fromMemory.text)).toEqual(['Three', 'Four', 'Five'])
		expect(titles(fromTable.text)).toEqual(['One', 'Two', 'Three', 'Four', 'Five'])
	})

	it('tells a client to start over when its position was pruned or is unknown', async () => {
		await startBroker()
		for (const title of ['One', 'Two', 'Three'])
			await saveArticle(storage, article(title), 'published')
		await storage.changes.prune(1)
		await waitUntil(() => broker.lastId === 3)

		for (const since of [0, 999]) {
			const sink = recordingSink()
			await broker.subscribe(sink, since, articleStream)
			const events = parseSse(sink.text).events
			expect(events).toEqual([{ id: String(broker.lastId), event: 'reset', data: '{}' }])
		}
	})

	it('replays from the table as removed any article that is no longer public', async () => {
		await saveArticle(storage, article('Secret plans', 'Text that must stay private.'), 'published')
		await unpublishArticle(storage, 'secret-plans')
		await saveArticle(storage, article('Secret plans', 'Edited while unpublished.'), 'draft')
		// Started after the changes, so a client from position 0 is served from the table.
		await startBroker()
		const sink = recordingSink()
		await broker.subscribe(sink, 0, articleStream)
		expect(sink.text).not.toContain('Secret plans')
		expect(articleEvents(sink.text).map((event) => event.kind)).toEqual(['removed', 'removed'])
	})

	it('drops a stream that cannot take more, without disturbing the others', async () => {
		await startBroker()
		const stuck = recordingSink({ failAfter: 1 })
		const healthy = recordingSink()
		await broker.subscribe(stuck, broker.lastId, articleStream)
		await broker.subscribe(healthy, broker.lastId, articleStream)
		expect(broker.size).toBe(2)
		for (const title of ['One', 'Two', 'Three'])
			await saveArticle(storage, article(title), 'published')
		await waitUntil(() => articleEvents(healthy.text).length === 3)
		expect(broker.size).toBe(1)
		expect(articleEvents(stuck.text)).toHaveLength(1)
		// What the metrics report: the stream dropped is no longer counted.
		for (const topic of articleStream) expect(broker.topicCounts().get(topic)).toBe(1)
	})

	it('keeps idle streams alive with heartbeats and ends them all on close', async () => {
		await startBroker({ heartbeatMs: 20 })
		const sink = recordingSink()
		const unsubscribe = await broker.subscribe(sink, broker.lastId, articleStream)
		await waitUntil(() => parseSse(sink.text).comments.includes('keep-alive'))
		const other = recordingSink()
		await broker.subscribe(other, broker.lastId, articleStream)
		unsubscribe()
		// Unsubscribing twice (a closed socket, then the handler's own clean-up) counts once.
		unsubscribe()
		expect(broker.size).toBe(1)
		for (const topic of articleStream) expect(broker.topicCounts().get(topic)).toBe(1)
		broker.close()
		expect(other.ended).toBe(true)
		expect(broker.size).toBe(0)
		expect(broker.topicCounts().size).toBe(0)
	})
})
