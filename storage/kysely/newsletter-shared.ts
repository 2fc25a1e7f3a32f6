// What the article repository writes for the newsletter in its own transactions: one mail
// delivery per confirmed subscriber who takes every article (and follows one of its tags, or
// none) when an article is announced; what has not gone out cancelled when it stops being public.
import { type SqlBool, sql, type Transaction } from 'kysely'
import type { Database } from './schema.ts'

/**
 * Built, not run: appendChange runs it before the change row, on PostgreSQL in the change row's
 * statement. One statement whatever the number of subscribers. The article's tag links are
 * written before it in the same transaction.
 */
export function articleMailDeliveries(trx: Transaction<Database>, articleId: number) {
	return trx
		.insertInto('newsletter_deliveries')
		.columns(['article_id', 'subscriber_id', 'created_at', 'next_attempt_at'])
		.expression((eb) =>
			eb
				.selectFrom('articles')
				.innerJoin('subscribers', (join) =>
					join
						.on('subscribers.status', '=', sql.lit('confirmed'))
						.on('subscribers.cadence', '=', sql.lit('each')),
				)
				.select(['articles.id', 'subscribers.id', 'articles.notified_at', 'articles.notified_at'])
				.where('articles.id', '=', articleId)
				.where(sql<SqlBool>`articles.email`)
				.where('articles.kind', '=', sql.lit('article'))
				.where(followsOneOf(sql`articles.id`)),
		)
}

/**
 * A subscriber follows no tag (every article), or one of the article's. `articleId` is an SQL
 * expression; `tagIds` may give the tags as a subquery instead of the article's stored links (the
 * one-statement create, whose links are not visible to its own statement).
 */
export function followsOneOf(articleId: ReturnType<typeof sql>, tagIds?: ReturnType<typeof sql>) {
	const tags = tagIds ?? sql`SELECT tag_id FROM article_tags WHERE article_id = ${articleId}`
	return sql<SqlBool>`(NOT EXISTS (SELECT 1 FROM subscriber_tags f WHERE f.subscriber_id = subscribers.id)
		OR EXISTS (SELECT 1 FROM subscriber_tags f WHERE f.subscriber_id = subscribers.id
			AND f.tag_id IN (${tags})))`
}

/** Cancels what has not gone out for an article that stopped being public. */
export async function cancelArticleMails(
	trx: Transaction<Database>,
	articleId: number,
	now: string,
): Promise<void> {
	await trx
		.updateTable('newsletter_deliveries')
		.set({ state: 'cancelled', finished_at: now, lease_until: null })
		.where('article_id', '=', articleId)
		.where('state', '=', 'pending')
		.execute()
}
