// Newsletter subscribers, for both databases: asked, confirmed, their preferences, unsubscribed,
// deleted without a trace but the anonymous counts of the mails they had.
import { type Kysely, sql, type Transaction } from 'kysely'
import type {
	NewsletterRepository,
	Subscriber,
	SubscriberSource,
	SubscriberStatus,
} from '../port/newsletter.ts'
import type { Dialect } from '../port/storage.ts'
import { likePattern } from './like-pattern.ts'
import { toIso, toIsoOrNull } from './rows.ts'
import type { Database } from './schema.ts'
import { queueWebhookEvent } from './webhook-events.ts'

export type NewsletterSubscribers = Pick<
	NewsletterRepository,
	| 'subscribe'
	| 'find'
	| 'findByEmail'
	| 'confirm'
	| 'setPreferences'
	| 'unsubscribe'
	| 'remove'
	| 'list'
	| 'all'
	| 'countsByStatus'
	| 'importMany'
	| 'deleteUnconfirmed'
>

type Db = Kysely<Database> | Transaction<Database>

export const subscriberStatuses: SubscriberStatus[] = [
	'pending',
	'confirmed',
	'unsubscribed',
	'suspended',
]

function toSubscriber(row: Record<string, unknown>, tagIds: number[]): Subscriber {
	return {
		id: Number(row.id),
		email: String(row.email),
		status: row.status as Subscriber['status'],
		cadence: row.cadence as Subscriber['cadence'],
		source: row.source as SubscriberSource,
		consentAt: toIsoOrNull(row.consent_at),
		createdAt: toIso(row.created_at),
		changedAt: toIso(row.changed_at),
		failures: Number(row.failures),
		tagIds,
	}
}

/** The rows with the tags each follows, in one more query. */
async function withTags(db: Db, rows: Record<string, unknown>[]): Promise<Subscriber[]> {
	if (rows.length === 0) return []
	const ids = rows.map((row) => Number(row.id))
	const links = await db
		.selectFrom('subscriber_tags')
		.select(['subscriber_id', 'tag_id'])
		.where('subscriber_id', 'in', ids)
		.orderBy('tag_id')
		.execute()
	const tags = new Map<number, number[]>()
	for (const link of links) {
		const list = tags.get(Number(link.subscriber_id)) ?? []
		list.push(Number(link.tag_id))
		tags.set(Number(link.subscriber_id), list)
	}
	return rows.map((row) => toSubscriber(row, tags.get(Number(row.id)) ?? []))
}

async function one(db: Db, row: Record<string, unknown> | undefined) {
	return row ? (await withTags(db, [row]))[0] : undefined
}

/** Cancels what has not gone out to these subscribers. */
export async function cancelSubscriberMails(trx: Db, ids: number[], now: string) {
	if (ids.length === 0) return
	await trx
		.updateTable('newsletter_deliveries')
		.set({ state: 'cancelled', finished_at: now, lease_until: null })
		.where('subscriber_id', 'in', ids)
		.where('state', '=', 'pending')
		.execute()
}

/** The confirmation mails sent to these addresses: the address is in them, so they go too. */
async function forgetConfirmations(trx: Db, emails: string[]) {
	for (let i = 0; i < emails.length; i += 500)
		await trx
			.deleteFrom('mail_outbox')
			.where('kind', '=', 'newsletter-confirmation')
			.where('recipient', 'in', emails.slice(i, i + 500))
			.execute()
}

/** A subscriber in webhook events: no failures count, the tags as ids. */
function subscriberEventData(subscriber: Subscriber) {
	const { id, email, cadence, source, consentAt, createdAt, tagIds } = subscriber
	return { id, email, cadence, source, confirmedAt: consentAt, createdAt, tagIds }
}

export function newsletterSubscribers(
	db: Kysely<Database>,
	dialect: Dialect,
): NewsletterSubscribers {
	const byId = (trx: Db, id: number) =>
		trx.selectFrom('subscribers').selectAll().where('id', '=', id).executeTakeFirst()

	return {
		async subscribe(email, source, now) {
			const at = now.toISOString()
			const address = email.toLowerCase()
			return db.transaction().execute(async (trx) => {
				const inserted = await trx
					.insertInto('subscribers')
					.values({ email: address, source, created_at: at, changed_at: at })
					.onConflict((oc) => oc.column('email').doNothing())
					.returningAll()
					.executeTakeFirst()
				if (inserted) return { subscriber: toSubscriber(inserted, []), created: true }
				// Asking again after leaving (or being suspended) starts over: confirm first.
				await trx
					.updateTable('subscribers')
					.set({ status: 'pending', changed_at: at, failures: 0 })
					.where('email', '=', address)
					.where('status', 'in', ['unsubscribed', 'suspended'])
					.execute()
				const row = await trx
					.selectFrom('subscribers')
					.selectAll()
					.where('email', '=', address)
					.executeTakeFirstOrThrow()
				return { subscriber: (await one(trx, row)) as Subscriber, created: false }
			})
		},
		async find(id) {
			return one(db, await byId(db, id))
		},
		async findByEmail(email) {
			const row = await db
				.selectFrom('subscribers')
				.selectAll()
				.where('email', '=', email.toLowerCase())
				.executeTakeFirst()
			return one(db, row)
		},
		async confirm(id, now) {
			const at = now.toISOString()
			return db.transaction().execute(async (trx) => {
				const confirmed = await trx
					.updateTable('subscribers')
					.set({ status: 'confirmed', consent_at: at, changed_at: at })
					.where('id', '=', id)
					.where('status', '=', 'pending')
					.returningAll()
					.executeTakeFirst()
				const subscriber = await one(trx, confirmed ?? (await byId(trx, id)))
				// A reader who confirmed is a subscriber now: the webhook event, in this transaction.
				if (confirmed && subscriber)
					await queueWebhookEvent(
						trx,
						dialect,
						'subscriber.added',
						subscriberEventData(subscriber),
						at,
					)
				return subscriber
			})
		},
		async setPreferences(id, { cadence, tagIds }, now) {
			return db.transaction().execute(async (trx) => {
				const row = await trx
					.updateTable('subscribers')
					.set({ cadence, changed_at: now.toISOString() })
					.where('id', '=', id)
					.returningAll()
					.executeTakeFirst()
				if (!row) return undefined
				await trx.deleteFrom('subscriber_tags').where('subscriber_id', '=', id).execute()
				const known = tagIds.length
					? await trx.selectFrom('tags').select('id').where('id', 'in', tagIds).execute()
					: []
				if (known.length > 0)
					await trx
						.insertInto('subscriber_tags')
						.values(known.map((tag) => ({ subscriber_id: id, tag_id: Number(tag.id) })))
						.execute()
				return one(trx, row)
			})
		},
		async unsubscribe(id, now) {
			const at = now.toISOString()
			return db.transaction().execute(async (trx) => {
				await trx
					.updateTable('subscribers')
					.set({ status: 'unsubscribed', changed_at: at })
					.where('id', '=', id)
					.where('status', '<>', 'unsubscribed')
					.execute()
				await cancelSubscriberMails(trx, [id], at)
				return one(trx, await byId(trx, id))
			})
		},
		async remove(id, now) {
			return db.transaction().execute(async (trx) => {
				const row = await byId(trx, id)
				if (!row) return false
				await cancelSubscriberMails(trx, [id], now.toISOString())
				// Its deliveries keep a null subscriber: counted in their mails' figures, no one's.
				await trx.deleteFrom('subscribers').where('id', '=', id).execute()
				await forgetConfirmations(trx, [row.email])
				return true
			})
		},
		async list({ search, status, limit, offset }) {
			let query = db.selectFrom('subscribers')
			if (search?.trim())
				query = query.where(sql<boolean>`email LIKE ${likePattern(search.trim())} ESCAPE '\\'`)
			if (status) query = query.where('status', '=', status)
			const [rows, count] = await Promise.all([
				query
					.selectAll()
					.orderBy('created_at', 'desc')
					.orderBy('id', 'desc')
					.limit(limit)
					.offset(offset)
					.execute(),
				query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
			])
			return { subscribers: await withTags(db, rows), total: Number(count?.n ?? 0) }
		},
		async all() {
			const rows = await db.selectFrom('subscribers').selectAll().orderBy('id').execute()
			return withTags(db, rows)
		},
		async countsByStatus() {
			const rows = await db
				.selectFrom('subscribers')
				.select((eb) => ['status', eb.fn.countAll().as('n')])
				.groupBy('status')
				.execute()
			const counts = Object.fromEntries(subscriberStatuses.map((status) => [status, 0])) as Record<
				SubscriberStatus,
				number
			>
			for (const row of rows) counts[row.status as SubscriberStatus] = Number(row.n)
			return counts
		},
		async importMany(rows, consentAt, now) {
			const at = now.toISOString()
			const consent = consentAt.toISOString()
			const unique = new Map<string, boolean>()
			for (const row of rows) {
				const email = row.email.toLowerCase()
				unique.set(email, (unique.get(email) ?? false) || row.confirmed)
			}
			let added = 0
			const toConfirm: Subscriber[] = []
			const entries = [...unique]
			// Batches keep each statement under SQLite's parameter limit.
			for (let i = 0; i < entries.length; i += 500) {
				const batch = entries.slice(i, i + 500)
				const inserted = await db
					.insertInto('subscribers')
					.values(
						batch.map(([email, confirmed]) => ({
							email,
							source: 'import',
							status: confirmed ? 'confirmed' : 'pending',
							consent_at: confirmed ? consent : null,
							created_at: at,
							changed_at: at,
						})),
					)
					.onConflict((oc) => oc.column('email').doNothing())
					.returningAll()
					.execute()
				added += inserted.length
				for (const row of inserted)
					if (row.status === 'pending') toConfirm.push(toSubscriber(row, []))
			}
			return { added, existing: entries.length - added, toConfirm }
		},
		async deleteUnconfirmed(before) {
			return db.transaction().execute(async (trx) => {
				const gone = await trx
					.deleteFrom('subscribers')
					.where('status', '=', 'pending')
					.where('changed_at', '<', before.toISOString())
					.returning('email')
					.execute()
				await forgetConfirmations(
					trx,
					gone.map((row) => row.email),
				)
				return gone.length
			})
		},
	}
}
