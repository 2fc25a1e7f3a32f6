// Contact messages and the mail outbox, written once against Kysely for both adapters.
import { type Kysely, sql, type Transaction } from 'kysely'
import type { Change } from '../port/changes.ts'
import type { MessageRepository } from '../port/contact.ts'
import type { OutboxRepository, OutgoingMail } from '../port/mail.ts'
import type { Dialect } from '../port/storage.ts'
import { appendChange, type ChangeHooks } from './change-repository.ts'
import { leaseDue } from './lease.ts'
import { toMessage, toQueuedMail } from './rows.ts'
import type { Database } from './schema.ts'
import { matchingIds } from './search-repository.ts'
import { webhookEvent } from './webhook-events.ts'

/** A message's columns: not PostgreSQL's search tsvector (migration 0019), which no one reads. */
const messageColumns = [
	'id',
	'idempotency_key',
	'name',
	'email',
	'subject',
	'message',
	'created_at',
	'read_at',
	'archived_at',
] as const

/** The feed topic of the inbox: open inbox pages learn of new and changed messages from it. */
export const messagesTopic = 'messages'

function mailRows(mails: OutgoingMail[], now: string) {
	return mails.map((mail) => ({
		kind: mail.kind,
		recipient: mail.recipient,
		subject: mail.subject,
		text_body: mail.textBody,
		html_body: mail.htmlBody ?? null,
		reply_to: mail.replyTo,
		created_at: now,
		next_attempt_at: now,
	}))
}

export function createMessageRepository(
	db: Kysely<Database>,
	dialect: Dialect,
	hooks: ChangeHooks,
): MessageRepository {
	/** Runs `change` in a transaction that also records it on the feed when it touched a row. */
	async function changed(
		id: number,
		kind: 'modified' | 'removed',
		change: (trx: Transaction<Database>) => Promise<bigint>,
	): Promise<boolean> {
		const recorded = await db.transaction().execute(async (trx) => {
			if ((await change(trx)) === 0n) return null
			return appendChange(trx, hooks, messagesTopic, String(id), kind)
		})
		if (recorded) hooks.committed(recorded)
		return recorded !== null
	}

	return {
		async create(message, mails) {
			const outcome = await db.transaction().execute(async (trx) => {
				const now = new Date().toISOString()
				const inserted = await trx
					.insertInto('contact_messages')
					.values({
						idempotency_key: message.idempotencyKey,
						name: message.name,
						email: message.email,
						subject: message.subject,
						message: message.message,
						created_at: now,
					})
					.onConflict((oc) => oc.column('idempotency_key').doNothing())
					.returning(messageColumns)
					.executeTakeFirst()
				if (!inserted) {
					const first = await trx
						.selectFrom('contact_messages')
						.select(messageColumns)
						.where('idempotency_key', '=', message.idempotencyKey)
						.executeTakeFirstOrThrow()
					return { message: toMessage(first), created: false, change: null as Change | null }
				}
				if (mails.length > 0)
					await trx.insertInto('mail_outbox').values(mailRows(mails, now)).execute()
				const saved = toMessage(inserted)
				const { readAt: _, archivedAt: __, createdAt, ...data } = saved
				const change = await appendChange(trx, hooks, messagesTopic, String(inserted.id), 'added', [
					webhookEvent(trx, dialect, 'contact.received', { ...data, receivedAt: createdAt }, now),
				])
				return { message: saved, created: true, change }
			})
			if (outcome.change) hooks.committed(outcome.change)
			return { message: outcome.message, created: outcome.created }
		},
		async list({ query, box, limit, offset }) {
			let base = db
				.selectFrom('contact_messages')
				.where('archived_at', box === 'archived' ? 'is not' : 'is', null)
			if (query) base = base.where(sql<boolean>`id IN ${matchingIds(dialect, query, 'messages')}`)
			const [rows, total] = await Promise.all([
				base
					.select(messageColumns)
					.orderBy('created_at', 'desc')
					.orderBy('id', 'desc')
					.limit(limit)
					.offset(offset)
					.execute(),
				base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
			])
			return { items: rows.map(toMessage), total: Number(total.n) }
		},
		async get(id) {
			const row = await db
				.selectFrom('contact_messages')
				.select(messageColumns)
				.where('id', '=', id)
				.executeTakeFirst()
			return row && toMessage(row)
		},
		setRead(id, read) {
			return changed(id, 'modified', async (trx) => {
				const result = await trx
					.updateTable('contact_messages')
					.set({ read_at: read ? new Date().toISOString() : null })
					.where('id', '=', id)
					.where('read_at', read ? 'is' : 'is not', null)
					.executeTakeFirst()
				return result.numUpdatedRows
			})
		},
		setArchived(id, archived) {
			return changed(id, 'modified', async (trx) => {
				const result = await trx
					.updateTable('contact_messages')
					.set({ archived_at: archived ? new Date().toISOString() : null })
					.where('id', '=', id)
					.where('archived_at', archived ? 'is' : 'is not', null)
					.executeTakeFirst()
				return result.numUpdatedRows
			})
		},
		delete(id) {
			return changed(id, 'removed', async (trx) => {
				const result = await trx
					.deleteFrom('contact_messages')
					.where('id', '=', id)
					.executeTakeFirst()
				return result.numDeletedRows
			})
		},
		async unreadCount() {
			const row = await db
				.selectFrom('contact_messages')
				.select((eb) => eb.fn.countAll().as('n'))
				.where('read_at', 'is', null)
				.where('archived_at', 'is', null)
				.executeTakeFirstOrThrow()
			return Number(row.n)
		},
		async deleteOlderThan(cutoff) {
			const result = await db
				.deleteFrom('contact_messages')
				.where('created_at', '<', cutoff.toISOString())
				.executeTakeFirst()
			return Number(result.numDeletedRows)
		},
	}
}

export function createOutboxRepository(db: Kysely<Database>, dialect: Dialect): OutboxRepository {
	return {
		async enqueue(mails) {
			if (mails.length === 0) return
			await db.insertInto('mail_outbox').values(mailRows(mails, new Date().toISOString())).execute()
		},
		async claimDue(now, leaseMs, limit) {
			return db.transaction().execute(async (trx) => {
				const ids = await leaseDue(
					trx,
					dialect,
					'mail_outbox',
					(eb) => eb.and([eb('sent_at', 'is', null), eb('abandoned_at', 'is', null)]),
					{ now, leaseMs, limit },
				)
				if (ids.length === 0) return []
				const rows = await trx
					.selectFrom('mail_outbox')
					.selectAll()
					.where('id', 'in', ids)
					.orderBy('id')
					.execute()
				return rows.map(toQueuedMail)
			})
		},
		async markSent(id, now) {
			await db
				.updateTable('mail_outbox')
				.set({ sent_at: now.toISOString(), lease_until: null, last_error: null })
				.where('id', '=', id)
				.execute()
		},
		async markFailed(id, error, nextAttemptAt) {
			await db
				.updateTable('mail_outbox')
				.set({
					last_error: error.slice(0, 1_000),
					next_attempt_at: nextAttemptAt.toISOString(),
					lease_until: null,
				})
				.where('id', '=', id)
				.execute()
		},
		async abandon(id, error, now) {
			await db
				.updateTable('mail_outbox')
				.set({
					last_error: error.slice(0, 1_000),
					abandoned_at: now.toISOString(),
					lease_until: null,
				})
				.where('id', '=', id)
				.execute()
		},
		async pending() {
			const rows = await db
				.selectFrom('mail_outbox')
				.selectAll()
				.where('sent_at', 'is', null)
				.where('abandoned_at', 'is', null)
				.orderBy('id')
				.execute()
			return rows.map(toQueuedMail)
		},
		async abandoned() {
			const rows = await db
				.selectFrom('mail_outbox')
				.selectAll()
				.where('abandoned_at', 'is not', null)
				.orderBy('id')
				.execute()
			return rows.map(toQueuedMail)
		},
	}
}
