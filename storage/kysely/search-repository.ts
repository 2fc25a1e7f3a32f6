// Full-text search on both databases (docs/decisions/030-search.md): SQLite's FTS5 table
// article_search, PostgreSQL's articles.search tsvector. The query arrives parsed (words of
// letters and digits only), so the strings built here hold no reader's syntax.
import { type ExpressionBuilder, type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
import type { Article } from '../port/articles.ts'
import {
	type ArticleStems,
	indexedText,
	type SearchHit,
	type SearchPhrase,
	type SearchQuery,
	type SearchRepository,
	type UnstemmedArticle,
} from '../port/search.ts'
import type { Dialect } from '../port/storage.ts'
import { toIso, toIsoOrNull } from './rows.ts'
import type { Database } from './schema.ts'

type Db = Kysely<Database> | Transaction<Database>

/** Tags and authors, searched with the summary. */
function termsText(article: Pick<Article, 'tags' | 'authors'>): string {
	return [...article.tags, ...article.authors].map((term) => term.name).join(' ')
}

/**
 * A text as the words the query parser looks for, space-separated: PostgreSQL's parser would
 * otherwise keep "clean-up" or "co2/ch4" as one word beside their parts, and a phrase across them
 * would not match; SQLite's tokenizer would keep the diacritics of every script but Latin.
 */
const words = indexedText

/** What an article's words are made of, as a save holds them. */
type Searchable = Pick<Article, 'title' | 'summary' | 'bodyMarkdown' | 'tags' | 'authors'>

/**
 * The search columns as the article's own INSERT or UPDATE writes them (a second UPDATE would
 * cost a round trip and a row version on every save). PostgreSQL: the words' tsvector; SQLite's
 * index is a table of its own (indexArticle). Both: the stems due again, made after the save
 * (setStems).
 */
export function searchColumn(
	dialect: Dialect,
	article: Searchable,
): {
	search?: RawBuilder<string>
	search_stems: null
	search_title_stems: null
	search_stems_language: null
} {
	const due = { search_stems: null, search_title_stems: null, search_stems_language: null }
	return dialect === 'sqlite' ? due : { search: searchVector(article), ...due }
}

/**
 * PostgreSQL's search column for an article's words, weighted: title A; summary, tags and
 * authors B; text C. Its stems, once made (setStems): the title's A, the others' D.
 */
export function searchVector(article: Searchable): RawBuilder<string> {
	return weightedVector({
		title: article.title,
		summaryAndTerms: `${article.summary} ${termsText(article)}`,
		body: article.bodyMarkdown,
	})
}

function weightedVector(parts: {
	title: string
	summaryAndTerms: string
	body: string
	titleStems?: string
	stems?: string
}): RawBuilder<string> {
	const stems =
		parts.stems !== undefined
			? sql`|| setweight(to_tsvector('simple', ${parts.titleStems ?? ''}), 'A') ||
			setweight(to_tsvector('simple', ${parts.stems}), 'D')`
			: sql``
	return sql<string>`setweight(to_tsvector('simple', ${words(parts.title)}), 'A') ||
		setweight(to_tsvector('simple', ${words(parts.summaryAndTerms)}), 'B') ||
		setweight(to_tsvector('simple', ${words(parts.body)}), 'C') ${stems}`
}

/**
 * SQLite: puts the article's words in the index as the save stands, in the save's transaction.
 * PostgreSQL's index is the row's search column, written with the row (searchColumn).
 */
export async function indexArticle(trx: Db, dialect: Dialect, article: Article): Promise<void> {
	if (dialect !== 'sqlite') return
	await sql`DELETE FROM article_search WHERE rowid = ${article.id}`.execute(trx)
	// Its stems come after the save (setStems).
	const [title, summary, terms] = [article.title, article.summary, termsText(article)].map(words)
	await sql`INSERT INTO article_search (rowid, title, summary, terms, body, title_stems, stems)
		VALUES (${article.id}, ${title}, ${summary}, ${terms}, ${words(article.bodyMarkdown)}, '', '')`.execute(
		trx,
	)
	await sql`DELETE FROM article_search_head WHERE rowid = ${article.id}`.execute(trx)
	await sql`INSERT INTO article_search_head (rowid, title, summary, terms, title_stems)
		VALUES (${article.id}, ${title}, ${summary}, ${terms}, '')`.execute(trx)
}

/** Takes a deleted article out of the index (PostgreSQL's goes with its row). */
export async function unindexArticle(trx: Db, dialect: Dialect, id: number): Promise<void> {
	if (dialect === 'sqlite') {
		await sql`DELETE FROM article_search WHERE rowid = ${id}`.execute(trx)
		await sql`DELETE FROM article_search_head WHERE rowid = ${id}`.execute(trx)
	}
}

/** Empties the index of articles (PostgreSQL's goes with the rows). */
export async function clearArticleIndex(trx: Db, dialect: Dialect): Promise<void> {
	if (dialect !== 'sqlite') return
	await sql`INSERT INTO article_search (article_search) VALUES ('delete-all')`.execute(trx)
	await sql`INSERT INTO article_search_head (article_search_head) VALUES ('delete-all')`.execute(
		trx,
	)
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

/** Article `a`'s tags' and authors' names, in SQL: what termsText gives from an Article. */
function termNames(dialect: Dialect): RawBuilder<unknown> {
	const joined = (name: RawBuilder<unknown>) =>
		dialect === 'sqlite' ? sql`group_concat(${name}, ' ')` : sql`string_agg(${name}, ' ')`
	return sql`coalesce((SELECT ${joined(sql`t.name`)} FROM article_tags l JOIN tags t
			ON t.id = l.tag_id WHERE l.article_id = a.id), '') || ' ' ||
		coalesce((SELECT ${joined(sql`p.name`)} FROM article_authors l JOIN authors p
			ON p.id = l.author_id WHERE l.article_id = a.id), '')`
}

async function reindex(trx: Db, dialect: Dialect, ids: number[] | undefined): Promise<void> {
	if (ids?.length === 0) return
	const only = ids ? sql`WHERE a.id IN (${sql.join(ids)})` : sql``
	// canopy_fold: the text's words as indexedText gives them. SQLite's is indexedText itself
	// (open-sqlite.ts); PostgreSQL's is SQL (migrations 0019 and 0029).
	const fold = (column: RawBuilder<unknown>) => sql`canopy_fold(${column})`
	if (dialect === 'sqlite') {
		const terms = fold(termNames(dialect))
		if (!ids) await clearArticleIndex(trx, dialect)
		else
			for (const table of ['article_search', 'article_search_head'])
				await sql`DELETE FROM ${sql.table(table)} WHERE rowid IN (${sql.join(ids)})`.execute(trx)
		await sql`INSERT INTO article_search (rowid, title, summary, terms, body, title_stems, stems)
			SELECT a.id, ${fold(sql`a.title`)}, ${fold(sql`a.summary`)}, ${terms},
				${fold(sql`a.body_markdown`)}, coalesce(a.search_title_stems, ''),
				coalesce(a.search_stems, '')
			FROM articles a ${only}`.execute(trx)
		await sql`INSERT INTO article_search_head (rowid, title, summary, terms, title_stems)
			SELECT a.id, ${fold(sql`a.title`)}, ${fold(sql`a.summary`)}, ${terms},
				coalesce(a.search_title_stems, '')
			FROM articles a ${only}`.execute(trx)
		return
	}
	const terms = sql`a.summary || ' ' || ${termNames(dialect)}`
	// The stems weigh as the title (its own) or least (the summary's and text's).
	await sql`UPDATE articles a SET search =
		setweight(to_tsvector('simple', ${fold(sql`a.title`)}), 'A') ||
		setweight(to_tsvector('simple', coalesce(a.search_title_stems, '')), 'A') ||
		setweight(to_tsvector('simple', ${fold(terms)}), 'B') ||
		setweight(to_tsvector('simple', ${fold(sql`a.body_markdown`)}), 'C') ||
		setweight(to_tsvector('simple', coalesce(a.search_stems, '')), 'D') ${only}`.execute(trx)
}

/** A stem as both indexes take it: one word of letters and digits (the site made it). */
const isWord = (stem: string) => /^[\p{L}\p{N}]+$/u.test(stem)

/** Stems as stored: single words, space-separated. */
function onlyWords(stems: string): string {
	return stems.split(' ').filter(isWord).join(' ')
}

/** A phrase's stems, each a single word. */
function stemsOf(phrase: SearchPhrase): string[] {
	return (phrase.stems ?? []).filter(isWord)
}

/**
 * FTS5: "w1 w2"* for a phrase (a prefix on its last word), a word's stems as alternatives, OR
 * within a clause, AND between.
 */
function fts5Phrase(phrase: SearchPhrase): string {
	const exact = `"${phrase.words.join(' ')}"${phrase.prefix ? '*' : ''}`
	const stems = stemsOf(phrase)
	return stems.length > 0 ? `(${[exact, ...stems.map((stem) => `"${stem}"`)].join(' OR ')})` : exact
}

function fts5Clause(phrases: SearchPhrase[]): string {
	return phrases.length === 1
		? fts5Phrase(phrases[0] as SearchPhrase)
		: `(${phrases.map(fts5Phrase).join(' OR ')})`
}

/** The words that must be there, without the exclusions. */
function fts5Wanted(query: SearchQuery): string {
	return query.all.map(fts5Clause).join(' AND ')
}

export function fts5Query(query: SearchQuery): string {
	const wanted = fts5Wanted(query)
	return query.none.length > 0 ? `(${wanted}) NOT ${fts5Clause(query.none)}` : wanted
}

/** tsquery: 'w1' <-> 'w2':* for a phrase, | within a clause, & between, & !( … ) for exclusions. */
function tsPhrase(phrase: SearchPhrase): string {
	const exact = phrase.words
		.map((word, index) =>
			phrase.prefix && index === phrase.words.length - 1 ? `'${word}':*` : `'${word}'`,
		)
		.join(' <-> ')
	const stems = stemsOf(phrase)
	return stems.length > 0 ? `(${[exact, ...stems.map((stem) => `'${stem}'`)].join(' | ')})` : exact
}

function tsClause(phrases: SearchPhrase[]): string {
	return `(${phrases.map(tsPhrase).join(' | ')})`
}

function tsWanted(query: SearchQuery): string {
	return query.all.map(tsClause).join(' & ')
}

export function tsQuery(query: SearchQuery): string {
	const all = tsWanted(query)
	return query.none.length > 0 ? `${all} & !${tsClause(query.none)}` : all
}

function toHit(row: Record<string, unknown>): SearchHit {
	return {
		id: Number(row.id),
		kind: row.kind === 'page' ? 'page' : 'article',
		slug: String(row.slug),
		title: String(row.title),
		summary: String(row.summary),
		language: String(row.language ?? ''),
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

/**
 * Where a match is looked for: anywhere; in the title, summary, tags and authors (the head); or
 * in the text alone (the body, less the head's matches).
 */
type Scope = 'all' | 'head' | 'body'
type Order = 'rank' | 'newest'

/** Matches past this are not counted: a reader sees "more than 500" (50 pages of 10). */
const countedMatches = 500

/**
 * Up to this many matches are ranked by relevance (bm25, ts_rank_cd), which reads every match;
 * more, and the head's matches come first, the rest newest first (decision 030). PostgreSQL's
 * rank reads each match's whole tsvector, so it ranks fewer.
 */
const rankedMatches: Record<Dialect, number> = { sqlite: countedMatches, postgres: 200 }

function sqliteSearch(trx: Db, query: SearchQuery, filter: RawBuilder<unknown>) {
	// article_search_head (migration 0020) holds the title, summary, tags and authors alone: the
	// head's matches are read from its short lists, not from the text's long ones. Each scope
	// starts from one index and only ever asks the other as a whole (NOT IN a list made once):
	// asking an FTS5 table about one row at a time runs its whole query again for each.
	const all = fts5Query(query)
	const wanted = fts5Wanted(query)
	const excluded =
		query.none.length > 0
			? sql`AND s.rowid NOT IN (SELECT rowid FROM article_search(${fts5Clause(query.none)}))`
			: sql``
	const from: Record<Scope, RawBuilder<unknown>> = {
		all: sql`article_search(${all}) s`,
		head: sql`article_search_head(${wanted}) s`,
		body: sql`article_search(${all}) s`,
	}
	const scoped: Record<Scope, RawBuilder<unknown>> = {
		all: sql``,
		head: excluded,
		body: sql`AND s.rowid NOT IN (SELECT rowid FROM article_search_head(${wanted}))`,
	}
	// The articles' status and kind from a covering index (migration 0020): never the rows, whose
	// texts come before those columns.
	const visible = (scope: Scope) => sql`FROM ${from[scope]}
		JOIN articles a INDEXED BY articles_visibility ON a.id = s.rowid
		WHERE ${filter} ${scoped[scope]}`
	return {
		async count(scope: Scope): Promise<number> {
			const found = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 ${visible(scope)}
				LIMIT ${countedMatches + 1})`.execute(trx)
			return Number(found.rows[0]?.n ?? 0)
		},
		async ids(scope: Scope, order: Order, limit: number, offset: number): Promise<number[]> {
			if (order === 'newest') {
				const found = await sql<{ id: number }>`SELECT s.rowid AS id ${visible(scope)}
					ORDER BY s.rowid DESC LIMIT ${limit} OFFSET ${offset}`.execute(trx)
				return found.rows.map((row) => Number(row.id))
			}
			// bm25() is read where the match is made, in a query of its own: over the whole index
			// (title 10, summary 4, tags and authors 4, text 1; stems half their source's: the
			// title's 5, the others' 0.5), or over the head alone.
			const ranked =
				scope === 'head'
					? sql`SELECT rowid, bm25(article_search_head, 10.0, 4.0, 4.0, 5.0) AS rank
						FROM article_search_head WHERE article_search_head MATCH ${wanted}`
					: sql`SELECT rowid, bm25(article_search, 10.0, 4.0, 4.0, 1.0, 5.0, 0.5) AS rank
						FROM article_search WHERE article_search MATCH ${all}`
			const found = await sql<{ id: number }>`SELECT s.rowid AS id FROM (${ranked}) s
				JOIN articles a INDEXED BY articles_visibility ON a.id = s.rowid
				WHERE ${filter} ${scope === 'head' ? excluded : sql``}
				ORDER BY s.rank, s.rowid DESC LIMIT ${limit} OFFSET ${offset}`.execute(trx)
			return found.rows.map((row) => Number(row.id))
		},
	}
}

function postgresSearch(trx: Db, query: SearchQuery, filter: RawBuilder<unknown>) {
	const all = sql`to_tsquery('simple', ${tsQuery(query)})`
	const wanted = sql`to_tsquery('simple', ${tsWanted(query)})`
	// search_head (migration 0020) holds the title's, summary's, tags' and authors' words alone.
	const where: Record<Scope, RawBuilder<unknown>> = {
		all: sql`a.search @@ ${all}`,
		head:
			query.none.length > 0
				? sql`a.search_head @@ ${wanted} AND a.search @@ ${all}`
				: sql`a.search_head @@ ${wanted}`,
		body: sql`a.search @@ ${all} AND NOT a.search_head @@ ${wanted}`,
	}
	// Counting and ranking read the GIN index's bitmap (an index scan by another index would read
	// each row's tsvector to test it); the newest first walk the primary key backwards and stop
	// at the page's end.
	let walking = false
	return {
		async count(scope: Scope): Promise<number> {
			const found = await sql<{ n: string }>`SELECT count(*) AS n FROM (SELECT 1 FROM articles a
				WHERE ${where[scope]} AND ${filter} LIMIT ${countedMatches + 1}) t`.execute(trx)
			return Number(found.rows[0]?.n ?? 0)
		},
		async ids(scope: Scope, order: Order, limit: number, offset: number): Promise<number[]> {
			if (order === 'newest' && !walking) {
				await sql`SELECT set_config('enable_indexscan', 'on', true)`.execute(trx)
				walking = true
			}
			const vector = scope === 'head' ? sql`a.search_head` : sql`a.search`
			const found = await sql<{ id: number }>`SELECT a.id FROM articles a
				WHERE ${where[scope]} AND ${filter}
				ORDER BY ${order === 'rank' ? sql`ts_rank_cd(${vector}, ${scope === 'head' ? wanted : all}, 32) DESC,` : sql``}
				a.id DESC LIMIT ${limit} OFFSET ${offset}`.execute(trx)
			return found.rows.map((row) => Number(row.id))
		},
	}
}

export function createSearchRepository(db: Kysely<Database>, dialect: Dialect): SearchRepository {
	/**
	 * PostgreSQL's planner prices testing a tsvector as if it were in the row; it is stored apart
	 * (TOAST) and costs far more to read, so the planner would scan the table, or walk another
	 * index testing each row, rather than take the GIN index's answer. Searches run in a
	 * transaction of their own with those plans ruled out (postgresSearch turns the walk back on
	 * when it wants it).
	 */
	const reading = <T>(work: (trx: Db) => Promise<T>): Promise<T> =>
		dialect === 'sqlite'
			? work(db)
			: db.transaction().execute(async (trx) => {
					await sql`SELECT set_config('enable_seqscan', 'off', true),
						set_config('enable_indexscan', 'off', true)`.execute(trx)
					return work(trx)
				})
	return {
		async search(query, options) {
			const statuses = options.includeDrafts ? ['published', 'draft'] : ['published']
			// On PostgreSQL the status is read as an expression, which no index answers: given the
			// status index, the planner would list every published row and test each tsvector
			// (read from TOAST) rather than ask the GIN index. SQLite reads a covering index.
			const status = dialect === 'sqlite' ? sql`a.status` : sql`(a.status || '')`
			const filter: RawBuilder<unknown> = sql`${status} IN (${sql.join(statuses)})
				AND a.kind IN (${sql.join(options.kinds)})`
			const { limit, offset } = options
			return reading(async (trx) => {
				const engine =
					dialect === 'sqlite'
						? sqliteSearch(trx, query, filter)
						: postgresSearch(trx, query, filter)
				const total = await engine.count('all')
				let ids: number[]
				if (total <= rankedMatches[dialect]) ids = await engine.ids('all', 'rank', limit, offset)
				else {
					const head = await engine.count('head')
					ids =
						offset < head
							? await engine.ids(
									'head',
									head <= rankedMatches[dialect] ? 'rank' : 'newest',
									limit,
									offset,
								)
							: []
					if (ids.length < limit)
						ids.push(
							...(await engine.ids(
								'body',
								'newest',
								limit - ids.length,
								Math.max(0, offset - head),
							)),
						)
				}
				if (ids.length === 0)
					return { hits: [], total: Math.min(total, countedMatches), more: total > countedMatches }
				const text = options.withText === false ? sql`''` : sql`substr(a.body_markdown, 1, 20000)`
				const rows = await sql<Record<string, unknown>>`SELECT a.id, a.kind, a.slug, a.title,
					a.summary, a.language, a.status, a.published_at, a.updated_at, ${text} AS body_start
					FROM articles a WHERE a.id IN (${sql.join(ids)})`.execute(trx)
				const byId = new Map(rows.rows.map((row) => [Number(row.id), toHit(row)]))
				return {
					hits: ids.flatMap((id) => byId.get(id) ?? []),
					total: Math.min(total, countedMatches),
					more: total > countedMatches,
				}
			})
		},

		async unstemmed(limit, siteLanguage, lease) {
			const columns = ['id', 'version', 'language', 'title', 'summary', 'body_markdown'] as const
			const at = lease?.now.toISOString()
			const take = async (trx: Kysely<Database>, hold: boolean) => {
				const notHeld = (eb: ExpressionBuilder<Database, 'articles'>) =>
					eb.or([
						eb('search_stems_lease_until', 'is', null),
						eb('search_stems_lease_until', '<', at ?? ''),
					])
				// The partial index's rows first (every save makes its article's stems due).
				const due = await trx
					.selectFrom('articles')
					.select(columns)
					.where('search_stems', 'is', null)
					.$if(at !== undefined, (query) => query.where(notHeld))
					.orderBy('id')
					.limit(limit)
					// Rows another instance is taking at this moment are passed over, not waited for.
					.$if(hold && dialect === 'postgres', (query) => query.forUpdate().skipLocked())
					.execute()
				// Asked for only when the site's language may have changed: the index of stems'
				// languages (migration 0027) answers it without reading the rows' texts.
				const relanguaged =
					siteLanguage !== undefined && due.length < limit
						? await trx
								.selectFrom('articles')
								.select(columns)
								.where('language', '=', '')
								.where('search_stems_language', '!=', siteLanguage)
								.$if(at !== undefined, (query) => query.where(notHeld))
								.orderBy('id')
								.limit(limit - due.length)
								.$if(hold && dialect === 'postgres', (query) => query.forUpdate().skipLocked())
								.execute()
						: []
				const rows = [...due, ...relanguaged]
				if (hold && lease && rows.length > 0)
					await trx
						.updateTable('articles')
						.set({
							search_stems_lease_until: new Date(lease.now.getTime() + lease.leaseMs).toISOString(),
						})
						.where(
							'id',
							'in',
							rows.map((row) => row.id),
						)
						.execute()
				return rows
			}
			// A look first, outside any transaction: an idle step (most of them) takes no lock,
			// which on SQLite is the file's write lock.
			const seen = await take(db, false)
			const rows =
				lease && seen.length > 0 ? await db.transaction().execute((trx) => take(trx, true)) : seen
			return rows.map(
				(row): UnstemmedArticle => ({
					id: Number(row.id),
					version: Number(row.version),
					language: row.language,
					title: row.title,
					summary: row.summary,
					bodyMarkdown: row.body_markdown,
				}),
			)
		},

		async setStems(entries: ArticleStems[], leftOver: number[] = []) {
			let stored = 0
			const unindexed: number[] = []
			// One transaction each: a text too long for its stems to be indexed costs only itself,
			// and SQLite holds the event loop for one article's index row at a time.
			const store = (entry: ArticleStems, stems: string, titleStems: string) =>
				db.transaction().execute(async (trx) => {
					const { id, version, language } = entry
					// PostgreSQL: the column made again from the row's words as a save makes it
					// (folded here, not in SQL), with the stems. The row is locked from this read
					// on: a tag renamed meanwhile rewrites it after this, with its new name.
					let search: { search: RawBuilder<string> } | undefined
					if (dialect === 'postgres') {
						const found = await sql<{
							title: string
							summary: string
							body: string
							terms: string
						}>`
							SELECT a.title, a.summary, a.body_markdown AS body, ${termNames(dialect)} AS terms
							FROM articles a WHERE a.id = ${id} AND a.version = ${version} FOR UPDATE OF a`.execute(
							trx,
						)
						const row = found.rows[0]
						if (!row) return false
						search = {
							search: weightedVector({
								title: row.title,
								summaryAndTerms: `${row.summary} ${row.terms}`,
								body: row.body,
								titleStems,
								stems,
							}),
						}
					}
					const updated = await trx
						.updateTable('articles')
						.set({
							search_stems: stems,
							search_title_stems: titleStems,
							search_stems_language: language,
							...search,
						})
						.where('id', '=', id)
						.where('version', '=', version)
						.executeTakeFirst()
					if (Number(updated.numUpdatedRows) === 0) return false
					// SQLite's index rows made again, now with the stems.
					if (dialect === 'sqlite') await reindexArticles(trx, dialect, [id])
					return true
				})
			for (const entry of entries) {
				try {
					if (await store(entry, onlyWords(entry.stems), onlyWords(entry.titleStems))) stored++
				} catch (error) {
					// PostgreSQL's "string is too long for tsvector" (program_limit_exceeded); any
					// other failure is the step's, tried again later.
					if ((error as { code?: unknown }).code !== '54000') throw error
					// Stored without stems: the index as the save made it, and not due again.
					if (await store(entry, '', '')) stored++
					unindexed.push(entry.id)
				}
			}
			// Whatever is still due (saved again meanwhile, left over) is the next step's, on any
			// instance. A step that failed before this leaves its leases to run out.
			const taken = [...entries.map((entry) => entry.id), ...leftOver]
			if (taken.length > 0)
				await db
					.updateTable('articles')
					.set({ search_stems_lease_until: null })
					.where('id', 'in', taken)
					.where('search_stems_lease_until', 'is not', null)
					.execute()
			return { stored, unindexed }
		},
	}
}
