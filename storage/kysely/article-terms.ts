// An article's tags and authors (docs/decisions/026-tags-and-authors.md): read for a set of
// articles in one query, and written with each save, in its transaction. A name not known yet
// makes its tag or profile; a known one is found by its address or its exact name.
import { type Kysely, sql, type Transaction } from 'kysely'
import type { ArticleRules, ArticleWrite, Term } from '../port/articles.ts'
import type { Database } from './schema.ts'

export interface ArticleTerms {
	tags: Term[]
	authors: Term[]
}

const noTerms: ArticleTerms = { tags: [], authors: [] }

/** Ids per query: far below either database's limit on bound values. */
const chunk = 500

/** The tags and authors of these articles, in their order; an article with none is left out. */
export async function termsOf(
	db: Kysely<Database> | Transaction<Database>,
	ids: number[],
): Promise<Map<number, ArticleTerms>> {
	const found = new Map<number, ArticleTerms>()
	const wanted = [...new Set(ids)]
	for (let start = 0; start < wanted.length; start += chunk) {
		const part = wanted.slice(start, start + chunk)
		const rows = await db
			.selectFrom('article_tags')
			.innerJoin('tags', 'tags.id', 'article_tags.tag_id')
			.select([
				'article_tags.article_id as articleId',
				sql<string>`'tag'`.as('kind'),
				'tags.name as name',
				'tags.slug as slug',
				'article_tags.position as position',
			])
			.where('article_tags.article_id', 'in', part)
			.unionAll(
				db
					.selectFrom('article_authors')
					.innerJoin('authors', 'authors.id', 'article_authors.author_id')
					.select([
						'article_authors.article_id as articleId',
						sql<string>`'author'`.as('kind'),
						'authors.name as name',
						'authors.slug as slug',
						'article_authors.position as position',
					])
					.where('article_authors.article_id', 'in', part),
			)
			.execute()
		rows.sort((a, b) => Number(a.position) - Number(b.position))
		for (const row of rows) {
			const id = Number(row.articleId)
			let terms = found.get(id)
			if (!terms) {
				terms = { tags: [], authors: [] }
				found.set(id, terms)
			}
			const term = { name: String(row.name), slug: String(row.slug) }
			if (row.kind === 'tag') terms.tags.push(term)
			else terms.authors.push(term)
		}
	}
	return found
}

/** Rows with their terms attached by `attach`, read in one query. */
export async function withTerms<Row extends { id: unknown }, Out>(
	db: Kysely<Database> | Transaction<Database>,
	rows: Row[],
	attach: (row: Row, terms: ArticleTerms) => Out,
): Promise<Out[]> {
	if (rows.length === 0) return []
	const terms = await termsOf(
		db,
		rows.map((row) => Number(row.id)),
	)
	return rows.map((row) => attach(row, terms.get(Number(row.id)) ?? noTerms))
}

/**
 * The tags (or authors) named, found or made, in the order given; names that lead to the same
 * one count once. Safe with writers racing: a slug made meanwhile is found, not made twice.
 */
export async function resolveTerms(
	trx: Transaction<Database>,
	rules: ArticleRules,
	kind: 'tag' | 'author',
	names: string[],
	now: string,
): Promise<(Term & { id: number })[]> {
	const table = kind === 'tag' ? 'tags' : 'authors'
	const resolved: (Term & { id: number })[] = []
	for (const raw of names) {
		const name = raw.trim()
		if (!name) continue
		const slug = rules.termSlug(kind, name)
		const find = (at: string) =>
			trx
				.selectFrom(table)
				.select(['id', 'name', 'slug'])
				.where((eb) => eb.or([eb('slug', '=', at), eb('name', '=', name)]))
				// The one at the address made from the name before one merely named alike.
				.orderBy(sql`case when slug = ${at} then 0 else 1 end`)
				.limit(1)
				.executeTakeFirst()
		let row = await find(slug)
		if (!row) {
			// A tag merged into another (or renamed) is the one it went to.
			const moved = await trx
				.selectFrom('redirects')
				.select('to_path')
				.where('from_path', '=', rules.address(kind, slug))
				.executeTakeFirst()
			const prefix = rules.address(kind, '')
			if (moved?.to_path.startsWith(prefix))
				row = await find(decodeURIComponent(moved.to_path.slice(prefix.length)))
		}
		if (!row) {
			await trx
				.insertInto(table)
				.values({ slug, name, created_at: now, updated_at: now })
				.onConflict((oc) => oc.column('slug').doNothing())
				.execute()
			row = await find(slug)
		}
		if (!row) throw new Error(`could not make the ${kind} ${JSON.stringify(name)}`)
		const id = Number(row.id)
		if (!resolved.some((term) => term.id === id))
			resolved.push({ id, name: String(row.name), slug: String(row.slug) })
	}
	return resolved
}

/** Replaces the article's tags and authors with the ones the write names. */
export async function writeTerms(
	trx: Transaction<Database>,
	rules: ArticleRules,
	articleId: number,
	write: Pick<ArticleWrite, 'tags' | 'authors'>,
	now: string,
): Promise<ArticleTerms> {
	const tags = await resolveTerms(trx, rules, 'tag', write.tags, now)
	const authors = await resolveTerms(trx, rules, 'author', write.authors, now)
	await trx.deleteFrom('article_tags').where('article_id', '=', articleId).execute()
	await trx.deleteFrom('article_authors').where('article_id', '=', articleId).execute()
	if (tags.length > 0)
		await trx
			.insertInto('article_tags')
			.values(tags.map((tag, position) => ({ article_id: articleId, tag_id: tag.id, position })))
			.execute()
	if (authors.length > 0)
		await trx
			.insertInto('article_authors')
			.values(
				authors.map((author, position) => ({
					article_id: articleId,
					author_id: author.id,
					position,
				})),
			)
			.execute()
	const bare = ({ name, slug }: Term) => ({ name, slug })
	return { tags: tags.map(bare), authors: authors.map(bare) }
}
