// What the article repository writes for the newsletter in its own transactions: the article's
// mail to send when it is announced (its deliveries are written by the worker, newsletter-sends.ts);
// what has not gone out cancelled when it stops being public.
import { type SqlBool, sql, type Transaction } from 'kysely'
import type { Database } from './schema.ts'

/**
 * The article's mail to send, one row whatever the number of subscribers: the delivery worker
 * writes its deliveries after (expandSends). Built, not run: appendChange runs it before the
 * change row, on PostgreSQL in the change row's statement.
 */
export function articleMailSend(trx: Transaction<Database>, articleId: number) {
	// Every value from a column: PostgreSQL types a parameter in a SELECT list as text.
	return trx
		.insertInto('newsletter_sends')
		.columns(['article_id', 'created_at'])
		.expression((eb) =>
			eb
				.selectFrom('articles')
				.select(['articles.id', 'articles.emailed_at'])
				.where('articles.id', '=', articleId)
				.where('articles.emailed_at', 'is not', null)
				.where('articles.kind', '=', sql.lit('article')),
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
	// No more deliveries are written for it.
	await trx
		.updateTable('newsletter_sends')
		.set({ finished_at: now })
		.where('article_id', '=', articleId)
		.where('finished_at', 'is', null)
		.execute()
}
