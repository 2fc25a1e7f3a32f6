// Writing a mail's deliveries after it was sent: a publish (or a digest) writes one
// newsletter_sends row; this goes through the subscribers in id order, a batch per transaction,
// and writes a delivery for each confirmed reader the mail is for. The cursor moves in the same
// transaction as the batch it covers, and a delivery is unique per mail and reader, so a batch
// written twice (two instances, a crash before the cursor moved) writes each delivery once.
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Dialect } from '../port/storage.ts'
import { followsOneOf } from './newsletter-shared.ts'
import type { Database } from './schema.ts'

/** Subscribers gone through per transaction: a short write even with a hundred thousand. */
export const expandBatch = 1_000

/** The tags of a digest's articles, as followsOneOf takes them. */
export function digestTags(articleIds: number[]): RawBuilder<unknown> {
	if (articleIds.length === 0) return sql`SELECT NULL WHERE false`
	return sql`SELECT tag_id FROM article_tags WHERE article_id IN (${sql.join(articleIds)})`
}

/**
 * Writes the deliveries of mails sent and not yet gone through, oldest first, until about
 * `limit` subscribers were gone through or none is left. Returns how many deliveries it wrote.
 */
export async function expandSends(
	db: Kysely<Database>,
	dialect: Dialect,
	limit: number,
): Promise<number> {
	// The worker asks every second on every instance; nearly always there is nothing to write, and
	// one indexed read says so without a transaction (three round trips on PostgreSQL).
	const open = await db
		.selectFrom('newsletter_sends')
		.select('id')
		.where('finished_at', 'is', null)
		.limit(1)
		.executeTakeFirst()
	if (!open) return 0
	let through = 0
	let written = 0
	while (through < limit) {
		const step = await db.transaction().execute(async (trx) => {
			let open = trx
				.selectFrom('newsletter_sends')
				.selectAll()
				.where('finished_at', 'is', null)
				.orderBy('id')
				.limit(1)
			// Another instance writing one send's batch: this one takes the next send.
			if (dialect === 'postgres') open = open.forUpdate().skipLocked()
			const send = await open.executeTakeFirst()
			if (!send) return undefined
			const ids = await trx
				.selectFrom('subscribers')
				.select('id')
				.where('id', '>', send.expanded_through)
				.orderBy('id')
				.limit(expandBatch)
				.execute()
			const last = ids.at(-1)
			const now = new Date().toISOString()
			if (!last) {
				await trx
					.updateTable('newsletter_sends')
					.set({ finished_at: now })
					.where('id', '=', send.id)
					.execute()
				return { seen: 0, written: 0 }
			}
			let tags: RawBuilder<unknown>
			if (send.article_id !== null)
				tags = sql`SELECT tag_id FROM article_tags WHERE article_id = ${send.article_id}`
			else {
				const digest = await trx
					.selectFrom('newsletter_digests')
					.select('article_ids')
					.where('id', '=', Number(send.digest_id))
					.executeTakeFirst()
				tags = digestTags((JSON.parse(digest?.article_ids ?? '[]') as unknown[]).map(Number))
			}
			const cadence = send.article_id !== null ? 'each' : 'digest'
			// Every value from a column: PostgreSQL types a parameter in a SELECT list as text.
			const inserted = await trx
				.insertInto('newsletter_deliveries')
				.columns(['article_id', 'digest_id', 'subscriber_id', 'created_at', 'next_attempt_at'])
				.expression((eb) =>
					eb
						.selectFrom('newsletter_sends')
						.innerJoin('subscribers', (join) =>
							join
								.on('subscribers.status', '=', sql.lit('confirmed'))
								.on('subscribers.cadence', '=', sql.lit(cadence)),
						)
						.select([
							'newsletter_sends.article_id',
							'newsletter_sends.digest_id',
							'subscribers.id',
							'newsletter_sends.created_at',
							'newsletter_sends.created_at',
						])
						.where('newsletter_sends.id', '=', send.id)
						.where('subscribers.id', '>', send.expanded_through)
						.where('subscribers.id', '<=', last.id)
						.where(followsOneOf(sql`newsletter_sends.article_id`, tags)),
				)
				.onConflict((oc) => oc.doNothing())
				.executeTakeFirst()
			await trx
				.updateTable('newsletter_sends')
				.set({
					expanded_through: last.id,
					finished_at: ids.length < expandBatch ? now : null,
				})
				.where('id', '=', send.id)
				.execute()
			return { seen: ids.length, written: Number(inserted.numInsertedOrUpdatedRows ?? 0) }
		})
		if (!step) break
		// A finished send with no one left counts as a step, so an empty list of sends ends this.
		through += Math.max(step.seen, 1)
		written += step.written
	}
	return written
}
