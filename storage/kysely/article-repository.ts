// Writing articles, for both databases: each save, publish and delete commits the article, its
// change on the feed, its push deliveries and its webhook deliveries together. What the write means (the change readers
// see, whether subscribers are told) is the feature's rule (ArticleRules), applied here.
import type { Kysely, Transaction } from 'kysely'
import type {
	ArticleCreateResult,
	ArticleRepository,
	ArticleRules,
	ArticleStatus,
} from '../port/articles.ts'
import type { Change } from '../port/changes.ts'
import type { Dialect } from '../port/storage.ts'
import { createInOneStatement } from './article-create-postgres.ts'
import { articleReads } from './article-reads.ts'
import {
	announcementColumns,
	announcing,
	articleColumns,
	isUniqueViolation,
	recordArticleChange,
	type SavedRow,
	topicOf,
} from './article-save.ts'
import { linkTerms, resolveWriteTerms, termsOf, withTerms } from './article-terms.ts'
import {
	checkNotTranslated,
	checkOriginal,
	TranslationRefused,
	translationReads,
} from './article-translations.ts'
import { appendChange, type ChangeHooks } from './change-repository.ts'
import { recordMove } from './redirect-repository.ts'
import { recordRevision } from './revision-repository.ts'
import { articleRowColumns, toArticle } from './rows.ts'
import type { Database } from './schema.ts'
import { indexArticle, searchColumn, unindexArticle } from './search-repository.ts'
import {
	articleEventColumns,
	articleEventData,
	articleEventType,
	webhookEvent,
} from './webhook-events.ts'

const statusOf = (status: unknown): ArticleStatus | null =>
	status === 'published' ? 'published' : status === 'draft' ? 'draft' : null

/** How long a create's Idempotency-Key is remembered. */
const requestKeptMs = 24 * 60 * 60 * 1000

export function createArticleRepository(
	db: Kysely<Database>,
	hooks: ChangeHooks,
	dialect: Dialect,
	rules: ArticleRules,
): ArticleRepository {
	const publicChange = rules.publicChange
	const kept = rules.revisionsKept
	/** A published article's or page's deletion, for webhooks (a draft's makes none). */
	const deletedEvent = (trx: Transaction<Database>, row: SavedRow) => {
		const event = articleEventType('removed', row.kind, true)
		const now = new Date().toISOString()
		return event ? [webhookEvent(trx, dialect, event, articleEventData(row), now)] : []
	}
	return {
		...articleReads(db, dialect),
		...translationReads(db, dialect),
		async saveBySlug(write) {
			const saved = await db.transaction().execute(async (trx) => {
				const now = new Date().toISOString()
				let lookup = trx
					.selectFrom('articles')
					.select(['id', 'status', 'kind', 'notify', 'email', 'notified_at', 'emailed_at'])
					.where('slug', '=', write.slug)
				// Another save of the same slug waits here, then reads what this one wrote.
				if (dialect === 'postgres') lookup = lookup.forUpdate()
				const before = await lookup.executeTakeFirst()
				// Refused: thrown, and nothing of the save is kept (saveBySlug has no result to say so).
				await checkOriginal(
					trx,
					dialect,
					before
						? { id: Number(before.id), kind: before.kind === 'page' ? 'page' : 'article' }
						: { kind: write.kind ?? 'article' },
					write.translationOf,
				)
				const kind = publicChange(before?.status === 'published', write.status === 'published')
				const announced = announcing(
					rules,
					kind,
					{ notify: write.notify ?? before?.notify, email: write.email ?? before?.email },
					before,
				)
				const announcement = announcementColumns(announced, now)
				const named = await resolveWriteTerms(trx, dialect, rules, write, now)
				const search = searchColumn(dialect, { ...write, ...named })
				const row = before
					? await trx
							.updateTable('articles')
							.set((eb) => ({
								...articleColumns(write),
								...search,
								...announcement,
								updated_at: now,
								version: eb('version', '+', 1),
							}))
							.where('id', '=', before.id)
							.returning(articleRowColumns)
							.executeTakeFirstOrThrow()
					: await trx
							.insertInto('articles')
							.values({
								...articleColumns(write),
								...search,
								kind: write.kind ?? 'article',
								...announcement,
								created_at: now,
								updated_at: now,
							})
							.returning(articleRowColumns)
							.executeTakeFirstOrThrow()
				if (before) await checkNotTranslated(trx, Number(row.id), write.translationOf)
				const terms = await linkTerms(trx, dialect, Number(row.id), named, !before)
				const change = await recordArticleChange(
					trx,
					hooks,
					dialect,
					row,
					kind,
					announced,
					now,
					write.webhooks,
				)
				const article = toArticle(row, terms)
				await recordRevision(trx, kept, article, write.revision, statusOf(before?.status), now, {
					fresh: !before,
				})
				await indexArticle(trx, dialect, article)
				return { article, change }
			})
			if (saved.change) hooks.committed(saved.change)
			return saved
		},
		async create(write, request) {
			// PostgreSQL, the usual case (no Idempotency-Key, every tag and author known, not a
			// translation): one statement. Anything else, or a tag deleted meanwhile, takes the
			// transaction below.
			if (hooks.postgres && !request) {
				const kind = publicChange(false, write.status === 'published')
				const announced = announcing(rules, kind, write, null)
				try {
					const saved = await createInOneStatement(
						db,
						hooks.postgres,
						rules,
						write,
						kind,
						announced,
						new Date().toISOString(),
					)
					if (saved) {
						if (saved.change) hooks.committed(saved.change)
						return { ok: true, saved }
					}
				} catch (error) {
					if (!isUniqueViolation(error)) throw error
					return { ok: false, reason: 'slug-taken' }
				}
			}
			/** The article an earlier create with this request's key made, or why it cannot answer. */
			const earlier = async (from: Kysely<Database>): Promise<ArticleCreateResult | undefined> => {
				if (!request) return undefined
				const seen = await from
					.selectFrom('api_requests')
					.innerJoin('articles', 'articles.id', 'api_requests.article_id')
					.select(articleRowColumns.map((column) => `articles.${column}` as const))
					.select('api_requests.fingerprint')
					.where('api_requests.user_id', '=', request.userId)
					.where('api_requests.idempotency_key', '=', request.key)
					.where('api_requests.created_at', '>', new Date(Date.now() - requestKeptMs).toISOString())
					.executeTakeFirst()
				if (!seen) return undefined
				if (seen.fingerprint !== request.fingerprint) return { ok: false, reason: 'key-reused' }
				const [article] = await withTerms(from, [seen], toArticle)
				return article && { ok: false, reason: 'repeated', article }
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
					await checkOriginal(trx, dialect, { kind: write.kind ?? 'article' }, write.translationOf)
					const kind = publicChange(false, write.status === 'published')
					const announced = announcing(rules, kind, write, null)
					const named = await resolveWriteTerms(trx, dialect, rules, write, now)
					const row = await trx
						.insertInto('articles')
						.values({
							...articleColumns(write),
							...searchColumn(dialect, { ...write, ...named }),
							kind: write.kind ?? 'article',
							...announcementColumns(announced, now),
							created_at: now,
							updated_at: now,
						})
						.returning(articleRowColumns)
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
					const terms = await linkTerms(trx, dialect, Number(row.id), named, true)
					change = await recordArticleChange(
						trx,
						hooks,
						dialect,
						row,
						kind,
						announced,
						now,
						write.webhooks,
					)
					const article = toArticle(row, terms)
					await recordRevision(trx, kept, article, write.revision, null, now, { fresh: true })
					await indexArticle(trx, dialect, article)
					return { ok: true, saved: { article, change } }
				})
			} catch (error) {
				if (error instanceof TranslationRefused) return { ok: false, reason: 'translation-invalid' }
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
			let moved: Change | null = null
			try {
				outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
					const now = new Date().toISOString()
					const before = await trx
						.selectFrom('articles')
						.select(articleRowColumns)
						.where('id', '=', id)
						.executeTakeFirst()
					if (!before) return { ok: false, reason: 'missing' }
					const current = async (row: typeof before) =>
						(await withTerms(trx, [row], toArticle))[0] as ReturnType<typeof toArticle>
					if (Number(before.version) !== expectedVersion)
						return { ok: false, reason: 'conflict', current: await current(before) }
					const rowKind = before.kind === 'page' ? 'page' : 'article'
					await checkOriginal(trx, dialect, { id, kind: rowKind }, write.translationOf)
					const kind = publicChange(before.status === 'published', write.status === 'published')
					const announced = announcing(
						rules,
						kind,
						{ notify: write.notify ?? before.notify, email: write.email ?? before.email },
						before,
					)
					const named = await resolveWriteTerms(trx, dialect, rules, write, now)
					const updated = await trx
						.updateTable('articles')
						.set((eb) => ({
							...articleColumns(write),
							...searchColumn(dialect, { ...write, ...named }),
							...announcementColumns(announced, now),
							updated_at: now,
							version: eb('version', '+', 1),
						}))
						.where('id', '=', id)
						// Checked again in the write itself: on PostgreSQL two transactions can both
						// pass the read above, and only one of them may win.
						.where('version', '=', expectedVersion)
						.returning(articleRowColumns)
						.executeTakeFirst()
					if (!updated) {
						const latest = await trx
							.selectFrom('articles')
							.select(articleRowColumns)
							.where('id', '=', id)
							.executeTakeFirst()
						return latest
							? { ok: false, reason: 'conflict', current: await current(latest) }
							: { ok: false, reason: 'missing' }
					}
					await checkNotTranslated(trx, id, write.translationOf)
					const terms = await linkTerms(trx, dialect, id, named, false)
					const change = await recordArticleChange(
						trx,
						hooks,
						dialect,
						updated,
						kind,
						announced,
						now,
						write.webhooks,
					)
					// Its address changed after readers had it: the old one answers 301 to the new.
					if (before.slug !== updated.slug && before.published_at !== null) {
						moved = await recordMove(
							trx,
							hooks,
							rules.address(rowKind, before.slug),
							rules.address(rowKind, updated.slug),
						)
					}
					const article = toArticle(updated, terms)
					await recordRevision(trx, kept, article, write.revision, statusOf(before.status), now)
					await indexArticle(trx, dialect, article)
					return { ok: true, saved: { article, change } }
				})
			} catch (error) {
				if (isUniqueViolation(error)) return { ok: false, reason: 'slug-taken' }
				if (error instanceof TranslationRefused) return { ok: false, reason: 'translation-invalid' }
				throw error
			}
			if (outcome.ok && moved) hooks.committed(moved)
			if (outcome.ok && outcome.saved.change) hooks.committed(outcome.saved.change)
			return outcome
		},
		async deleteById(id, expectedVersion) {
			type Outcome = Awaited<ReturnType<ArticleRepository['deleteById']>>
			const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
				// Its push deliveries go with it (ON DELETE CASCADE), so nothing more of it is sent.
				let query = trx.deleteFrom('articles').where('id', '=', id)
				if (expectedVersion !== undefined) query = query.where('version', '=', expectedVersion)
				const row = await query.returning([...articleEventColumns, 'kind']).executeTakeFirst()
				if (row) await unindexArticle(trx, dialect, id)
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
				const change = await appendChange(
					trx,
					hooks,
					topicOf(row.kind),
					String(id),
					kind,
					deletedEvent(trx, row),
				)
				return { ok: true, change }
			})
			if (outcome.ok && outcome.change) hooks.committed(outcome.change)
			return outcome
		},
		async publishDue(now, limit) {
			const at = now.toISOString()
			const published = await db.transaction().execute(async (trx) => {
				let due = trx
					.selectFrom('articles')
					.select(['id', 'publish_at', 'notify', 'email', 'notified_at', 'emailed_at'])
					.where('status', '=', 'draft')
					.where('publish_at', 'is not', null)
					.where('publish_at', '<=', at)
					.orderBy('publish_at')
					.limit(limit)
				// Instances running the job together each take different rows, never the same one.
				// (SQLite has one writer at a time: the transaction itself is the lock.)
				if (dialect === 'postgres') due = due.forUpdate().skipLocked()
				const rows = await due.execute()
				const done: {
					article: Record<string, unknown> & { id: unknown }
					change: Change | null
				}[] = []
				const kind = publicChange(false, true)
				for (const row of rows) {
					const announced = announcing(rules, kind, row, row)
					const updated = await trx
						.updateTable('articles')
						.set((eb) => ({
							...announcementColumns(announced, at),
							status: 'published',
							published_at: row.publish_at,
							publish_at: null,
							updated_at: at,
							version: eb('version', '+', 1),
						}))
						.where('id', '=', Number(row.id))
						.where('status', '=', 'draft')
						.returning(articleRowColumns)
						.executeTakeFirst()
					if (!updated) continue
					const change = await recordArticleChange(
						trx,
						hooks,
						dialect,
						updated,
						kind,
						announced,
						at,
					)
					done.push({ article: updated, change })
				}
				const terms = await termsOf(
					trx,
					done.map(({ article }) => Number(article.id)),
				)
				const saved = done.map(({ article, change }) => ({
					article: toArticle(article, terms.get(Number(article.id)) ?? { tags: [], authors: [] }),
					change,
				}))
				for (const { article } of saved)
					await recordRevision(trx, kept, article, { kind: 'published' }, 'draft', at)
				return saved
			})
			for (const { change } of published) if (change) hooks.committed(change)
			return published.map(({ article }) => article)
		},
		async deleteBySlug(slug) {
			const change = await db.transaction().execute(async (trx) => {
				const row = await trx
					.deleteFrom('articles')
					.where('slug', '=', slug)
					.returning([...articleEventColumns, 'kind'])
					.executeTakeFirst()
				if (row) await unindexArticle(trx, dialect, Number(row.id))
				const kind = row && publicChange(row.status === 'published', false)
				return row && kind
					? appendChange(
							trx,
							hooks,
							topicOf(row.kind),
							String(row.id),
							kind,
							deletedEvent(trx, row),
						)
					: null
			})
			if (change) hooks.committed(change)
			return change
		},
	}
}
