// Articles in several languages (migration 0022): an original and its translations make a flat
// group, all of one kind. The checks that keep it flat run in each save's transaction; the reads
// give an article its other languages, and feeds and sitemaps the languages there are.
import { type Kysely, sql, type Transaction } from 'kysely'
import type { ArticleKind, ArticleRepository, Translation } from '../port/articles.ts'
import type { Dialect } from '../port/storage.ts'
import { prepared } from './prepared.ts'
import type { Database } from './schema.ts'

/**
 * Thrown inside a save's transaction, so that none of the save is kept; create() and update()
 * answer it with 'translation-invalid', saveBySlug() lets it through with this message.
 */
export class TranslationRefused extends Error {
	constructor() {
		super(
			'This article cannot be a translation of that one: it must be an original (no translation ' +
				'itself) of the same kind, and another article; and an article that has translations ' +
				'cannot become one. Link the translation to the original instead.',
		)
		this.name = 'TranslationRefused'
	}
}

/** Where the article being saved stands: its id (none yet when it is made) and kind. */
interface Saving {
	id?: number
	kind: ArticleKind
}

/**
 * Before the row is written: refuses a link to the article itself, to none, to a translation or
 * to the other kind. On PostgreSQL the original is read FOR SHARE: until this save commits, a save
 * making it a translation waits at its own write, then finds this translation (afterWrite).
 */
export async function checkOriginal(
	trx: Transaction<Database>,
	dialect: Dialect,
	saving: Saving,
	translationOf: number | null | undefined,
): Promise<void> {
	if (translationOf === undefined || translationOf === null) return
	if (!Number.isSafeInteger(translationOf) || translationOf <= 0 || translationOf === saving.id)
		throw new TranslationRefused()
	let query = trx
		.selectFrom('articles')
		.select(['kind', 'translation_of'])
		.where('id', '=', translationOf)
	if (dialect === 'postgres') query = query.forShare()
	const original = await query.executeTakeFirst()
	if (!original || original.kind !== saving.kind || original.translation_of !== null)
		throw new TranslationRefused()
}

/**
 * After an existing row is written (so locked against other saves): refuses making it a
 * translation while others translate it, which would chain two groups.
 */
export async function checkNotTranslated(
	trx: Transaction<Database>,
	id: number,
	translationOf: number | null | undefined,
): Promise<void> {
	if (translationOf === undefined || translationOf === null) return
	const translation = await trx
		.selectFrom('articles')
		.select('id')
		.where('translation_of', '=', id)
		.limit(1)
		.executeTakeFirst()
	if (translation) throw new TranslationRefused()
}

/** By language in code point order (alike on both databases, whatever the collation), then id. */
const byLanguage = (a: { language: string; id: number }, b: { language: string; id: number }) =>
	a.language < b.language ? -1 : a.language > b.language ? 1 : a.id - b.id

export function translationReads(
	db: Kysely<Database>,
	dialect: Dialect,
): Pick<ArticleRepository, 'translations' | 'languages'> {
	return {
		async translations(id) {
			// The group's original by its id, its translations by their index. Without statistics,
			// SQLite would rather walk every published row for the second half.
			const byLink = dialect === 'sqlite' ? sql`INDEXED BY articles_translation_of` : sql``
			const { rows } = await sql<Record<string, unknown>>`${prepared}
				WITH root AS (SELECT coalesce(translation_of, id) AS id FROM articles WHERE id = ${id})
				SELECT a.id, a.slug, a.title, a.language, a.kind FROM articles a, root
				WHERE a.id = root.id AND a.id <> ${id} AND a.status = 'published'
				UNION ALL
				SELECT a.id, a.slug, a.title, a.language, a.kind FROM articles a ${byLink}, root
				WHERE a.translation_of = root.id AND a.id <> ${id} AND a.status = 'published'`.execute(db)
			return rows
				.map(
					(row): Translation => ({
						id: Number(row.id),
						slug: String(row.slug),
						title: String(row.title),
						language: String(row.language),
						kind: row.kind === 'page' ? 'page' : 'article',
					}),
				)
				.sort(byLanguage)
		},
		async languages(kind) {
			// One step of the (status, language, kind, …) index per language there is, rather than
			// every published row: a handful of seeks however many articles there are.
			const ofKind = (table: string) =>
				kind === undefined ? sql`` : sql`AND ${sql.ref(`${table}.kind`)} = ${kind}`
			const { rows } = await sql<{ language: string | null }>`${prepared}
				WITH RECURSIVE found (language) AS (
					SELECT language FROM (SELECT f.language FROM articles f
						WHERE f.status = 'published' AND f.language > '' ${ofKind('f')}
						ORDER BY f.language LIMIT 1) AS first
					UNION ALL
					SELECT (SELECT a.language FROM articles a
						WHERE a.status = 'published' AND a.language > found.language ${ofKind('a')}
						ORDER BY a.language LIMIT 1)
					FROM found WHERE found.language IS NOT NULL
				)
				SELECT language FROM found WHERE language IS NOT NULL`.execute(db)
			return rows.map((row) => String(row.language)).sort()
		},
	}
}

/** An imported article's place in its group, as the file gives it. */
export interface ImportedArticle {
	id: number
	kind: string
	translationOf: number | null
}

/** Links per statement: three bound values each, far below either database's limit. */
const linksPerStatement = 1000

/**
 * Links imported articles to their originals once every one of them is in: an original may come
 * after its translation, and ids are kept, so the file's ids are the rows'. A link the site would
 * refuse (to an article not in the file, to itself, to a translation, to the other kind) is left
 * out: that article comes in as an original of its own.
 */
export async function linkImportedTranslations(
	trx: Transaction<Database>,
	articles: ImportedArticle[],
): Promise<void> {
	const byId = new Map(articles.map((article) => [article.id, article]))
	const links = articles.flatMap(({ id, kind, translationOf }) => {
		const original = translationOf === null ? undefined : byId.get(translationOf)
		return original &&
			original.id !== id &&
			original.kind === kind &&
			original.translationOf === null
			? [{ id, original: original.id }]
			: []
	})
	for (let start = 0; start < links.length; start += linksPerStatement) {
		const part = links.slice(start, start + linksPerStatement)
		const cases = part.map((link) => sql`WHEN ${link.id} THEN CAST(${link.original} AS BIGINT)`)
		await trx
			.updateTable('articles')
			.set({ translation_of: sql<number>`CASE id ${sql.join(cases, sql` `)} END` })
			.where(
				'id',
				'in',
				part.map((link) => link.id),
			)
			.execute()
	}
}
