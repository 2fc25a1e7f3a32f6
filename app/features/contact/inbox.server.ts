// The inbox in the editor area: listing, opening and tidying the messages sent through the
// contact form. Routes call these; nothing here knows about HTTP beyond the words it answers.
import { z } from 'zod'
import { parseQuery } from '#app/features/search/search-query.ts'
import { firstWords } from '#app/lib/first-words.ts'
import type { ContactMessage } from '#storage/port/contact.ts'
import type { Storage } from '#storage/port/storage.ts'

export const inboxPageSize = 20
const previewLength = 120

export type InboxBox = 'inbox' | 'archived'

/** What a list row shows: never the whole text, so a page of rows stays small. */
export interface InboxItem {
	id: number
	name: string
	email: string
	subject: string
	preview: string
	createdAt: string
	unread: boolean
}

export interface InboxMessage extends ContactMessage {
	/** A mailto: link answering the sender, or null when the address cannot be used safely. */
	replyHref: string | null
}

export const inboxListSchema = z.object({
	q: z.string().trim().max(100).catch(''),
	box: z.enum(['inbox', 'archived']).catch('inbox'),
	page: z.coerce.number().int().min(1).max(10_000).catch(1),
})

export const inboxIntents = ['read', 'unread', 'archive', 'unarchive', 'delete'] as const
export type InboxIntent = (typeof inboxIntents)[number]

export const inboxIntentSchema = z.object({
	intent: z.enum(inboxIntents, {
		error: 'Choose to mark the message read or unread, archive it, or delete it.',
	}),
})

/** Ids come from the address; anything but a positive whole number names no message. */
export function parseMessageId(raw: string | undefined): number | null {
	if (!raw || !/^\d{1,15}$/.test(raw)) return null
	const id = Number(raw)
	return Number.isSafeInteger(id) && id > 0 ? id : null
}

/** The first words of a message, on one line, for a list row without a subject. */
export function previewOf(text: string, length = previewLength): string {
	return firstWords(text, length)
}

// Deliberately stricter than what mail allows: an address with a comma, a question mark or
// spaces could add recipients or headers to the reply, so such a sender gets no reply link.
const plainAddress = /^[A-Za-z0-9.!#$%&'*+/=^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/

/** A mailto: link to the sender with "Re: <subject>" filled in, every part percent-encoded. */
export function replyHref(message: Pick<ContactMessage, 'email' | 'subject'>): string | null {
	const address = message.email.trim()
	if (address.length > 254 || !plainAddress.test(address)) return null
	// Control characters (line breaks) in a subject could start new headers in a mail client.
	const subject = message.subject.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim()
	const reply = !subject ? 'Re: your message' : /^re:/i.test(subject) ? subject : `Re: ${subject}`
	const [local = '', domain = ''] = address.split('@')
	return `mailto:${encodeURIComponent(local)}@${encodeURIComponent(domain)}?subject=${encodeURIComponent(reply)}`
}

function toItem(message: ContactMessage): InboxItem {
	return {
		id: message.id,
		name: message.name,
		email: message.email,
		subject: message.subject,
		preview: previewOf(message.message),
		createdAt: message.createdAt,
		unread: message.readAt === null,
	}
}

export async function listInbox(storage: Storage, params: Record<string, string>) {
	const { q, box, page } = inboxListSchema.parse(params)
	// Words to look for, through the search index; signs alone look for nothing (an empty list).
	const query = q ? parseQuery(q) : undefined
	const [{ items, total }, unread] = await Promise.all([
		query === null
			? { items: [], total: 0 }
			: storage.messages.list({
					query,
					box,
					limit: inboxPageSize,
					offset: (page - 1) * inboxPageSize,
				}),
		storage.messages.unreadCount(),
	])
	return {
		items: items.map(toItem),
		total,
		page,
		pages: Math.max(1, Math.ceil(total / inboxPageSize)),
		query: q,
		box,
		unread,
	}
}

/** The message, marked read now that someone has opened it; undefined when there is none. */
export async function openMessage(storage: Storage, id: number): Promise<InboxMessage | undefined> {
	const message = await storage.messages.get(id)
	if (!message) return undefined
	let readAt = message.readAt
	if (readAt === null) {
		await storage.messages.setRead(id, true)
		readAt = (await storage.messages.get(id))?.readAt ?? new Date().toISOString()
	}
	return { ...message, readAt, replyHref: replyHref(message) }
}

export type InboxActionResult =
	/** `box`: where the message was when asked, so the page can go back to that list. */
	| { ok: true; intent: InboxIntent; message: string; box: InboxBox }
	| { ok: false; status: 400 | 404; message: string }

const done: Record<InboxIntent, string> = {
	read: 'Marked as read.',
	unread: 'Marked as unread.',
	archive: 'Archived. You will find it under Archived.',
	unarchive: 'Moved back to the inbox.',
	delete: 'The message was deleted.',
}

/** What a done= query parameter may say after an action redirected back to the list. */
export function doneMessage(intent: string | null): string | null {
	return intent && Object.hasOwn(done, intent) ? done[intent as InboxIntent] : null
}

const gone = 'This message no longer exists: someone may have deleted it.'

export async function applyInboxAction(
	storage: Storage,
	id: number,
	raw: Record<string, unknown>,
): Promise<InboxActionResult> {
	const parsed = inboxIntentSchema.safeParse(raw)
	if (!parsed.success)
		return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? 'Invalid.' }
	const { intent } = parsed.data
	const message = await storage.messages.get(id)
	if (!message) return { ok: false, status: 404, message: gone }
	// Asking for what already holds (archiving an archived message) is not an error: two editors
	// may well tidy the same message at once.
	if (intent === 'read' || intent === 'unread')
		await storage.messages.setRead(id, intent === 'read')
	else if (intent === 'archive' || intent === 'unarchive')
		await storage.messages.setArchived(id, intent === 'archive')
	else if (!(await storage.messages.delete(id))) return { ok: false, status: 404, message: gone }
	const box = message.archivedAt === null ? 'inbox' : 'archived'
	return { ok: true, intent, message: done[intent], box }
}
