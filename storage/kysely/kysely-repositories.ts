// Repositories written once against Kysely and shared by both adapters. What differs between
// the databases (locking, notification, watching) comes in through ChangeHooks.
import {
	type InsertQueryBuilder,
	type InsertResult,
	type Kysely,
	sql,
	type Transaction,
} from 'kysely'
import type { ChangeKind } from '../port/changes.ts'
import { articleDeliveries, cancelArticleDeliveries } from './push-repositories.ts'
import { cardColumns, listItemColumns, toArticle, toCard, toChange, toListItem } from './rows.ts'
import type { Database } from './schema.ts'
import type {
	ArticleCreateResult,
	ArticleRepository,
	ArticleRules,
	ArticleWrite,
} from '../port/articles.ts'
import type { Change, ChangeRepository } from '../port/changes.ts'
import type { Dialect } from '../port/storage.ts'
import type { SettingsRepository } from '../port/settings.ts'

/** How long a create's Idempotency-Key is remembered. */
const requestKeptMs = 24 * 60 * 60 * 1000

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

/**
 * Writes the change row for the live feed. `first`, an insert the change depends on (an
 * article's push deliveries), runs before it: on PostgreSQL in the same statement, finished
 * before the change lock is taken, so the lock is never held through ten thousand inserts.
 */
export async function appendChange<Table extends keyof Database>(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	topic: string,
	entityId: string,
	kind: ChangeKind,
	first?: InsertQueryBuilder<Database, Table, InsertResult>,
): Promise<Change> {
	const createdAt = new Date().toISOString()
	if (!hooks.postgres) {
		await first?.execute()
		const row = await trx
			.insertInto('changes')
			.values({ topic, entity_id: entityId, kind, created_at: createdAt })
			.returningAll()
			.executeTakeFirstOrThrow()
		return toChange(row)
	}
	const { lock, channel } = hooks.postgres
	const before = first ? sql`first_written AS (${first.returning(sql`1`.as('one'))}),` : sql``
	// The count reads every row `first` wrote before the lock is asked for.
	const afterFirst = first ? sql`FROM (SELECT count(*) FROM first_written) AS all_written` : sql``
	// The identity's nextval() runs as each row of the SELECT is inserted, so after the lock.
	const { rows } = await sql<Record<string, unknown>>`WITH ${before} locked AS (
			SELECT pg_advisory_xact_lock(${lock}) ${afterFirst}
		), added AS (
			INSERT INTO changes (topic, entity_id, kind, created_at)
			SELECT ${topic}, ${entityId}, ${kind}, ${createdAt}::timestamptz FROM locked
			RETURNING *
		)
		SELECT added.*, pg_notify(${channel}, added.id::text) FROM added`.execute(trx)
	const [row] = rows
	if (!row) throw new Error('The change row was not written.')
	return toChange(row)
}

/**
 * What a save means for readers and for push, written in the save's transaction: the change row
 * for the live feed and, when the save announced the article (set its notified_at: see
 * `announcing`), one push delivery per subscriber; when it stops being public, what has not gone
 * out is cancelled. No change for a draft saved as a draft.
 */
async function recordArticleChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	articleId: number,
	kind: ChangeKind,
	announced: boolean,
	now: string,
): Promise<Change>
async function recordArticleChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	articleId: number,
	kind: ChangeKind | null,
	announced: boolean,
	now: string,
): Promise<Change | null>
async function recordArticleChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	articleId: number,
	kind: ChangeKind | null,
	announced: boolean,
	now: string,
): Promise<Change | null> {
	if (!kind) return null
	if (kind === 'removed') await cancelArticleDeliveries(trx, articleId, now)
	const deliveries = announced ? articleDeliveries(trx, articleId) : undefined
	return appendChange(trx, hooks, 'articles', String(articleId), kind, deliveries)
}

/**
 * Whether this save announces the article (rules.announces), read from the row as stored.
 * Announcing is setting notified_at in the save's own write (a second UPDATE of the row would
 * cost a round trip and a row version). At most once: the row was read under a lock (PostgreSQL:
 * FOR UPDATE, or the version check of update(); SQLite: the one writer), so of two transactions
 * publishing it, the second sees notified_at set.
 */
function announcing(
	rules: ArticleRules,
	kind: ChangeKind | null,
	notify: boolean | number | undefined,
	notifiedAt: unknown,
): boolean {
	return rules.announces(kind, Boolean(notify ?? true), (notifiedAt ?? null) !== null)
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
	rules: ArticleRules,
): ArticleRepository {
	const publicChange = rules.publicChange
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
				let lookup = trx
					.selectFrom('articles')
					.select(['id', 'status', 'notify', 'notified_at'])
					.where('slug', '=', write.slug)
				// Another save of the same slug waits here, then reads what this one wrote.
				if (dialect === 'postgres') lookup = lookup.forUpdate()
				const before = await lookup.executeTakeFirst()
				const kind = publicChange(before?.status === 'published', write.status === 'published')
				const announced = announcing(
					rules,
					kind,
					write.notify ?? before?.notify,
					before?.notified_at,
				)
				const announcement = announced ? { notified_at: now } : {}
				const row = before
					? await trx
							.updateTable('articles')
							.set((eb) => ({
								...articleColumns(write),
								...announcement,
								updated_at: now,
								version: eb('version', '+', 1),
							}))
							.where('id', '=', before.id)
							.returningAll()
							.executeTakeFirstOrThrow()
					: await trx
							.insertInto('articles')
							.values({
								...articleColumns(write),
								...announcement,
								created_at: now,
								updated_at: now,
							})
							.returningAll()
							.executeTakeFirstOrThrow()
				const change = await recordArticleChange(trx, hooks, Number(row.id), kind, announced, now)
				return { article: toArticle(row), change }
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
		async create(write, request) {
			/** The article an earlier create with this request's key made, or why it cannot answer. */
			const earlier = async (from: Kysely<Database>): Promise<ArticleCreateResult | undefined> => {
				if (!request) return undefined
				const seen = await from
					.selectFrom('api_requests')
					.innerJoin('articles', 'articles.id', 'api_requests.article_id')
					.selectAll('articles')
					.select('api_requests.fingerprint')
					.where('api_requests.user_id', '=', request.userId)
					.where('api_requests.idempotency_key', '=', request.key)
					.where('api_requests.created_at', '>', new Date(Date.now() - requestKeptMs).toISOString())
					.executeTakeFirst()
				if (!seen) return undefined
				if (seen.fingerprint !== request.fingerprint) return { ok: false, reason: 'key-reused' }
				return { ok: false, reason: 'repeated', article: toArticle(seen) }
			}
			let outcome: ArticleCreateResult
			let change: Change | null = null
			try {
				outcome = await db.transaction().execute(async (trx): Promise<ArticleCreateResult> => {
					const now = new Date().toISOString()
					if (request) {
						const dayAgo = new Date(Date.now() - requestKeptMs).toISOString()
						await trx.deleteFrom('api_requests').where('created_at', '<=', dayAgo).execute()
						const repeat = await earlier(trx)
						if (repeat) return repeat
					}
					const kind = publicChange(false, write.status === 'published')
					const announced = announcing(rules, kind, write.notify, null)
					const row = await trx
						.insertInto('articles')
						.values({
							...articleColumns(write),
							...(announced ? { notified_at: now } : {}),
							created_at: now,
							updated_at: now,
						})
						.returningAll()
						.executeTakeFirstOrThrow()
					if (request)
						await trx
							.insertInto('api_requests')
							.values({
								user_id: request.userId,
								idempotency_key: request.key,
								fingerprint: request.fingerprint,
								article_id: Number(row.id),
								created_at: now,
							})
							.execute()
					change = await recordArticleChange(trx, hooks, Number(row.id), kind, announced, now)
					return { ok: true, saved: { article: toArticle(row), change } }
				})
			} catch (error) {
				if (!isUniqueViolation(error)) throw error
				// The same request sent twice at once: the other one made the article (and took
				// its slug, or the key) and has committed by now.
				return (await earlier(db)) ?? { ok: false, reason: 'slug-taken' }
			}
			if (change) hooks.committed(change)
			return outcome
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
					const kind = publicChange(before.status === 'published', write.status === 'published')
					const announced = announcing(
						rules,
						kind,
						write.notify ?? before.notify,
						before.notified_at,
					)
					const updated = await trx
						.updateTable('articles')
						.set((eb) => ({
							...articleColumns(write),
							...(announced ? { notified_at: now } : {}),
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
					const change = await recordArticleChange(trx, hooks, id, kind, announced, now)
					return { ok: true, saved: { article: toArticle(updated), change } }
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
				const kind = publicChange(row.status === 'published', false)
				if (!kind) return { ok: true, change: null }
				return { ok: true, change: await appendChange(trx, hooks, 'articles', String(id), kind) }
			})
			if (outcome.ok && outcome.change) hooks.committed(outcome.change)
			return outcome
		},
		async publishDue(now, limit) {
			const at = now.toISOString()
			const published = await db.transaction().execute(async (trx) => {
				let due = trx
					.selectFrom('articles')
					.select(['id', 'publish_at', 'notify', 'notified_at'])
					.where('status', '=', 'draft')
					.where('publish_at', 'is not', null)
					.where('publish_at', '<=', at)
					.orderBy('publish_at')
					.limit(limit)
				// Instances running the job together each take different rows, never the same one.
				// (SQLite has one writer at a time: the transaction itself is the lock.)
				if (dialect === 'postgres') due = due.forUpdate().skipLocked()
				const rows = await due.execute()
				const done: { article: ReturnType<typeof toArticle>; change: Change | null }[] = []
				const kind = publicChange(false, true)
				for (const row of rows) {
					const announced = announcing(rules, kind, row.notify, row.notified_at)
					const updated = await trx
						.updateTable('articles')
						.set((eb) => ({
							...(announced ? { notified_at: at } : {}),
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
					const id = Number(row.id)
					const change = await recordArticleChange(trx, hooks, id, kind, announced, at)
					done.push({ article: toArticle(updated), change })
				}
				return done
			})
			for (const { change } of published) if (change) hooks.committed(change)
			return published.map(({ article }) => article)
		},
		async deleteBySlug(slug) {
			const change = await db.transaction().execute(async (trx) => {
				const row = await trx
					.deleteFrom('articles')
					.where('slug', '=', slug)
					.returning(['id', 'status'])
					.executeTakeFirst()
				const kind = row && publicChange(row.status === 'published', false)
				return row && kind ? appendChange(trx, hooks, 'articles', String(row.id), kind) : null
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
