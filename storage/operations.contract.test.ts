// The monitoring part of the storage contract (decision 035): how much each worker's queue holds
// and how long its oldest item has waited, as its own due index counts them.
import { describe, expect, it } from 'vitest'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

describe.each(databases)('operations contract: $name', ({ name, create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	it('counts each queue and its oldest wait; sent and abandoned mail no longer count', async () => {
		const empty = await storage.operations.queues(new Date())
		expect(empty.map((queue) => queue.queue).sort()).toEqual([
			'images',
			'mail',
			'newsletter',
			'newsletter-sends',
			'push',
			'webhooks',
		])
		expect(empty.every((queue) => queue.waiting === 0 && queue.oldestSeconds === 0)).toBe(true)

		const mail = (to: string) => ({
			kind: 'contact-notice',
			recipient: to,
			subject: 'A message',
			textBody: 'Text',
			replyTo: null,
		})
		// Queued now (the outbox stamps them), looked at a minute and a half later.
		const queued = Date.now()
		await storage.outbox.enqueue([
			mail('a@example.org'),
			mail('b@example.org'),
			mail('c@example.org'),
		])
		const later = new Date(queued + 90_000)
		const [first, second] = await storage.outbox.claimDue(new Date(queued + 1_000), 60_000, 2)
		await storage.outbox.markSent(first?.id ?? 0, later)
		await storage.outbox.abandon(second?.id ?? 0, 'refused', later)
		const found = (await storage.operations.queues(later)).find((queue) => queue.queue === 'mail')
		expect(found?.waiting).toBe(1)
		expect(found?.oldestSeconds).toBeGreaterThan(88)
		expect(found?.oldestSeconds).toBeLessThanOrEqual(90)
	})

	it('reports the connection pool on PostgreSQL only', async () => {
		const pool = storage.operations.pool()
		if (name === 'sqlite') expect(pool).toBeNull()
		else expect(pool).toMatchObject({ max: expect.any(Number), waiting: 0 })
	})
})
