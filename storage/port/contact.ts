// Readers' messages from the contact form.
import type { OutgoingMail } from './mail.ts'
import type { SearchQuery } from './search.ts'

export interface ContactMessage {
	id: number
	name: string
	email: string
	subject: string
	message: string
	createdAt: string
	readAt: string | null
	archivedAt: string | null
}

export interface NewContactMessage {
	/** From the form: the same key again (a double-click, a resubmission) stores nothing new. */
	idempotencyKey: string
	name: string
	email: string
	subject: string
	message: string
}

export interface MessageListOptions {
	/** Words looked for in the sender's name and address, the subject and the text (the index). */
	query?: SearchQuery
	box: 'inbox' | 'archived'
	limit: number
	offset: number
}

export interface MessageRepository {
	/**
	 * Stores the message, the mails announcing it and its change on the feed, in one transaction.
	 * A key seen before stores nothing and answers the first message with `created: false`.
	 */
	create(
		message: NewContactMessage,
		mails: OutgoingMail[],
	): Promise<{ message: ContactMessage; created: boolean }>
	list(options: MessageListOptions): Promise<{ items: ContactMessage[]; total: number }>
	get(id: number): Promise<ContactMessage | undefined>
	/** False when there is no such message. Each change goes on the feed (topic `messages`). */
	setRead(id: number, read: boolean): Promise<boolean>
	setArchived(id: number, archived: boolean): Promise<boolean>
	delete(id: number): Promise<boolean>
	/** Unread messages in the inbox (not archived). */
	unreadCount(): Promise<number>
	/** The retention job: deletes messages received before `cutoff`; returns how many. */
	deleteOlderThan(cutoff: Date): Promise<number>
}
