// The inbox's feature functions: reply links, list rows, opening and the actions, on both databases.
import { describe, expect, it } from 'vitest'
import type { NewContactMessage } from '#storage/port/contact.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import {
	applyInboxAction,
	doneMessage,
	listInbox,
	openMessage,
	parseMessageId,
	previewOf,
	replyHref,
} from './inbox.server.ts'

describe('reply links', () => {
	it('prefills "Re: subject", percent-encoding every character that means something in a URL', () => {
		expect(replyHref({ email: 'ana@example.org', subject: 'Tides & dunes? #3 100%' })).toBe(
			'mailto:ana@example.org?subject=Re%3A%20Tides%20%26%20dunes%3F%20%233%20100%25',
		)
	})

	it('keeps a plus in the address as itself, and encodes letters beyond ASCII', () => {
		expect(replyHref({ email: 'ana+marsh@example.org', subject: 'Zoë’s café' })).toBe(
			`mailto:ana%2Bmarsh@example.org?subject=${encodeURIComponent('Re: Zoë’s café')}`,
		)
	})

	it('does not say Re: twice, and gives an empty subject words of its own', () => {
		expect(replyHref({ email: 'a@example.org', subject: 'RE: Tides' })).toBe(
			'mailto:a@example.org?subject=RE%3A%20Tides',
		)
		expect(replyHref({ email: 'a@example.org', subject: '' })).toBe(
			'mailto:a@example.org?subject=Re%3A%20your%20message',
		)
	})

	it('turns line breaks in a subject into spaces, so no header can be added', () => {
		const href = replyHref({ email: 'a@example.org', subject: 'Hi\r\nBcc: all@example.org' })
		expect(href).toBe('mailto:a@example.org?subject=Re%3A%20Hi%20Bcc%3A%20all%40example.org')
		expect(href).not.toMatch(/%0[AD]/i)
	})

	it('gives no link for an address that could add recipients or parameters', () => {
		for (const email of [
			'a@example.org,b@example.org',
			'a@example.org?cc=b@example.org',
			'a b@example.org',
			'not-an-address',
			'a@example.org&body=x',
		])
			expect(replyHref({ email, subject: 'x' }), email).toBeNull()
	})
})

describe('list rows and ids', () => {
	it('previews the first words on one line and cuts at a word', () => {
		expect(previewOf('Line one\n\nline   two')).toBe('Line one line two')
		const long = `${'word '.repeat(40)}end`
		const preview = previewOf(long, 30)
		expect(preview.endsWith('…')).toBe(true)
		expect(preview.length).toBeLessThanOrEqual(31)
		expect(preview).not.toMatch(/wor…$/)
	})

	it('takes only positive whole numbers as message ids', () => {
		expect(parseMessageId('12')).toBe(12)
		for (const raw of ['0', '-1', '1.5', 'abc', '', undefined, '1e3', '9'.repeat(20)])
			expect(parseMessageId(raw), String(raw)).toBeNull()
	})

	it('shows a notice only for the words it knows', () => {
		expect(doneMessage('delete')).toBe('The message was deleted.')
		expect(doneMessage('<script>')).toBeNull()
		expect(doneMessage('toString')).toBeNull()
	})
})

let counter = 0
function newMessage(overrides: Partial<NewContactMessage> = {}): NewContactMessage {
	counter++
	return {
		idempotencyKey: `inbox-${counter}-${Math.random()}`,
		name: `Visitor ${counter}`,
		email: `visitor${counter}@example.org`,
		subject: `Subject ${counter}`,
		message: `Message number ${counter}.`,
		...overrides,
	}
}

describe.each(databases)('the inbox on $name', ({ create }) => {
	let storage: Storage

	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	const add = async (overrides: Partial<NewContactMessage> = {}) =>
		(await storage.messages.create(newMessage(overrides), [])).message

	it('lists 20 a page, newest first, with the unread count, and reads bad parameters as defaults', async () => {
		for (let n = 0; n < 23; n++) await add()
		const first = await listInbox(storage, { page: 'x', box: 'nonsense' })
		expect(first).toMatchObject({ total: 23, page: 1, pages: 2, box: 'inbox', unread: 23 })
		expect(first.items).toHaveLength(20)
		const second = await listInbox(storage, { page: '2' })
		expect(second.items).toHaveLength(3)
		expect(first.items[0]?.id).toBeGreaterThan(second.items[0]?.id ?? Infinity)
		expect(first.items[0]).not.toHaveProperty('message')
	})

	it('marks a message read when it is opened, and answers undefined for none', async () => {
		const message = await add({ subject: 'Reedbeds' })
		const opened = await openMessage(storage, message.id)
		expect(opened?.readAt).not.toBeNull()
		expect(opened?.replyHref).toBe(`mailto:${message.email}?subject=Re%3A%20Reedbeds`)
		expect((await storage.messages.get(message.id))?.readAt).not.toBeNull()
		expect(await storage.messages.unreadCount()).toBe(0)
		expect(await openMessage(storage, message.id + 1000)).toBeUndefined()
	})

	it('marks unread, archives, brings back and deletes, saying where the message was', async () => {
		const { id } = await add()
		expect(await applyInboxAction(storage, id, { intent: 'read' })).toMatchObject({ ok: true })
		expect(await applyInboxAction(storage, id, { intent: 'unread' })).toMatchObject({
			ok: true,
			box: 'inbox',
		})
		expect((await storage.messages.get(id))?.readAt).toBeNull()
		await applyInboxAction(storage, id, { intent: 'archive' })
		expect((await listInbox(storage, { box: 'archived' })).items.map((item) => item.id)).toEqual([
			id,
		])
		// Archived messages leave the unread count, as they leave the inbox.
		expect(await storage.messages.unreadCount()).toBe(0)
		expect(await applyInboxAction(storage, id, { intent: 'archive' })).toMatchObject({
			ok: true,
			box: 'archived',
		})
		await applyInboxAction(storage, id, { intent: 'unarchive' })
		expect((await listInbox(storage, {})).items.map((item) => item.id)).toEqual([id])
		expect(await applyInboxAction(storage, id, { intent: 'delete' })).toMatchObject({
			ok: true,
			message: 'The message was deleted.',
		})
		expect(await storage.messages.get(id)).toBeUndefined()
		expect(await applyInboxAction(storage, id, { intent: 'read' })).toEqual({
			ok: false,
			status: 404,
			message: 'This message no longer exists: someone may have deleted it.',
		})
	})

	it('refuses an unknown intent with words for the user, changing nothing', async () => {
		const { id } = await add()
		const result = await applyInboxAction(storage, id, { intent: 'publish' })
		expect(result).toEqual({
			ok: false,
			status: 400,
			message: 'Choose to mark the message read or unread, archive it, or delete it.',
		})
		expect(await storage.messages.get(id)).toBeDefined()
	})

	it('searches by sender and by text', async () => {
		await add({ name: 'Ines Duarte', email: 'ines@coast.example', message: 'About eelgrass.' })
		await add({ name: 'Tom Berg', message: 'The heron colony is back.' })
		const names = async (q: string) =>
			(await listInbox(storage, { q })).items.map((item) => item.name)
		expect(await names('duarte')).toEqual(['Ines Duarte'])
		expect(await names('coast.example')).toEqual(['Ines Duarte'])
		expect(await names('HERON')).toEqual(['Tom Berg'])
		expect(await names('nothing like it')).toEqual([])
	})
})
