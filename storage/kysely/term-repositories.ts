// Tags and author profiles (docs/decisions/026-tags-and-authors.md), for both databases. The two
// differ in their columns only; renaming, merging and deleting are the same walk: the row, a 301
// from its old address, a change for every published article that shows it, and the search index
// of every article that carries it, all in one transaction.
import { type Kysely, sql, type Transaction } from 'kysely'
import type { ArticleRules } from '../port/articles.ts'
import type { Change } from '../port/changes.ts'
import type { Dialect } from '../port/storage.ts'
import type {
	AuthorEdit,
	AuthorProfile,
	AuthorRepository,
	Counted,
	Tag,
	TagEdit,
	TagRepository,
	TermEditResult,
} from '../port/terms.ts'
import { isUniqueViolation } from './article-save.ts'
import { resolveTerms } from './article-terms.ts'
import { appendChange, type ChangeHooks } from './change-repository.ts'
import { recordMove } from './redirect-repository.ts'
import { toIso } from './rows.ts'
import type { Database } from './schema.ts'
import { reindexArticles } from './search-repository.ts'

type Row = Record<string, unknown>

function toTag(row: Row): Tag {
	return {
		id: Number(row.id),
		slug: String(row.slug),
		name: String(row.name),
		description: String(row.description),
		coverImageUrl: (row.cover_image_url as string | null) ?? null,
		coverImageAlt: (row.cover_image_alt as string | null) ?? null,
		...(row.articles === undefined ? {} : { articles: Number(row.articles) }),
		updatedAt: toIso(row.updated_at),
	}
}

function toAuthor(row: Row): AuthorProfile {
	return {
		id: Number(row.id),
		slug: String(row.slug),
		name: String(row.name),
		bio: String(row.bio),
		avatarUrl: (row.avatar_url as string | null) ?? null,
		website: (row.website as string | null) ?? null,
		userId: (row.user_id as string | null) ?? null,
		...(row.articles === undefined ? {} : { articles: Number(row.articles) }),
		updatedAt: toIso(row.updated_at),
	}
}

/** Where the two kinds differ: their tables, the link's column, and the columns an edit sets. */
interface TermKind<T, Edit> {
	kind: 'tag' | 'author'
	table: 'tags' | 'authors'
	link: 'article_tags' | 'article_authors'
	column: 'tag_id' | 'author_id'
	toTerm(row: Row): T
	columns(edit: Edit): Row
}

const tagKind: TermKind<Tag, TagEdit> = {
	kind: 'tag',
	table: 'tags',
	link: 'article_tags',
	column: 'tag_id',
	toTerm: toTag,
	columns: (edit) => ({
		slug: edit.slug,
		name: edit.name,
		description: edit.description,
		cover_image_url: edit.coverImageUrl,
		cover_image_alt: edit.coverImageUrl ? edit.coverImageAlt : null,
	}),
}

const authorKind: TermKind<AuthorProfile, AuthorEdit> = {
	kind: 'author',
	table: 'authors',
	link: 'article_authors',
	column: 'author_id',
	toTerm: toAuthor,
	columns: (edit) => ({
		slug: edit.slug,
		name: edit.name,
		bio: edit.bio,
		avatar_url: edit.avatarUrl,
		website: edit.website,
		user_id: edit.userId,
	}),
}

/**
 * The term repository for one kind. Kysely's types follow one table at a time, so the queries
 * over "either table" are typed as the tags table's; the columns they touch exist in both.
 */
function termRepository<
	T extends { id: number; slug: string; name: string },
	Edit extends { slug: string; name: string },
>(
	db: Kysely<Database>,
	dialect: Dialect,
	hooks: ChangeHooks,
	rules: ArticleRules,
	spec: TermKind<T, Edit>,
) {
	const table = spec.table as 'tags'
	const link = spec.link as 'article_tags'
	const column = spec.column as 'tag_id'
	const topic = spec.table

	const withCounts = (from: Kysely<Database> | Transaction<Database>) =>
		from
			.selectFrom(table)
			.selectAll()
			.select((eb) =>
				eb
					.selectFrom(link)
					.innerJoin('articles', 'articles.id', `${link}.article_id` as 'article_tags.article_id')
					.select((inner) => inner.fn.countAll().as('n'))
					.whereRef(`${link}.${column}` as 'article_tags.tag_id', '=', `${table}.id` as 'tags.id')
					.where('articles.status', '=', 'published')
					.where('articles.kind', '=', 'article')
					.as('articles'),
			)

	/** The published articles that show this term: their cards change with it. */
	async function showing(trx: Transaction<Database>, id: number): Promise<number[]> {
		const rows = await trx
			.selectFrom(link)
			.innerJoin('articles', 'articles.id', `${link}.article_id` as 'article_tags.article_id')
			.select('articles.id')
			.where(`${link}.${column}` as 'article_tags.tag_id', '=', id)
			.where('articles.status', '=', 'published')
			.where('articles.kind', '=', 'article')
			.execute()
		return rows.map((row) => Number(row.id))
	}

	/** Every article that carries this term, drafts too: their search index holds its name. */
	async function carrying(trx: Transaction<Database>, id: number): Promise<number[]> {
		const rows = await trx.selectFrom(link).select('article_id').where(column, '=', id).execute()
		return rows.map((row) => Number(row.article_id))
	}

	/** Changes for the term and for each article shown with it, returned to announce at commit. */
	async function changed(
		trx: Transaction<Database>,
		id: number,
		kind: 'modified' | 'removed',
		articleIds: number[],
	): Promise<Change[]> {
		const changes = [await appendChange(trx, hooks, topic, String(id), kind)]
		for (const articleId of articleIds)
			changes.push(await appendChange(trx, hooks, 'articles', String(articleId), 'modified'))
		return changes
	}

	async function find(from: Kysely<Database> | Transaction<Database>, id: number) {
		const row = await withCounts(from)
			.where(`${table}.id` as 'tags.id', '=', id)
			.executeTakeFirst()
		return row && (spec.toTerm(row) as Counted<T>)
	}

	/** Runs `work` in a transaction; announces its changes once committed. */
	async function writing<R>(
		work: (trx: Transaction<Database>, changes: Change[]) => Promise<R>,
	): Promise<R> {
		const changes: Change[] = []
		const result = await db.transaction().execute((trx) => work(trx, changes))
		for (const change of changes) hooks.committed(change)
		return result
	}

	return {
		async list() {
			const rows = await withCounts(db)
				.orderBy(sql`lower(${sql.ref(`${table}.name`)})`)
				.orderBy(`${table}.id` as 'tags.id')
				.execute()
			return rows.map((row) => spec.toTerm(row) as Counted<T>)
		},
		async findBySlug(slug: string) {
			const row = await db.selectFrom(table).selectAll().where('slug', '=', slug).executeTakeFirst()
			return row && spec.toTerm(row)
		},
		findById: (id: number) => find(db, id),
		async update(id: number, edit: Edit): Promise<TermEditResult<T>> {
			try {
				return await writing(async (trx, changes) => {
					const before = await find(trx, id)
					if (!before) return { ok: false, reason: 'missing' }
					await trx
						.updateTable(table)
						.set({ ...spec.columns(edit), updated_at: new Date().toISOString() })
						.where('id', '=', id)
						.execute()
					if (before.name !== edit.name)
						await reindexArticles(trx, dialect, await carrying(trx, id))
					if (before.slug !== edit.slug) {
						const moved = await recordMove(
							trx,
							hooks,
							rules.address(spec.kind, before.slug),
							rules.address(spec.kind, edit.slug),
						)
						if (moved) changes.push(moved)
					}
					changes.push(...(await changed(trx, id, 'modified', await showing(trx, id))))
					const after = await find(trx, id)
					return after ? { ok: true, value: after } : { ok: false, reason: 'missing' }
				})
			} catch (error) {
				if (!isUniqueViolation(error)) throw error
				const message = String((error as { message?: unknown }).message ?? '')
				return { ok: false, reason: message.includes('user_id') ? 'account-taken' : 'slug-taken' }
			}
		},
		async merge(id: number, intoId: number): Promise<TermEditResult<T>> {
			return writing(async (trx, changes) => {
				const [from, into] = [await find(trx, id), await find(trx, intoId)]
				if (!from || !into || id === intoId) return { ok: false, reason: 'missing' }
				const affected = await showing(trx, id)
				const carriers = await carrying(trx, id)
				await trx
					.insertInto(link)
					.columns(['article_id', column, 'position'])
					.expression((eb) =>
						eb
							.selectFrom(link)
							.select(['article_id', sql<number>`${intoId}`.as(column), 'position'])
							.where(column, '=', id),
					)
					.onConflict((oc) => oc.columns(['article_id', column]).doNothing())
					.execute()
				await trx.deleteFrom(table).where('id', '=', id).execute()
				await reindexArticles(trx, dialect, carriers)
				const moved = await recordMove(
					trx,
					hooks,
					rules.address(spec.kind, from.slug),
					rules.address(spec.kind, into.slug),
				)
				if (moved) changes.push(moved)
				changes.push(await appendChange(trx, hooks, topic, String(id), 'removed'))
				changes.push(...(await changed(trx, intoId, 'modified', affected)))
				const after = await find(trx, intoId)
				return after ? { ok: true, value: after } : { ok: false, reason: 'missing' }
			})
		},
		async delete(id: number) {
			return writing(async (trx, changes) => {
				const affected = await showing(trx, id)
				const carriers = await carrying(trx, id)
				const result = await trx.deleteFrom(table).where('id', '=', id).executeTakeFirst()
				if (Number(result.numDeletedRows) === 0) return false
				await reindexArticles(trx, dialect, carriers)
				changes.push(...(await changed(trx, id, 'removed', affected)))
				return true
			})
		},
		find,
		writing,
	}
}

export function createTagRepository(
	db: Kysely<Database>,
	dialect: Dialect,
	hooks: ChangeHooks,
	rules: ArticleRules,
): TagRepository {
	const {
		find: _find,
		writing: _writing,
		...tags
	} = termRepository(db, dialect, hooks, rules, tagKind)
	return tags
}

export function createAuthorRepository(
	db: Kysely<Database>,
	dialect: Dialect,
	hooks: ChangeHooks,
	rules: ArticleRules,
): AuthorRepository {
	const { find, writing, ...authors } = termRepository(db, dialect, hooks, rules, authorKind)
	return {
		...authors,
		async forUser(userId, name) {
			const own = await db
				.selectFrom('authors')
				.select('id')
				.where('user_id', '=', userId)
				.executeTakeFirst()
			if (own) return (await find(db, Number(own.id))) as Counted<AuthorProfile>
			const id = await writing(async (trx) => {
				const now = new Date().toISOString()
				const [named] = await resolveTerms(trx, dialect, rules, 'author', [name], now)
				const claimed = named
					? await trx
							.updateTable('authors')
							.set({ user_id: userId, updated_at: now })
							.where('id', '=', named.id)
							.where('user_id', 'is', null)
							.executeTakeFirst()
					: undefined
				if (named && Number(claimed?.numUpdatedRows ?? 0) === 1) return named.id
				// Another member has this name's profile: theirs stays theirs; this one gets its own.
				const base = rules.termSlug('author', name)
				const made = await trx
					.insertInto('authors')
					.values({
						slug: `${base.slice(0, 70)}-${userId.slice(0, 8).toLowerCase()}`,
						name,
						user_id: userId,
						created_at: now,
						updated_at: now,
					})
					.returning('id')
					.executeTakeFirstOrThrow()
				return Number(made.id)
			})
			return (await find(db, id)) as Counted<AuthorProfile>
		},
	}
}
