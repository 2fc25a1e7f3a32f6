// Newsletter digests and deliveries, for both databases: a digest made once per slot with its
// deliveries, deliveries leased to one worker at a time, their results (and the refusals that
// suspend an address) recorded, and each mail's figures counted.
import { type Kysely, sql } from 'kysely'
import type {
	ClaimedMailDelivery,
	Digest,
	MailDeliveryCounts,
	MailDeliveryState,
	MailFigures,
	NewsletterRepository,
} from '../port/newsletter.ts'
import type { Dialect } from '../port/storage.ts'
import { leaseDue } from './lease.ts'
import { digestTags, expandBatch, expandSends } from './newsletter-sends.ts'
import { followsOneOf } from './newsletter-shared.ts'
import { cancelSubscriberMails } from './newsletter-subscribers.ts'
import { toIso } from './rows.ts'
import type { Database } from './schema.ts'

export type NewsletterDeliveries = Pick<
	NewsletterRepository,
	| 'createDigest'
	| 'findDigest'
	| 'latestDigest'
	| 'claimDue'
	| 'writeDeliveries'
	| 'markSent'
	| 'retryLater'
	| 'markFailed'
	| 'markRefused'
	| 'figures'
	| 'figuresOfArticle'
>

const errorLength = 1_000
/** The most articles one digest carries (the newest of its week). */
const digestArticles = 50
const deliveryStates: MailDeliveryState[] = [
	'pending',
	'sent',
	'refused',
	'suspended',
	'failed',
	'cancelled',
]

const zeros = (): MailDeliveryCounts =>
	Object.fromEntries(deliveryStates.map((state) => [state, 0])) as MailDeliveryCounts

function toDigest(row: Record<string, unknown>): Digest {
	return {
		id: Number(row.id),
		slot: String(row.slot),
		periodStart: toIso(row.period_start),
		periodEnd: toIso(row.period_end),
		articleIds: (JSON.parse(String(row.article_ids)) as unknown[]).map(Number),
		createdAt: toIso(row.created_at),
	}
}

export function newsletterDeliveries(db: Kysely<Database>, dialect: Dialect): NewsletterDeliveries {
	/** Records a result over a pending delivery, or one cancelled while it was being sent. */
	const finish = (id: number, state: MailDeliveryState, error: string | null, now: Date) =>
		db
			.updateTable('newsletter_deliveries')
			.set({
				state,
				last_error: error?.slice(0, errorLength) ?? null,
				finished_at: now.toISOString(),
				lease_until: null,
			})
			.where('id', '=', id)
			.where('state', 'in', ['pending', 'cancelled'])
			.executeTakeFirst()

	return {
		async createDigest(slot, period, now) {
			const at = now.toISOString()
			return db.transaction().execute(async (trx) => {
				const articles = await trx
					.selectFrom('articles')
					.select('id')
					.where('status', '=', 'published')
					.where('kind', '=', 'article')
					.where('published_at', '>=', period.start.toISOString())
					.where('published_at', '<', period.end.toISOString())
					.orderBy('published_at', 'desc')
					.orderBy('id', 'desc')
					.limit(digestArticles)
					.execute()
				const articleIds = articles.map((row) => Number(row.id))
				// The slot is recorded even when empty, so the next digest's period starts after it.
				const made = await trx
					.insertInto('newsletter_digests')
					.values({
						slot,
						period_start: period.start.toISOString(),
						period_end: period.end.toISOString(),
						article_ids: JSON.stringify(articleIds),
						created_at: at,
					})
					.onConflict((oc) => oc.column('slot').doNothing())
					.returningAll()
					.executeTakeFirst()
				if (!made || articleIds.length === 0) return undefined
				const digest = toDigest(made)
				await trx
					.insertInto('newsletter_sends')
					.values({ digest_id: digest.id, created_at: at })
					.execute()
				// Who it goes to as things stand; the worker writes their deliveries (expandSends).
				const readers = await trx
					.selectFrom('subscribers')
					.select((eb) => eb.fn.countAll().as('n'))
					.where('status', '=', 'confirmed')
					.where('cadence', '=', 'digest')
					.where(followsOneOf(sql`0`, digestTags(articleIds)))
					.executeTakeFirst()
				return { digest, queued: Number(readers?.n ?? 0) }
			})
		},
		async findDigest(id) {
			const row = await db
				.selectFrom('newsletter_digests')
				.selectAll()
				.where('id', '=', id)
				.executeTakeFirst()
			return row && toDigest(row)
		},
		async latestDigest() {
			const row = await db
				.selectFrom('newsletter_digests')
				.selectAll()
				.orderBy('period_end', 'desc')
				.limit(1)
				.executeTakeFirst()
			return row && toDigest(row)
		},
		writeDeliveries: (limit) => expandSends(db, dialect, limit),
		async claimDue(now, leaseMs, limit) {
			// Deliveries of mails sent meanwhile are written first, a batch ahead of what is claimed.
			await expandSends(db, dialect, Math.max(limit * 10, expandBatch))
			return db.transaction().execute(async (trx) => {
				const ids = await leaseDue(
					trx,
					dialect,
					'newsletter_deliveries',
					(eb) => eb.and([eb('state', '=', 'pending'), eb('subscriber_id', 'is not', null)]),
					{ now, leaseMs, limit },
				)
				if (ids.length === 0) return []
				const rows = await trx
					.selectFrom('newsletter_deliveries as d')
					.innerJoin('subscribers as s', 's.id', 'd.subscriber_id')
					.leftJoin('newsletter_digests as g', 'g.id', 'd.digest_id')
					.select([
						'd.id',
						'd.attempts',
						'd.created_at',
						'd.article_id',
						's.id as subscriber_id',
						's.email',
						's.failures',
						'g.id as digest_id',
						'g.slot',
						'g.period_start',
						'g.period_end',
						'g.article_ids',
						'g.created_at as digest_created_at',
					])
					.where('d.id', 'in', ids)
					.orderBy('d.id')
					.execute()
				const subscriberIds = [...new Set(rows.map((row) => Number(row.subscriber_id)))]
				const follows = await trx
					.selectFrom('subscriber_tags')
					.select(['subscriber_id', 'tag_id'])
					.where('subscriber_id', 'in', subscriberIds)
					.execute()
				const followed = new Map<number, number[]>()
				for (const f of follows)
					followed.set(Number(f.subscriber_id), [
						...(followed.get(Number(f.subscriber_id)) ?? []),
						Number(f.tag_id),
					])
				const tagsOf = (id: number) => followed.get(id) ?? []
				return rows.map((row): ClaimedMailDelivery => {
					const subscriberId = Number(row.subscriber_id)
					return {
						id: Number(row.id),
						attempts: Number(row.attempts),
						createdAt: toIso(row.created_at),
						subscriber: {
							id: subscriberId,
							email: row.email,
							tagIds: tagsOf(subscriberId),
							failures: Number(row.failures),
						},
						mail:
							row.digest_id === null
								? { kind: 'article', articleId: Number(row.article_id) }
								: {
										kind: 'digest',
										digest: toDigest({
											id: row.digest_id,
											slot: row.slot,
											period_start: row.period_start,
											period_end: row.period_end,
											article_ids: row.article_ids,
											created_at: row.digest_created_at,
										}),
									},
					}
				})
			})
		},
		async markSent(id, now, hadFailures = true) {
			await finish(id, 'sent', null, now)
			if (!hadFailures) return
			// A mail that went through: earlier refusals were passing trouble.
			await db
				.updateTable('subscribers')
				.set({ failures: 0 })
				.where('failures', '>', 0)
				.where('id', '=', (eb) =>
					eb.selectFrom('newsletter_deliveries').select('subscriber_id').where('id', '=', id),
				)
				.execute()
		},
		async retryLater(id, error, nextAttemptAt) {
			await db
				.updateTable('newsletter_deliveries')
				.set({
					last_error: error.slice(0, errorLength),
					next_attempt_at: nextAttemptAt.toISOString(),
					lease_until: null,
				})
				.where('id', '=', id)
				.where('state', '=', 'pending')
				.execute()
		},
		async markFailed(id, error, now) {
			await finish(id, 'failed', error, now)
		},
		async markRefused(id, error, now, suspendAfter) {
			const at = now.toISOString()
			return db.transaction().execute(async (trx) => {
				const delivery = await trx
					.selectFrom('newsletter_deliveries')
					.select('subscriber_id')
					.where('id', '=', id)
					.executeTakeFirst()
				const subscriberId = delivery?.subscriber_id
				if (subscriberId === null || subscriberId === undefined) {
					await finish(id, 'refused', error, now)
					return false
				}
				const counted = await trx
					.updateTable('subscribers')
					.set((eb) => ({ failures: eb('failures', '+', 1) }))
					.where('id', '=', subscriberId)
					.returning(['failures', 'status'])
					.executeTakeFirst()
				const suspend = counted?.status === 'confirmed' && Number(counted.failures) >= suspendAfter
				await trx
					.updateTable('newsletter_deliveries')
					.set({
						state: suspend ? 'suspended' : 'refused',
						last_error: error.slice(0, errorLength),
						finished_at: at,
						lease_until: null,
					})
					.where('id', '=', id)
					.where('state', 'in', ['pending', 'cancelled'])
					.execute()
				if (suspend) {
					await trx
						.updateTable('subscribers')
						.set({ status: 'suspended', changed_at: at })
						.where('id', '=', subscriberId)
						.execute()
					await cancelSubscriberMails(trx, [Number(subscriberId)], at)
				}
				return suspend
			})
		},
		async figures(limit) {
			const mails = await db
				.selectFrom('newsletter_deliveries')
				.select((eb) => ['article_id', 'digest_id', eb.fn.min('created_at').as('created_at')])
				.groupBy(['article_id', 'digest_id'])
				.orderBy('created_at', 'desc')
				.limit(limit)
				.execute()
			if (mails.length === 0) return []
			const articleIds = mails.flatMap((m) => (m.article_id === null ? [] : [Number(m.article_id)]))
			const digestIds = mails.flatMap((m) => (m.digest_id === null ? [] : [Number(m.digest_id)]))
			const counts = await db
				.selectFrom('newsletter_deliveries')
				.select((eb) => ['article_id', 'digest_id', 'state', eb.fn.countAll().as('n')])
				.where((eb) =>
					eb.or([
						...(articleIds.length ? [eb('article_id', 'in', articleIds)] : []),
						...(digestIds.length ? [eb('digest_id', 'in', digestIds)] : []),
					]),
				)
				.groupBy(['article_id', 'digest_id', 'state'])
				.execute()
			const titles = articleIds.length
				? await db
						.selectFrom('articles')
						.select(['id', 'title'])
						.where('id', 'in', articleIds)
						.execute()
				: []
			const slots = digestIds.length
				? await db
						.selectFrom('newsletter_digests')
						.select(['id', 'slot'])
						.where('id', 'in', digestIds)
						.execute()
				: []
			return mails.map((mail): MailFigures => {
				const articleId = mail.article_id === null ? null : Number(mail.article_id)
				const digestId = mail.digest_id === null ? null : Number(mail.digest_id)
				const tally = zeros()
				for (const row of counts)
					if (
						(row.article_id === null ? null : Number(row.article_id)) === articleId &&
						(row.digest_id === null ? null : Number(row.digest_id)) === digestId
					)
						tally[row.state as MailDeliveryState] += Number(row.n)
				const title =
					articleId !== null
						? (titles.find((t) => Number(t.id) === articleId)?.title ?? '')
						: (slots.find((s) => Number(s.id) === digestId)?.slot ?? '')
				return {
					kind: articleId !== null ? 'article' : 'digest',
					articleId,
					digestId,
					title,
					createdAt: toIso(mail.created_at),
					counts: tally,
				}
			})
		},
		async figuresOfArticle(articleId) {
			const rows = await db
				.selectFrom('newsletter_deliveries')
				.select((eb) => ['state', eb.fn.countAll().as('n')])
				.where('article_id', '=', articleId)
				.groupBy('state')
				.execute()
			const tally = zeros()
			for (const row of rows) tally[row.state as MailDeliveryState] += Number(row.n)
			return tally
		},
	}
}
