// Repositories written once against Kysely and shared by both adapters. What differs between
// the databases (locking, notification, watching) comes in through ChangeHooks.
import type { Kysely, Transaction } from 'kysely'
import type { ChangeKind } from '#app/features/articles/article-types.ts'
import { cardColumns, toArticle, toCard, toChange } from './rows.ts'
import type { Database } from './schema.ts'
import type {
	ArticleRepository,
	ArticleWrite,
	Change,
	ChangeRepository,
	SettingsRepository,
} from './types.ts'

export interface ChangeHooks {
	/** Inside the transaction, before the change row: PostgreSQL serialises writers here. */
	beforeAppend(trx: Transaction<Database>): Promise<void>
	/** Inside the transaction, after the change row: PostgreSQL sends NOTIFY here. */
	afterAppend(trx: Transaction<Database>, change: Change): Promise<void>
	/** After commit: SQLite wakes this process's watchers here. */
	committed(change: Change): void
}

async function appendChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	topic: string,
	entityId: string,
	kind: ChangeKind,
): Promise<Change> {
	await hooks.beforeAppend(trx)
	const row = await trx
		.insertInto('changes')
		.values({ topic, entity_id: entityId, kind, created_at: new Date().toISOString() })
		.returningAll()
		.executeTakeFirstOrThrow()
	const change = toChange(row)
	await hooks.afterAppend(trx, change)
	return change
}

function publicChange(wasPublic: boolean, isPublic: boolean): ChangeKind | null {
	if (wasPublic && isPublic) return 'modified'
	if (isPublic) return 'added'
	if (wasPublic) return 'removed'
	return null
}

function articleColumns(write: ArticleWrite) {
	return {
		slug: write.slug,
		title: write.title,
		summary: write.summary,
		body_markdown: write.bodyMarkdown,
		body_html: write.bodyHtml,
		cover_image_url: write.coverImageUrl,
		cover_image_alt: write.coverImageAlt,
		tags: JSON.stringify(write.tags),
		author_name: write.authorName,
		status: write.status,
		reading_minutes: write.readingMinutes,
		published_at: write.publishedAt === null ? null : new Date(write.publishedAt).toISOString(),
	}
}

export function createArticleRepository(
	db: Kysely<Database>,
	hooks: ChangeHooks,
): ArticleRepository {
	const published = () =>
		db.selectFrom('articles').select(cardColumns).where('status', '=', 'published')

	return {
		async findBySlug(slug) {
			const row = await db
				.selectFrom('articles')
				.selectAll()
				.where('slug', '=', slug)
				.executeTakeFirst()
			return row && toArticle(row)
		},
		async findPublishedBySlug(slug) {
			const row = await db
				.selectFrom('articles')
				.selectAll()
				.where('slug', '=', slug)
				.where('status', '=', 'published')
				.executeTakeFirst()
			return row && toArticle(row)
		},
		async listPublished({ limit, after }) {
			let query = published()
			if (after) {
				const at = new Date(after.publishedAt).toISOString()
				query = query.where((eb) =>
					eb.or([
						eb('published_at', '<', at),
						eb.and([eb('published_at', '=', at), eb('id', '<', after.id)]),
					]),
				)
			}
			const rows = await query
				.orderBy('published_at', 'desc')
				.orderBy('id', 'desc')
				.limit(limit)
				.execute()
			return rows.map(toCard)
		},
		async listPublishedByIds(ids) {
			if (ids.length === 0) return []
			const rows = await published().where('id', 'in', ids).execute()
			return rows.map(toCard)
		},
		async listPublishedFull(limit) {
			const rows = await db
				.selectFrom('articles')
				.selectAll()
				.where('status', '=', 'published')
				.orderBy('published_at', 'desc')
				.orderBy('id', 'desc')
				.limit(limit)
				.execute()
			return rows.map(toArticle)
		},
		async count() {
			const row = await db
				.selectFrom('articles')
				.select((eb) => eb.fn.countAll().as('n'))
				.executeTakeFirstOrThrow()
			return Number(row.n)
		},
		async saveBySlug(write) {
			const saved = await db.transaction().execute(async (trx) => {
				const now = new Date().toISOString()
				const before = await trx
					.selectFrom('articles')
					.select(['id', 'status'])
					.where('slug', '=', write.slug)
					.executeTakeFirst()
				let id: number
				if (before) {
					id = Number(before.id)
					await trx
						.updateTable('articles')
						.set((eb) => ({
							...articleColumns(write),
							updated_at: now,
							version: eb('version', '+', 1),
						}))
						.where('id', '=', id)
						.execute()
				} else {
					const row = await trx
						.insertInto('articles')
						.values({ ...articleColumns(write), created_at: now, updated_at: now })
						.returning('id')
						.executeTakeFirstOrThrow()
					id = Number(row.id)
				}
				const kind = publicChange(before?.status === 'published', write.status === 'published')
				const change = kind ? await appendChange(trx, hooks, 'articles', String(id), kind) : null
				const row = await trx
					.selectFrom('articles')
					.selectAll()
					.where('id', '=', id)
					.executeTakeFirstOrThrow()
				return { article: toArticle(row), change }
			})
			if (saved.change) hooks.committed(saved.change)
			return saved
		},
		async deleteBySlug(slug) {
			const change = await db.transaction().execute(async (trx) => {
				const row = await trx
					.deleteFrom('articles')
					.where('slug', '=', slug)
					.returning(['id', 'status'])
					.executeTakeFirst()
				if (row?.status !== 'published') return null
				return appendChange(trx, hooks, 'articles', String(row.id), 'removed')
			})
			if (change) hooks.committed(change)
			return change
		},
	}
}

export function createChangeRepository(
	db: Kysely<Database>,
	watch: ChangeRepository['watch'],
): ChangeRepository {
	return {
		async latestId() {
			const row = await db
				.selectFrom('changes')
				.select((eb) => eb.fn.max('id').as('id'))
				.executeTakeFirst()
			const latest = Number(row?.id ?? 0)
			// An empty table after pruning still has a position: the horizon.
			return latest > 0 ? latest : this.horizon()
		},
		async horizon() {
			const row = await db
				.selectFrom('change_horizon')
				.select('pruned_through')
				.executeTakeFirstOrThrow()
			return Number(row.pruned_through)
		},
		async after(id, limit) {
			const rows = await db
				.selectFrom('changes')
				.selectAll()
				.where('id', '>', id)
				.orderBy('id')
				.limit(limit)
				.execute()
			return rows.map(toChange)
		},
		async prune(keep) {
			return db.transaction().execute(async (trx) => {
				const max = await trx
					.selectFrom('changes')
					.select((eb) => eb.fn.max('id').as('id'))
					.executeTakeFirst()
				const cutoff = Number(max?.id ?? 0) - keep
				if (cutoff <= 0) return 0
				const deleted = await trx.deleteFrom('changes').where('id', '<=', cutoff).executeTakeFirst()
				await trx
					.updateTable('change_horizon')
					.set({ pruned_through: cutoff })
					.where('id', '=', 1)
					.where('pruned_through', '<', cutoff)
					.execute()
				return Number(deleted.numDeletedRows)
			})
		},
		watch,
	}
}

export function createSettingsRepository(
	db: Kysely<Database>,
	hooks: ChangeHooks,
): SettingsRepository {
	return {
		async all() {
			const rows = await db.selectFrom('settings').select(['key', 'value']).execute()
			return Object.fromEntries(rows.map((row) => [row.key, row.value]))
		},
		async set(values) {
			const entries = Object.entries(values)
			if (entries.length === 0) return
			const change = await db.transaction().execute(async (trx) => {
				const now = new Date().toISOString()
				await trx
					.insertInto('settings')
					.values(entries.map(([key, value]) => ({ key, value, updated_at: now })))
					.onConflict((oc) =>
						oc.column('key').doUpdateSet((eb) => ({
							value: eb.ref('excluded.value'),
							updated_at: eb.ref('excluded.updated_at'),
						})),
					)
					.execute()
				// Settings shape every page, so page caches on every instance must hear of this.
				return appendChange(trx, hooks, 'settings', 'site', 'modified')
			})
			hooks.committed(change)
		},
		async setIfAbsent(key, value) {
			await db
				.insertInto('settings')
				.values({ key, value, updated_at: new Date().toISOString() })
				.onConflict((oc) => oc.column('key').doNothing())
				.execute()
			const row = await db
				.selectFrom('settings')
				.select('value')
				.where('key', '=', key)
				.executeTakeFirstOrThrow()
			return row.value
		},
	}
}
