// Full-text search on both databases (docs/decisions/030-search.md): SQLite's FTS5 table
// article_search, PostgreSQL's articles.search tsvector. The query arrives parsed (words of
// letters and digits only), so the strings built here hold no reader's syntax.
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
import type { Article } from '../port/articles.ts'
import {
	type SearchHit,
	type SearchPhrase,
	type SearchQuery,
	type SearchRepository,
	searchWords,
} from '../port/search.ts'
import type { Dialect } from '../port/storage.ts'
import { toIso, toIsoOrNull } from './rows.ts'
import type { Database } from './schema.ts'

type Db = Kysely<Database> | Transaction<Database>

/** Tags and authors, searched with the summary. */
function termsText(article: Article): string {
	return [...article.tags, ...article.authors].map((term) => term.name).join(' ')
}

/**
 * A text as the words the query parser looks for, space-separated: PostgreSQL's parser would
 * otherwise keep "clean-up" or "co2/ch4" as one word beside their parts, and a phrase across them
 * would not match.
 */
function words(text: string): string {
	return searchWords(text).join(' ')
}

/** Puts the article's words in the index as the save stands: in the save's transaction. */
export async function indexArticle(trx: Db, dialect: Dialect, article: Article): Promise<void> {
	if (dialect === 'sqlite') {
		await sql`DELETE FROM article_search WHERE rowid = ${article.id}`.execute(trx)
		await sql`INSERT INTO article_search (rowid, title, summary, terms, body)
			VALUES (${article.id}, ${article.title}, ${article.summary}, ${termsText(article)},
			${article.bodyMarkdown})`.execute(trx)
		return
	}
	await sql`UPDATE articles SET search =
		setweight(to_tsvector('simple', ${words(article.title)}), 'A') ||
		setweight(to_tsvector('simple', ${words(`${article.summary} ${termsText(article)}`)}), 'B') ||
		setweight(to_tsvector('simple', ${words(article.bodyMarkdown)}), 'C')
		WHERE id = ${article.id}`.execute(trx)
}

/** Takes a deleted article out of the index (PostgreSQL's goes with its row). */
export async function unindexArticle(trx: Db, dialect: Dialect, id: number): Promise<void> {
	if (dialect === 'sqlite') await sql`DELETE FROM article_search WHERE rowid = ${id}`.execute(trx)
}

/**
 * Articles' words indexed again from the tables: every article after an import wrote rows
 * directly, or those given (the articles carrying a renamed, merged or deleted tag or author).
 */
export async function reindexArticles(trx: Db, dialect: Dialect, ids?: number[]): Promise<void> {
	if (ids) {
		// In slices, under either database's limit on a statement's parameters.
		for (let start = 0; start < ids.length; start += 500)
			await reindex(trx, dialect, ids.slice(start, start + 500))
		return
	}
	await reindex(trx, dialect, undefined)
}

async function reindex(trx: Db, dialect: Dialect, ids: number[] | undefined): Promise<void> {
	if (ids?.length === 0) return
	const only = ids ? sql`WHERE a.id IN (${sql.join(ids)})` : sql``
	if (dialect === 'sqlite') {
		if (ids) await sql`DELETE FROM article_search WHERE rowid IN (${sql.join(ids)})`.execute(trx)
		else await sql`INSERT INTO article_search (article_search) VALUES ('delete-all')`.execute(trx)
		await sql`INSERT INTO article_search (rowid, title, summary, terms, body)
			SELECT a.id, a.title, a.summary,
				coalesce((SELECT group_concat(t.name, ' ') FROM article_tags l JOIN tags t
					ON t.id = l.tag_id WHERE l.article_id = a.id), '') || ' ' ||
				coalesce((SELECT group_concat(p.name, ' ') FROM article_authors l JOIN authors p
					ON p.id = l.author_id WHERE l.article_id = a.id), ''),
				a.body_markdown
			FROM articles a ${only}`.execute(trx)
		return
	}
	// canopy_fold (migration 0019): lower case, diacritics and word-joining signs as the site's
	// own searchWords leaves them.
	const fold = (column: RawBuilder<unknown>) => sql`canopy_fold(${column})`
	const terms = sql`a.summary || ' ' ||
		coalesce((SELECT string_agg(t.name, ' ') FROM article_tags l JOIN tags t ON t.id = l.tag_id
			WHERE l.article_id = a.id), '') || ' ' ||
		coalesce((SELECT string_agg(p.name, ' ') FROM article_authors l JOIN authors p
			ON p.id = l.author_id WHERE l.article_id = a.id), '')`
	await sql`UPDATE articles a SET search =
		setweight(to_tsvector('simple', ${fold(sql`a.title`)}), 'A') ||
		setweight(to_tsvector('simple', ${fold(terms)}), 'B') ||
		setweight(to_tsvector('simple', ${fold(sql`a.body_markdown`)}), 'C') ${only}`.execute(trx)
}

/** FTS5: "w1 w2"* for a phrase (a prefix on its last word), OR within a clause, AND between. */
function fts5Phrase(phrase: SearchPhrase): string {
	return `"${phrase.words.join(' ')}"${phrase.prefix ? '*' : ''}`
}

export function fts5Query(query: SearchQuery): string {
	const clause = (phrases: SearchPhrase[]) =>
		phrases.length === 1
			? fts5Phrase(phrases[0] as SearchPhrase)
			: `(${phrases.map(fts5Phrase).join(' OR ')})`
	const all = query.all.map(clause).join(' AND ')
	return query.none.length > 0 ? `(${all}) NOT ${clause(query.none)}` : all
}

/** tsquery: 'w1' <-> 'w2':* for a phrase, | within a clause, & between, & !( … ) for exclusions. */
function tsPhrase(phrase: SearchPhrase): string {
	return phrase.words
		.map((word, index) =>
			phrase.prefix && index === phrase.words.length - 1 ? `'${word}':*` : `'${word}'`,
		)
		.join(' <-> ')
}

export function tsQuery(query: SearchQuery): string {
	const clause = (phrases: SearchPhrase[]) => `(${phrases.map(tsPhrase).join(' | ')})`
	const all = query.all.map(clause).join(' & ')
	return query.none.length > 0 ? `${all} & !${clause(query.none)}` : all
}

function toHit(row: Record<string, unknown>): SearchHit {
	return {
		id: Number(row.id),
		kind: row.kind === 'page' ? 'page' : 'article',
		slug: String(row.slug),
		title: String(row.title),
		summary: String(row.summary),
		status: row.status === 'published' ? 'published' : 'draft',
		publishedAt: toIsoOrNull(row.published_at),
		updatedAt: toIso(row.updated_at),
		bodyStart: String(row.body_start ?? ''),
	}
}

/** What the staff search besides articles: each with its index (migration 0019). */
export type StaffIndex = 'articles' | 'messages' | 'uploads'

const indexes: Record<StaffIndex, { table: string; fts5: string }> = {
	articles: { table: 'articles', fts5: 'article_search' },
	messages: { table: 'contact_messages', fts5: 'message_search' },
	uploads: { table: 'uploads', fts5: 'upload_search' },
}

/** The ids of rows matching `query`, drafts too: a subquery for the staff lists. */
export function matchingIds(
	dialect: Dialect,
	query: SearchQuery,
	index: StaffIndex = 'articles',
): RawBuilder<unknown> {
	const { table, fts5 } = indexes[index]
	return dialect === 'sqlite'
		? sql`(SELECT rowid FROM ${sql.table(fts5)} WHERE ${sql.table(fts5)} MATCH ${fts5Query(query)})`
		: sql`(SELECT id FROM ${sql.table(table)} WHERE search @@ to_tsquery('simple', ${tsQuery(query)}))`
}

export function createSearchRepository(db: Kysely<Database>, dialect: Dialect): SearchRepository {
	return {
		async search(query, options) {
			const statuses = options.includeDrafts ? ['published', 'draft'] : ['published']
			const filter: RawBuilder<unknown> = sql`a.status IN (${sql.join(statuses)})
				AND a.kind IN (${sql.join(options.kinds)})`
			const columns = sql`a.id, a.kind, a.slug, a.title, a.summary, a.status, a.published_at,
				a.updated_at, ${options.withText === false ? sql`''` : sql`substr(a.body_markdown, 1, 20000)`}
				AS body_start, count(*) OVER () AS total`
			const found =
				dialect === 'sqlite'
					? // FTS5's bm25() is read where the match is made: in a query of its own.
						await sql<Record<string, unknown>>`SELECT ${columns}
						FROM (SELECT rowid AS id, bm25(article_search, 10.0, 4.0, 4.0, 1.0) AS rank
							FROM article_search WHERE article_search MATCH ${fts5Query(query)}) s
						JOIN articles a ON a.id = s.id
						WHERE ${filter}
						ORDER BY s.rank, a.id DESC
						LIMIT ${options.limit} OFFSET ${options.offset}`.execute(db)
					: await sql<Record<string, unknown>>`SELECT ${columns}
						FROM articles a, to_tsquery('simple', ${tsQuery(query)}) q
						WHERE a.search @@ q AND ${filter}
						ORDER BY ts_rank_cd(a.search, q, 32) DESC, a.id DESC
						LIMIT ${options.limit} OFFSET ${options.offset}`.execute(db)
			return {
				hits: found.rows.map(toHit),
				total: Number(found.rows[0]?.total ?? 0),
			}
		},
	}
}
