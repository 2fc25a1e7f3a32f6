// The contact part of the storage contract (migration 0004): messages stored once per form
// submission with their mail in the same transaction, the inbox's reads and changes, and an
// outbox whose mails are leased to one worker at a time, on both databases.

import { describe, expect, it } from 'vitest'
import { parseQuery } from '#app/features/search/search-query.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { NewContactMessage } from './port/contact.ts'
import type { OutgoingMail } from './port/mail.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

let counter = 0
function newMessage(overrides: Partial<NewContactMessage> = {}): NewContactMessage {
	counter++
	return {
		idempotencyKey: `key-${counter}-${Math.random()}`,
		name: `Visitor ${counter}`,
		email: `visitor${counter}@example.org`,
		subject: 'Wetlands',
		message: 'A message long enough to keep.',
		...overrides,
	}
}

const notification: OutgoingMail = {
	kind: 'contact-notification',
	recipient: 'team@example.org',
	subject: 'New message',
	textBody: 'Someone wrote.',
	replyTo: 'visitor@example.org',
}

describe.each(databases)('contact storage contract: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	it('stores a submission once per key, with its mail and its change, together', async () => {
		const message = newMessage()
		const before = await storage.changes.latestId()
		const first = await storage.messages.create(message, [notification])
		const again = await storage.messages.create({ ...message, message: 'A different text' }, [
			notification,
		])
		expect(first.created).toBe(true)
		expect(again).toEqual({ message: first.message, created: false })
		expect(first.message).toMatchObject({ name: message.name, readAt: null, archivedAt: null })
		expect(await storage.outbox.pending()).toHaveLength(1)
		const changes = await storage.changes.after(before, 10)
		expect(changes.map((change) => [change.topic, change.kind])).toEqual([['messages', 'added']])
	})

	it('stores each of many concurrent submissions of one key exactly once', async () => {
		const message = newMessage()
		const results = await Promise.all(
			Array.from({ length: 6 }, () => storage.messages.create(message, [notification])),
		)
		expect(results.filter((result) => result.created)).toHaveLength(1)
		expect((await storage.messages.list({ box: 'inbox', limit: 10, offset: 0 })).total).toBe(1)
		expect(await storage.outbox.pending()).toHaveLength(1)
	})

	it('lists, searches, reads, archives and deletes, counting the unread', async () => {
		const a = (
			await storage.messages.create(newMessage({ name: 'Ana', message: 'About 50% of peat' }), [])
		).message
		const b = (await storage.messages.create(newMessage({ email: 'bo@rivers.org' }), [])).message
		expect(await storage.messages.unreadCount()).toBe(2)
		const search = async (words: string) => {
			const query = parseQuery(words) ?? undefined
			return (await storage.messages.list({ box: 'inbox', query, limit: 10, offset: 0 })).items.map(
				(m) => m.id,
			)
		}
		// Through the index: any field, folded, a word's start, the words of an address.
		expect(await search('ANA')).toEqual([a.id])
		expect(await search('rivers.org')).toEqual([b.id])
		expect(await search('bo@rivers')).toEqual([b.id])
		expect(await search('50%')).toEqual([a.id])
		expect(await search('pea')).toEqual([a.id])
		expect(await search('péat')).toEqual([a.id])
		expect(await search('"of peat"')).toEqual([a.id])
		expect(await search('peat -ana')).toEqual([])
		expect(await search('5_%')).toEqual([])

		expect(await storage.messages.setRead(a.id, true)).toBe(true)
		expect(await storage.messages.setRead(a.id, true)).toBe(false)
		expect(await storage.messages.unreadCount()).toBe(1)
		expect(await storage.messages.setArchived(b.id, true)).toBe(true)
		expect(await storage.messages.unreadCount()).toBe(0)
		expect(
			(await storage.messages.list({ box: 'archived', limit: 10, offset: 0 })).items.map(
				(m) => m.id,
			),
		).toEqual([b.id])
		expect((await storage.messages.get(b.id))?.archivedAt).not.toBeNull()
		const before = await storage.changes.latestId()
		expect(await storage.messages.delete(a.id)).toBe(true)
		expect(await storage.messages.delete(a.id)).toBe(false)
		expect((await storage.changes.after(before, 5)).map((change) => change.kind)).toEqual([
			'removed',
		])
		expect(await storage.messages.get(a.id)).toBeUndefined()
		// A deleted message leaves the index with its row.
		expect(await search('ana')).toEqual([])
	})

	it('deletes messages older than the retention cutoff only', async () => {
		await storage.messages.create(newMessage(), [])
		expect(await storage.messages.deleteOlderThan(new Date(Date.now() - 60_000))).toBe(0)
		expect(await storage.messages.deleteOlderThan(new Date(Date.now() + 60_000))).toBe(1)
	})

	it('leases each due mail to one worker, retries it when due again, and takes back an expired lease', async () => {
		await storage.outbox.enqueue([
			notification,
			{ ...notification, recipient: 'other@example.org' },
		])
		const now = new Date()
		const second = database.dialect === 'postgres' ? database.open() : storage
		try {
			const [one, two] = await Promise.all([
				storage.outbox.claimDue(now, 60_000, 10),
				second.outbox.claimDue(now, 60_000, 10),
			])
			const claimed = [...(one ?? []), ...(two ?? [])]
			expect(claimed.map((mail) => mail.recipient).sort()).toEqual([
				'other@example.org',
				'team@example.org',
			])
			expect(claimed.every((mail) => mail.attempts === 1)).toBe(true)
		} finally {
			if (second !== storage) await second.close()
		}
		expect(await storage.outbox.claimDue(now, 60_000, 10)).toEqual([])

		const [first, other] = await storage.outbox.pending()
		if (!first || !other) throw new Error('missing mail')
		await storage.outbox.markFailed(first.id, '421 try later', new Date(now.getTime() + 5_000))
		await storage.outbox.markSent(other.id, now)
		expect(await storage.outbox.claimDue(now, 60_000, 10)).toEqual([])
		const retried = await storage.outbox.claimDue(new Date(now.getTime() + 5_000), 60_000, 10)
		expect(retried).toMatchObject([{ id: first.id, attempts: 2, lastError: '421 try later' }])
		// A worker that died: its lease runs out and the mail is taken again.
		const later = await storage.outbox.claimDue(new Date(now.getTime() + 70_000), 60_000, 10)
		expect(later.map((mail) => mail.id)).toEqual([first.id])
		expect((await storage.outbox.pending()).map((mail) => mail.id)).toEqual([first.id])
	})
	it('never takes a mail it gave up on again, and keeps it with its last error', async () => {
		await storage.outbox.enqueue([notification])
		const now = new Date()
		const [mail] = await storage.outbox.claimDue(now, 60_000, 10)
		if (!mail) throw new Error('missing mail')
		await storage.outbox.abandon(mail.id, '550 no such mailbox', now)
		expect(await storage.outbox.pending()).toEqual([])
		const later = new Date(now.getTime() + 24 * 60 * 60_000)
		expect(await storage.outbox.claimDue(later, 60_000, 10)).toEqual([])
		const [kept] = await storage.outbox.abandoned()
		expect(kept).toMatchObject({ id: mail.id, attempts: 1, lastError: '550 no such mailbox' })
		expect(kept?.sentAt).toBeNull()
		expect(Date.parse(kept?.abandonedAt ?? '')).toBe(now.getTime())
	})
})
