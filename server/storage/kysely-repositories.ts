// Repositories written once against Kysely and shared by both adapters. What differs between
// the databases (locking, notification, watching) comes in through ChangeHooks.
import { type Kysely, sql, type Transaction } from 'kysely'
import type { ChangeKind } from '#app/features/articles/article-types.ts'
import { announceArticle, cancelArticleDeliveries } from './push-repositories.ts'
import { cardColumns, listItemColumns, toArticle, toCard, toChange, toListItem } from './rows.ts'
import type { Database } from './schema.ts'
import type {
	ArticleRepository,
	ArticleWrite,
	Change,
	ChangeRepository,
	Dialect,
	SavedArticle,
	SettingsRepository,
} from './types.ts'

export interface ChangeHooks {
	/**
	 * PostgreSQL only. The change row's INSERT first takes this transaction-level advisory lock,
	 * held to commit: the next writer gets its id only after this one is visible, so ids become
	 * visible in order and a reader at id N never misses a smaller id committed later. The same
	 * statement queues the NOTIFY carrying the id on `channel` (sent at commit). One statement,
	 * one round trip, instead of three.
	 */
	postgres?: { lock: number; channel: string }
	/** After commit: SQLite wakes this process's watchers here. */
	committed(change: Change): void
}

export async function appendChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	topic: string,
	entityId: string,
	kind: ChangeKind,
): Promise<Change> {
	const createdAt = new Date().toISOString()
	if (!hooks.postgres) {
		const row = await trx
			.insertInto('changes')
			.values({ topic, entity_id: entityId, kind, created_at: createdAt })
			.returningAll()
			.executeTakeFirstOrThrow()
		return toChange(row)
	}
	const { lock, channel } = hooks.postgres
	// The identity's nextval() runs as each row of the SELECT is inserted, so after the lock.
	const { rows } = await sql<Record<string, unknown>>`WITH locked AS (
			SELECT pg_advisory_xact_lock(${lock})
		), added AS (
			INSERT INTO changes (topic, entity_id, kind, created_at)
			SELECT ${topic}, ${entityId}, ${kind}, ${createdAt}::timestamptz FROM locked
			RETURNING *
		)
		SELECT added.*, pg_notify(${channel}, added.id::text) FROM added`.execute(trx)
	return toChange(onlyRow(rows))
}

/**
 * PostgreSQL: an article going public for the first time, in one statement. It marks the
 * article announced, queues one push delivery per live subscription (decision 014), then takes
 * the change lock (after the deliveries: the count reads them all first, so the lock is not held
 * through ten thousand inserts) and writes the change row with its NOTIFY, as appendChange does.
 */
async function announceWithChange(
	trx: Transaction<Database>,
	{ lock, channel }: NonNullable<ChangeHooks['postgres']>,
	articleId: number,
	now: string,
): Promise<{ change: Change; announcedAt: string | null }> {
	const createdAt = new Date().toISOString()
	const { rows } = await sql<Record<string, unknown>>`WITH marked AS (
			UPDATE articles SET notified_at = ${now}::timestamptz
			WHERE id = ${articleId} AND notify = TRUE AND notified_at IS NULL
			RETURNING id, notified_at
		), queued AS (
			INSERT INTO push_deliveries (article_id, subscription_id, created_at, next_attempt_at)
			SELECT marked.id, push_subscriptions.id, marked.notified_at, marked.notified_at
			FROM marked JOIN push_subscriptions
				ON push_subscriptions.expiration_time IS NULL
				OR push_subscriptions.expiration_time > marked.notified_at
			RETURNING 1
		), locked AS (
			SELECT pg_advisory_xact_lock(${lock})
			FROM (SELECT count(*) FROM queued) AS every_delivery_written
		), added AS (
			INSERT INTO changes (topic, entity_id, kind, created_at)
			SELECT 'articles', ${String(articleId)}, 'added', ${createdAt}::timestamptz FROM locked
			RETURNING *
		)
		SELECT added.*, pg_notify(${channel}, added.id::text),
			(SELECT count(*) FROM marked) AS announced
		FROM added`.execute(trx)
	const row = onlyRow(rows)
	return { change: toChange(row), announcedAt: Number(row.announced) > 0 ? now : null }
}

function onlyRow(rows: Record<string, unknown>[]): Record<string, unknown> {
	const [row] = rows
	if (!row) throw new Error('The change row was not written.')
	return row
}

/**
 * What a save means for readers and for push, written in the save's transaction: the change row
 * for the live feed and, the first time an article goes public, its announcement (deliveries
 * queued); when it stops being public, what has not gone out is cancelled. Returns the change
 * (none for a draft saved as a draft) and the announcement time, when it was announced now.
 */
async function recordArticleChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	articleId: number,
	kind: ChangeKind,
	now: string,
): Promise<{ change: Change; announcedAt: string | null }>
async function recordArticleChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	articleId: number,
	kind: ChangeKind | null,
	now: string,
): Promise<{ change: Change | null; announcedAt: string | null }>
async function recordArticleChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	articleId: number,
	kind: ChangeKind | null,
	now: string,
): Promise<{ change: Change | null; announcedAt: string | null }> {
	if (!kind) return { change: null, announcedAt: null }
	if (kind === 'added' && hooks.postgres)
		return announceWithChange(trx, hooks.postgres, articleId, now)
	let announcedAt: string | null = null
	// Before the change row, so PostgreSQL's change lock is not held through the deliveries.
	if (kind === 'added') announcedAt = (await announceArticle(trx, articleId, now)) ? now : null
	if (kind === 'removed') await cancelArticleDeliveries(trx, articleId, now)
	const change = await appendChange(trx, hooks, 'articles', String(articleId), kind)
	return { change, announcedAt }
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
		// Only a draft waits for a time; publishing (by hand or by the job) clears it.
		publish_at:
			write.status === 'draft' && write.publishAt ? new Date(write.publishAt).toISOString() : null,
		// Left out when not given: saving an article keeps the choice made for it.
		...(write.notify === undefined ? {} : { notify: write.notify }),
	}
}

/** A unique-constraint failure on either database (the slug, raced by another writer). */
function isUniqueViolation(error: unknown): boolean {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
	return code === '23505' || (typeof message === 'string' && message.includes('UNIQUE constraint'))
}

/** Escapes LIKE's wildcards so a search for "50%" finds "50%" (use with `escape '\\'`). */
export function likePattern(words: string): string {
	return `%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

export function createArticleRepository(
	db: Kysely<Database>,
	hooks: ChangeHooks,
	dialect: Dialect,
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
				const row = before
					? await trx
							.updateTable('articles')
							.set((eb) => ({
								...articleColumns(write),
								updated_at: now,
								version: eb('version', '+', 1),
							}))
							.where('id', '=', before.id)
							.returningAll()
							.executeTakeFirstOrThrow()
					: await trx
							.insertInto('articles')
							.values({ ...articleColumns(write), created_at: now, updated_at: now })
							.returningAll()
							.executeTakeFirstOrThrow()
				const id = Number(row.id)
				const kind = publicChange(before?.status === 'published', write.status === 'published')
				const { change, announcedAt } = await recordArticleChange(trx, hooks, id, kind, now)
				return {
					article: toArticle({ ...row, notified_at: announcedAt ?? row.notified_at }),
					change,
				}
			})
			if (saved.change) hooks.committed(saved.change)
			return saved
		},
		async findById(id) {
			const row = await db
				.selectFrom('articles')
				.selectAll()
				.where('id', '=', id)
				.executeTakeFirst()
			return row && toArticle(row)
		},
		async slugTaken(slug, exceptId) {
			let query = db.selectFrom('articles').select('id').where('slug', '=', slug)
			if (exceptId !== undefined) query = query.where('id', '!=', exceptId)
			return (await query.executeTakeFirst()) !== undefined
		},
		async listForEditor({ query, status, limit, offset }) {
			let base = db.selectFrom('articles')
			if (status === 'published') base = base.where('status', '=', 'published')
			if (status === 'draft')
				base = base.where('status', '=', 'draft').where('publish_at', 'is', null)
			if (status === 'scheduled')
				base = base.where('status', '=', 'draft').where('publish_at', 'is not', null)
			const words = query?.trim()
			if (words) {
				const pattern = likePattern(words)
				base = base.where((eb) =>
					eb.or(
						(['title', 'slug', 'summary'] as const).map(
							(column) => sql<boolean>`lower(${eb.ref(column)}) like ${pattern} escape '\\'`,
						),
					),
				)
			}
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
			return { items: rows.map(toListItem), total: Number(total.n) }
		},
		async create(write) {
			let saved: SavedArticle
			try {
				saved = await db.transaction().execute(async (trx) => {
					const now = new Date().toISOString()
					const row = await trx
						.insertInto('articles')
						.values({ ...articleColumns(write), created_at: now, updated_at: now })
						.returningAll()
						.executeTakeFirstOrThrow()
					const kind = write.status === 'published' ? 'added' : null
					const { change, announcedAt } = await recordArticleChange(
						trx,
						hooks,
						Number(row.id),
						kind,
						now,
					)
					return {
						article: toArticle({ ...row, notified_at: announcedAt ?? row.notified_at }),
						change,
					}
				})
			} catch (error) {
				if (isUniqueViolation(error)) return { ok: false, reason: 'slug-taken' }
				throw error
			}
			if (saved.change) hooks.committed(saved.change)
			return { ok: true, saved }
		},
		async update(id, expectedVersion, write) {
			type Outcome = Awaited<ReturnType<ArticleRepository['update']>>
			let outcome: Outcome
			try {
				outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
					const now = new Date().toISOString()
					const before = await trx
						.selectFrom('articles')
						.selectAll()
						.where('id', '=', id)
						.executeTakeFirst()
					if (!before) return { ok: false, reason: 'missing' }
					if (Number(before.version) !== expectedVersion)
						return { ok: false, reason: 'conflict', current: toArticle(before) }
					const updated = await trx
						.updateTable('articles')
						.set((eb) => ({
							...articleColumns(write),
							updated_at: now,
							version: eb('version', '+', 1),
						}))
						.where('id', '=', id)
						// Checked again in the write itself: on PostgreSQL two transactions can both
						// pass the read above, and only one of them may win.
						.where('version', '=', expectedVersion)
						.returningAll()
						.executeTakeFirst()
					if (!updated) {
						const current = await trx
							.selectFrom('articles')
							.selectAll()
							.where('id', '=', id)
							.executeTakeFirst()
						return current
							? { ok: false, reason: 'conflict', current: toArticle(current) }
							: { ok: false, reason: 'missing' }
					}
					const kind = publicChange(before.status === 'published', write.status === 'published')
					const { change, announcedAt } = await recordArticleChange(trx, hooks, id, kind, now)
					const article = toArticle({ ...updated, notified_at: announcedAt ?? updated.notified_at })
					return { ok: true, saved: { article, change } }
				})
			} catch (error) {
				if (isUniqueViolation(error)) return { ok: false, reason: 'slug-taken' }
				throw error
			}
			if (outcome.ok && outcome.saved.change) hooks.committed(outcome.saved.change)
			return outcome
		},
		async deleteById(id, expectedVersion) {
			type Outcome = Awaited<ReturnType<ArticleRepository['deleteById']>>
			const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
				// Its push deliveries go with it (ON DELETE CASCADE), so nothing more of it is sent.
				let query = trx.deleteFrom('articles').where('id', '=', id)
				if (expectedVersion !== undefined) query = query.where('version', '=', expectedVersion)
				const row = await query.returning(['id', 'status']).executeTakeFirst()
				if (!row) {
					const exists = await trx
						.selectFrom('articles')
						.select('id')
						.where('id', '=', id)
						.executeTakeFirst()
					return { ok: false, reason: exists ? 'conflict' : 'missing' }
				}
				if (row.status !== 'published') return { ok: true, change: null }
				return {
					ok: true,
					change: await appendChange(trx, hooks, 'articles', String(id), 'removed'),
				}
			})
			if (outcome.ok && outcome.change) hooks.committed(outcome.change)
			return outcome
		},
		async publishDue(now, limit) {
			const at = now.toISOString()
			const published = await db.transaction().execute(async (trx) => {
				let due = trx
					.selectFrom('articles')
					.select(['id', 'publish_at'])
					.where('status', '=', 'draft')
					.where('publish_at', 'is not', null)
					.where('publish_at', '<=', at)
					.orderBy('publish_at')
					.limit(limit)
				// Instances running the job together each take different rows, never the same one.
				// (SQLite has one writer at a time: the transaction itself is the lock.)
				if (dialect === 'postgres') due = due.forUpdate().skipLocked()
				const rows = await due.execute()
				const done: { article: ReturnType<typeof toArticle>; change: Change }[] = []
				for (const row of rows) {
					const updated = await trx
						.updateTable('articles')
						.set((eb) => ({
							status: 'published',
							published_at: row.publish_at,
							publish_at: null,
							updated_at: at,
							version: eb('version', '+', 1),
						}))
						.where('id', '=', Number(row.id))
						.where('status', '=', 'draft')
						.returningAll()
						.executeTakeFirst()
					if (!updated) continue
					const { change, announcedAt } = await recordArticleChange(
						trx,
						hooks,
						Number(row.id),
						'added',
						at,
					)
					done.push({
						article: toArticle({ ...updated, notified_at: announcedAt ?? updated.notified_at }),
						change,
					})
				}
				return done
			})
			for (const { change } of published) hooks.committed(change)
			return published.map(({ article }) => article)
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
		async deleteByPrefix(prefix, keep) {
			// substr, not LIKE: a prefix is matched literally on both databases, wildcards and all.
			let query = db
				.deleteFrom('settings')
				.where(sql<string>`substr(key, 1, ${prefix.length})`, '=', prefix)
			if (keep.length > 0) query = query.where('key', 'not in', keep)
			const result = await query.executeTakeFirst()
			return Number(result.numDeletedRows)
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
