// An article's tags and authors (docs/decisions/026-tags-and-authors.md): read for a set of
// articles in one query, and written with each save, in its transaction. A name not known yet
// makes its tag or profile; a known one is found by its address or its exact name.
import { type Kysely, sql, type Transaction } from 'kysely'
import type { ArticleRules, ArticleWrite, Term } from '../port/articles.ts'
import type { Dialect } from '../port/storage.ts'
import { prepared } from './prepared.ts'
import type { Database } from './schema.ts'

type Db = Kysely<Database> | Transaction<Database>

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
			.modifyFront(prepared)
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

export type TermKind = 'tag' | 'author'
type Found = Term & { id: number }

/** A write's tags and authors, found or made, with their ids: what links them to the article. */
export interface ResolvedTerms {
	tags: Found[]
	authors: Found[]
}

export interface Wanted {
	kind: TermKind
	name: string
	slug: string
}

const tableOf = (kind: TermKind) => (kind === 'tag' ? 'tags' : 'authors')

/** The names a write gives, trimmed, with the address each would have. */
export function wantedTerms(rules: ArticleRules, kind: TermKind, names: string[]): Wanted[] {
	return names.flatMap((raw) => {
		const name = raw.trim()
		return name ? [{ kind, name, slug: rules.termSlug(kind, name) }] : []
	})
}

/** Of the rows read, the one `wanted` means: the one at its address before one merely named alike. */
function pick(rows: (Term & { id: number; kind: TermKind })[], wanted: Wanted): Found | undefined {
	const mine = rows.filter((row) => row.kind === wanted.kind)
	const row =
		mine.find((one) => one.slug === wanted.slug) ?? mine.find((one) => one.name === wanted.name)
	return row && { id: row.id, name: row.name, slug: row.slug }
}

/**
 * One term the first read did not find: one merged into another (or renamed) is the one it went
 * to; else it is made. Safe with writers racing: a slug made meanwhile is found, not made twice.
 */
async function findOrMake(
	trx: Transaction<Database>,
	rules: ArticleRules,
	{ kind, name, slug }: Wanted,
	now: string,
): Promise<Found> {
	const table = tableOf(kind)
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
	return { id: Number(row.id), name: String(row.name), slug: String(row.slug) }
}

/**
 * The tags and authors named, found or made, each list in the order given; names that lead to the
 * same one count once. Known ones (the usual case) are read in one query for both kinds.
 */
export async function resolveWriteTerms(
	trx: Transaction<Database>,
	dialect: Dialect,
	rules: ArticleRules,
	write: Pick<ArticleWrite, 'tags' | 'authors'>,
	now: string,
): Promise<ResolvedTerms> {
	const wanted = [
		...wantedTerms(rules, 'tag', write.tags),
		...wantedTerms(rules, 'author', write.authors),
	]
	const known = wanted.length > 0 ? await knownTerms(trx, dialect, wanted) : []
	const resolved: ResolvedTerms = { tags: [], authors: [] }
	for (const one of wanted) {
		const term = pick(known, one) ?? (await findOrMake(trx, rules, one, now))
		const into = one.kind === 'tag' ? resolved.tags : resolved.authors
		if (!into.some((other) => other.id === term.id)) into.push(term)
	}
	return resolved
}

/** Every tag and author at one of the addresses or with one of the names wanted. */
async function knownTerms(db: Db, dialect: Dialect, wanted: Wanted[]) {
	const of = (kind: TermKind) => {
		const mine = wanted.filter((one) => one.kind === kind)
		return { slugs: mine.map((one) => one.slug), names: mine.map((one) => one.name) }
	}
	const tags = of('tag')
	const authors = of('author')
	if (dialect === 'postgres') {
		// Arrays, not IN lists: one text for any number of names, kept prepared by the pool.
		const { rows } = await sql<Term & { id: number; kind: TermKind }>`${prepared}
			SELECT id, name, slug, 'tag' AS kind FROM tags
			WHERE slug = ANY(${tags.slugs}::text[]) OR name = ANY(${tags.names}::text[])
			UNION ALL
			SELECT id, name, slug, 'author' AS kind FROM authors
			WHERE slug = ANY(${authors.slugs}::text[]) OR name = ANY(${authors.names}::text[])`.execute(
			db,
		)
		return rows.map(termRow)
	}
	// An empty IN list is not valid SQL: a kind not asked for matches an impossible name.
	const none = ['']
	const candidates = (kind: TermKind, { slugs, names }: typeof tags) =>
		db
			.selectFrom(tableOf(kind))
			.select(['id', 'name', 'slug', sql<TermKind>`${kind}`.as('kind')])
			.where((eb) =>
				eb.or([
					eb('slug', 'in', slugs.length ? slugs : none),
					eb('name', 'in', names.length ? names : none),
				]),
			)
	const rows = await candidates('tag', tags).unionAll(candidates('author', authors)).execute()
	return rows.map(termRow)
}

const termRow = (row: { id: unknown; name: unknown; slug: unknown; kind: unknown }) => ({
	id: Number(row.id),
	name: String(row.name),
	slug: String(row.slug),
	kind: row.kind === 'author' ? ('author' as const) : ('tag' as const),
})

/** The tags (or authors) named, found or made, in the order given. */
export async function resolveTerms(
	trx: Transaction<Database>,
	dialect: Dialect,
	rules: ArticleRules,
	kind: TermKind,
	names: string[],
	now: string,
): Promise<Found[]> {
	const resolved = await resolveWriteTerms(
		trx,
		dialect,
		rules,
		kind === 'tag' ? { tags: names, authors: [] } : { tags: [], authors: names },
		now,
	)
	return kind === 'tag' ? resolved.tags : resolved.authors
}

/**
 * Links the article to exactly these tags and authors, in their order. `fresh`: the article was
 * made in this transaction, so it has no links to remove. On PostgreSQL one statement (a round
 * trip is most of a small statement's cost there); SQLite runs in the process, statement by
 * statement.
 */
export async function linkTerms(
	trx: Transaction<Database>,
	dialect: Dialect,
	articleId: number,
	{ tags, authors }: ResolvedTerms,
	fresh: boolean,
): Promise<ArticleTerms> {
	const bare = ({ name, slug }: Term) => ({ name, slug })
	const linked = { tags: tags.map(bare), authors: authors.map(bare) }
	const tagIds = tags.map((tag) => tag.id)
	const authorIds = authors.map((author) => author.id)
	if (dialect === 'postgres') {
		// The removals touch only rows the inserts do not, so one statement's CTEs may do both.
		const remove = fresh
			? sql``
			: sql`gone_tags AS (DELETE FROM article_tags WHERE article_id = ${articleId}
					AND tag_id <> ALL(${tagIds}::bigint[])),
				gone_authors AS (DELETE FROM article_authors WHERE article_id = ${articleId}
					AND author_id <> ALL(${authorIds}::bigint[])),`
		await sql`WITH ${remove}
			linked_tags AS (INSERT INTO article_tags (article_id, tag_id, position)
				SELECT ${articleId}, t.id, t.n - 1 FROM unnest(${tagIds}::bigint[]) WITH ORDINALITY AS t(id, n)
				ON CONFLICT (article_id, tag_id) DO UPDATE SET position = excluded.position)
			INSERT INTO article_authors (article_id, author_id, position)
				SELECT ${articleId}, a.id, a.n - 1 FROM unnest(${authorIds}::bigint[]) WITH ORDINALITY AS a(id, n)
				ON CONFLICT (article_id, author_id) DO UPDATE SET position = excluded.position`.execute(trx)
		return linked
	}
	if (!fresh) {
		await trx.deleteFrom('article_tags').where('article_id', '=', articleId).execute()
		await trx.deleteFrom('article_authors').where('article_id', '=', articleId).execute()
	}
	if (tags.length > 0)
		await trx
			.insertInto('article_tags')
			.values(tagIds.map((tag_id, position) => ({ article_id: articleId, tag_id, position })))
			.execute()
	if (authors.length > 0)
		await trx
			.insertInto('article_authors')
			.values(
				authorIds.map((author_id, position) => ({ article_id: articleId, author_id, position })),
			)
			.execute()
	return linked
}

/** Replaces the article's tags and authors with the ones the write names. */
export async function writeTerms(
	trx: Transaction<Database>,
	rules: ArticleRules,
	dialect: Dialect,
	articleId: number,
	write: Pick<ArticleWrite, 'tags' | 'authors'>,
	now: string,
): Promise<ArticleTerms> {
	return linkTerms(
		trx,
		dialect,
		articleId,
		await resolveWriteTerms(trx, dialect, rules, write, now),
		false,
	)
}
