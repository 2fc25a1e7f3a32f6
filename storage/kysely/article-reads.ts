// Reading articles, for both databases: public cards and pages, the editor's list, lookups.
import { type ExpressionBuilder, type Kysely, sql } from 'kysely'
import {
	type ArticleRepository,
	type LanguageFilter,
	listsLanguage,
	type PublishedAddress,
} from '../port/articles.ts'
import type { Dialect } from '../port/storage.ts'
import { withTerms } from './article-terms.ts'
import { translationReads } from './article-translations.ts'
import { likePattern } from './like-pattern.ts'
import { prepared } from './prepared.ts'
import {
	articleRowColumns,
	cardColumns,
	listItemColumns,
	toArticle,
	toCard,
	toIso,
	toListItem,
} from './rows.ts'
import type { Database } from './schema.ts'
import { matchingIds } from './search-repository.ts'

export type ArticleReads = Pick<
	ArticleRepository,
	| 'findBySlug'
	| 'findPublishedBySlug'
	| 'listPublished'
	| 'listPublishedByIds'
	| 'listPublishedFull'
	| 'count'
	| 'findById'
	| 'slugTaken'
	| 'listForEditor'
	| 'referencing'
	| 'listPublishedPages'
	| 'listPublishedAddresses'
	| 'neighbours'
>

/** A published row's address for the sitemap. */
function addressOf(row: {
	id: number
	slug: string
	updated_at: unknown
	language: string
	translation_of: number | null
}): PublishedAddress {
	return {
		id: Number(row.id),
		slug: row.slug,
		updatedAt: toIso(row.updated_at),
		language: row.language,
		translationOf: row.translation_of === null ? null : Number(row.translation_of),
	}
}

/**
 * Rows past a keyset position on (published_at, id): older with '<', newer with '>'. A row-value
 * comparison, which both databases use as a range on the (status, published_at, id) index; the
 * same condition spelt with OR was a filter over every row before the position (4 ms on
 * PostgreSQL and 0.8 ms on SQLite for the middle of 10,000 articles, against 0.1 and 0.01).
 */
function pastCursor(
	eb: ExpressionBuilder<Database, 'articles'>,
	direction: '<' | '>',
	at: string,
	id: number,
) {
	return eb(eb.refTuple('published_at', 'id'), direction, eb.tuple(at, id))
}

export function articleReads(db: Kysely<Database>, dialect: Dialect): ArticleReads {
	const stored = translationReads(db, dialect)
	/**
	 * The stored languages a list's filter takes, for an IN (…) the index serves: its tag, the
	 * site's own ('') with includeUnset, and, given `others`, each language articles are in that
	 * the filter lists (a handful, found by stepping the index: languages()).
	 */
	const languagesOf = async (filter: LanguageFilter): Promise<string[]> => {
		const taken = [filter.tag, ...(filter.includeUnset ? [''] : [])]
		if (filter.others)
			for (const language of await stored.languages('article'))
				if (listsLanguage(filter, language)) taken.push(language)
		return [...new Set(taken)]
	}
	// Lists, feeds and the live stream are of articles: pages are reached by their address.
	const published = () =>
		db
			.selectFrom('articles')
			.modifyFront(prepared)
			.select(cardColumns)
			.where('status', '=', 'published')
			.where('kind', '=', 'article')
	/** The ids of articles with the tag (or by the author) at this address. */
	const taggedWith = (slug: string) =>
		db
			.selectFrom('article_tags')
			.innerJoin('tags', 'tags.id', 'article_tags.tag_id')
			.select('article_tags.article_id')
			.where('tags.slug', '=', slug)
	const writtenBy = (slug: string) =>
		db
			.selectFrom('article_authors')
			.innerJoin('authors', 'authors.id', 'article_authors.author_id')
			.select('article_authors.article_id')
			.where('authors.slug', '=', slug)
	const cards = (rows: Record<string, unknown>[]) =>
		withTerms(db, rows as { id: unknown }[], toCard)
	const articles = (rows: Record<string, unknown>[]) =>
		withTerms(db, rows as { id: unknown }[], toArticle)
	const article = async (row: Record<string, unknown> | undefined) =>
		row ? (await articles([row]))[0] : undefined

	return {
		async findBySlug(slug) {
			const row = await db
				.selectFrom('articles')
				.select(articleRowColumns)
				.where('slug', '=', slug)
				.executeTakeFirst()
			return article(row)
		},
		async referencing(fragments) {
			const wanted = [...new Set(fragments)].filter(Boolean)
			if (wanted.length === 0) return []
			const rows = await db
				.selectFrom('articles')
				.select(articleRowColumns)
				.where((eb) =>
					eb.or(
						wanted.flatMap((fragment) => {
							// A hash is lowercase, as likePattern makes it.
							const pattern = likePattern(fragment)
							return (['cover_image_url', 'body_markdown'] as const).map(
								(column) => sql<boolean>`${eb.ref(column)} like ${pattern} escape '\\'`,
							)
						}),
					),
				)
				.orderBy('updated_at', 'desc')
				.limit(500)
				.execute()
			return articles(rows)
		},
		async findPublishedBySlug(slug, kind = 'article') {
			const row = await db
				.selectFrom('articles')
				.modifyFront(prepared)
				.select(articleRowColumns)
				.where('slug', '=', slug)
				.where('status', '=', 'published')
				.where('kind', '=', kind)
				.executeTakeFirst()
			return article(row)
		},
		async listPublishedAddresses(limit) {
			const rows = await db
				.selectFrom('articles')
				.select(['id', 'slug', 'updated_at', 'language', 'translation_of'])
				.where('status', '=', 'published')
				.where('kind', '=', 'article')
				.orderBy('published_at', 'desc')
				.orderBy('id', 'desc')
				.limit(limit)
				.execute()
			return rows.map(addressOf)
		},
		async listPublishedPages() {
			const rows = await db
				.selectFrom('articles')
				.select(['id', 'slug', 'title', 'updated_at', 'language', 'translation_of'])
				.where('status', '=', 'published')
				.where('kind', '=', 'page')
				.orderBy('title')
				.execute()
			return rows.map((row) => ({ ...addressOf(row), title: row.title }))
		},
		async listPublished({ limit, after, tag, author, language }) {
			let query = published()
			const at = after && new Date(after.publishedAt).toISOString()
			const pastIn = (table: 'a' | 'r') =>
				after
					? sql`AND (${sql.ref(`${table}.published_at`)}, ${sql.ref(`${table}.id`)}) < (${at}, ${after.id})`
					: sql``
			const languages = language && (await languagesOf(language))
			const inLanguage = languages ? sql`AND a.language IN (${sql.join(languages)})` : sql``
			if (tag !== undefined || author !== undefined) {
				const onTag = sql`EXISTS (SELECT 1 FROM article_tags l JOIN tags t ON t.id = l.tag_id
					WHERE l.article_id = w.id AND t.slug = ${tag ?? ''})`
				const byAuthor = sql`EXISTS (SELECT 1 FROM article_authors l
					JOIN authors p ON p.id = l.author_id WHERE l.article_id = w.id AND p.slug = ${author ?? ''})`
				const carries = sql.join(
					[...(tag !== undefined ? [onTag] : []), ...(author !== undefined ? [byAuthor] : [])],
					sql` AND `,
				)
				// Walking the newest published articles in date order finds a tag's (or author's)
				// newest within a few dozen rows: 0.03 ms for a tag on a third of 10,000 articles,
				// 0.1 ms for one on 4 %, against 1.3–1.7 ms listing all their ids to sort them. At
				// most `window` rows are read so; one too rare to fill a page among them is listed
				// by its ids below.
				const window = 500
				// SQLite would pick the id-first covering index and sort; PostgreSQL finds its way.
				const inOrder = dialect === 'sqlite' ? sql`INDEXED BY articles_published_order` : sql``
				const { rows: walked } = await sql<{ id: number }>`${prepared} SELECT w.id FROM (
						SELECT r.id, r.published_at FROM articles r ${inOrder}
						WHERE r.status = 'published' ${pastIn('r')}
						ORDER BY r.published_at DESC, r.id DESC LIMIT ${window}) AS w
					JOIN articles a ON a.id = w.id
					WHERE a.kind = 'article' AND ${carries} ${inLanguage}
					ORDER BY w.published_at DESC, w.id DESC LIMIT ${limit}`.execute(db)
				// The newest ids first, on SQLite from a covering index (migrations 0020 and 0022),
				// then those rows alone. Testing each of a big tag's articles in its row would read
				// past its long texts (overflow pages) to the status, date and language.
				const byIds = dialect === 'sqlite' ? sql`INDEXED BY articles_visibility` : sql``
				const newest =
					walked.length >= limit
						? sql`(${sql.join(walked.map((row) => row.id))})`
						: sql`(SELECT a.id FROM articles a ${byIds}
					WHERE a.status = 'published' AND a.kind = 'article'
					${tag !== undefined ? sql`AND a.id IN (${taggedWith(tag)})` : sql``}
					${author !== undefined ? sql`AND a.id IN (${writtenBy(author)})` : sql``}
					${inLanguage} ${pastIn('a')}
					ORDER BY a.published_at DESC, a.id DESC LIMIT ${limit})`
				query = query.where(sql<boolean>`id IN ${newest}`)
			} else if (languages) {
				// The newest of each language from its own range of the language index (migration
				// 0022), then those rows alone. One IN over the languages would read every row in
				// them to sort them, and the date index alone every row of the others.
				const byLanguage = dialect === 'sqlite' ? sql`INDEXED BY articles_language_order` : sql``
				const newest = languages.map(
					(one, i) => sql`SELECT id FROM (SELECT a.id FROM articles a ${byLanguage}
						WHERE a.status = 'published' AND a.language = ${one} AND a.kind = 'article'
						${pastIn('a')}
						ORDER BY a.published_at DESC, a.id DESC LIMIT ${limit}) AS ${sql.raw(`l${i}`)}`,
				)
				query = query.where(sql<boolean>`id IN (${sql.join(newest, sql` UNION ALL `)})`)
			} else if (after && at) query = query.where((eb) => pastCursor(eb, '<', at, after.id))
			const rows = await query
				.orderBy('published_at', 'desc')
				.orderBy('id', 'desc')
				.limit(limit)
				.execute()
			return cards(rows)
		},
		async neighbours({ publishedAt, id }, language) {
			const at = new Date(publishedAt).toISOString()
			const languages = language && (await languagesOf(language))
			const inLanguage = () =>
				languages ? published().where('language', 'in', languages) : published()
			const [older, newer] = await Promise.all([
				inLanguage()
					.where((eb) => pastCursor(eb, '<', at, id))
					.orderBy('published_at', 'desc')
					.orderBy('id', 'desc')
					.limit(1)
					.executeTakeFirst(),
				inLanguage()
					.where((eb) => pastCursor(eb, '>', at, id))
					.orderBy('published_at', 'asc')
					.orderBy('id', 'asc')
					.limit(1)
					.executeTakeFirst(),
			])
			const found = await cards([older, newer].filter((row) => row !== undefined))
			const card = (row: typeof older) => found.find((one) => one.id === Number(row?.id)) ?? null
			return { newer: card(newer), older: card(older) }
		},
		async listPublishedByIds(ids) {
			if (ids.length === 0) return []
			const rows = await published().where('id', 'in', ids).execute()
			return cards(rows)
		},
		async listPublishedFull(limit, { tag, author, language } = {}) {
			let query = db
				.selectFrom('articles')
				.select(articleRowColumns)
				.where('status', '=', 'published')
				.where('kind', '=', 'article')
			if (tag !== undefined) query = query.where('id', 'in', taggedWith(tag))
			if (author !== undefined) query = query.where('id', 'in', writtenBy(author))
			if (language) query = query.where('language', 'in', await languagesOf(language))
			const rows = await query
				.orderBy('published_at', 'desc')
				.orderBy('id', 'desc')
				.limit(limit)
				.execute()
			return articles(rows)
		},
		async count() {
			const row = await db
				.selectFrom('articles')
				.select((eb) => eb.fn.countAll().as('n'))
				.executeTakeFirstOrThrow()
			return Number(row.n)
		},
		async findById(id) {
			const row = await db
				.selectFrom('articles')
				.select(articleRowColumns)
				.where('id', '=', id)
				.executeTakeFirst()
			return article(row)
		},
		async slugTaken(slug, exceptId) {
			let query = db.selectFrom('articles').select('id').where('slug', '=', slug)
			if (exceptId !== undefined) query = query.where('id', '!=', exceptId)
			return (await query.executeTakeFirst()) !== undefined
		},
		async listForEditor({ query, status, kind = 'article', limit, offset }) {
			let base = db.selectFrom('articles').where('kind', '=', kind)
			if (status === 'published') base = base.where('status', '=', 'published')
			if (status === 'draft')
				base = base.where('status', '=', 'draft').where('publish_at', 'is', null)
			if (status === 'scheduled')
				base = base.where('status', '=', 'draft').where('publish_at', 'is not', null)
			// The search index, as readers' search uses it (docs/decisions/030-search.md).
			if (query) base = base.where(sql<boolean>`id IN ${matchingIds(dialect, query)}`)
			const [rows, total] = await Promise.all([
				base
					.select(listItemColumns)
					.orderBy('updated_at', 'desc')
					.orderBy('id', 'desc')
					.limit(limit)
					.offset(offset)
					.execute(),
				base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
			])
			return { items: await withTerms(db, rows, toListItem), total: Number(total.n) }
		},
	}
}
