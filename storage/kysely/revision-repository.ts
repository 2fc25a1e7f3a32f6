// An article's history, for both databases (docs/decisions/029-revisions.md): a revision is
// recorded inside every save's transaction (recordRevision), so the article and its history never
// disagree; the pending edits of a published article are kept beside it until the next save.
import type { Kysely, Transaction } from 'kysely'
import type { Article, ArticleStatus } from '../port/articles.ts'
import {
	changedFields,
	type Revision,
	type RevisionField,
	type RevisionKind,
	type RevisionNote,
	type RevisionRepository,
	type RevisionSnapshot,
	replacesPending,
	revisionFields,
	revisionKinds,
	revisionSnapshotOf,
} from '../port/revisions.ts'
import type { Dialect } from '../port/storage.ts'
import { termsOf } from './article-terms.ts'
import { toIso } from './rows.ts'
import type { Database } from './schema.ts'

/** Autosaves by one person this close together are one revision: a history of moments, not keystrokes. */
const autosaveWindowMs = 10 * 60 * 1000

type Row = Record<string, unknown>
type Db = Kysely<Database> | Transaction<Database>

type Snapshot = RevisionSnapshot

const names = (value: unknown): string[] => {
	const parsed = typeof value === 'string' ? JSON.parse(value) : value
	return Array.isArray(parsed) ? parsed.map(String) : []
}

function toSnapshot(row: Row): Snapshot {
	return {
		slug: String(row.slug),
		title: String(row.title),
		summary: String(row.summary),
		bodyMarkdown: String(row.body_markdown),
		coverImageUrl: (row.cover_image_url as string | null) ?? null,
		coverImageAlt: (row.cover_image_alt as string | null) ?? null,
		tags: names(row.tags),
		authors: names(row.authors),
		seoTitle: String(row.seo_title ?? ''),
		seoDescription: String(row.seo_description ?? ''),
		socialImageUrl: (row.social_image_url as string | null) ?? null,
		status: row.status === 'published' ? 'published' : 'draft',
	}
}

function toSummary(row: Row) {
	return {
		id: Number(row.id),
		articleId: Number(row.article_id),
		kind: revisionKinds.find((kind) => kind === row.kind) ?? 'saved',
		version: Number(row.version),
		byName: String(row.by_name ?? ''),
		status: row.status === 'published' ? ('published' as const) : ('draft' as const),
		title: String(row.title),
		changed: String(row.changed ?? '')
			.split(',')
			.filter((field): field is RevisionField =>
				(revisionFields as readonly string[]).includes(field),
			),
		restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
		createdAt: toIso(row.created_at),
		savedAt: toIso(row.saved_at),
	}
}

function toRevision(row: Row): Revision {
	return { ...toSnapshot(row), ...toSummary(row) }
}

function contentColumns(content: Snapshot) {
	return {
		status: content.status,
		slug: content.slug,
		title: content.title,
		summary: content.summary,
		body_markdown: content.bodyMarkdown,
		cover_image_url: content.coverImageUrl,
		cover_image_alt: content.coverImageAlt,
		tags: JSON.stringify(content.tags),
		authors: JSON.stringify(content.authors),
		seo_title: content.seoTitle,
		seo_description: content.seoDescription,
		social_image_url: content.socialImageUrl,
	}
}

/** An article's pending edits (one at most), not live yet. */
async function pendingOf(db: Db, articleId: number): Promise<Revision | undefined> {
	const row = await db
		.selectFrom('article_revisions')
		.selectAll()
		.where('article_id', '=', articleId)
		.where('kind', '=', 'pending')
		.executeTakeFirst()
	return row && toRevision(row)
}

function newest(db: Db, articleId: number, count: number) {
	return db
		.selectFrom('article_revisions')
		.selectAll()
		.where('article_id', '=', articleId)
		.orderBy('id', 'desc')
		.limit(count)
		.execute()
}

/**
 * The history's side of a save, in the save's transaction: what the article holds now, who saved
 * it and what changed. Pending edits are settled (their author's own save replaces them; anyone
 * else's save keeps them in the history as an autosave); an autosave close to the one before it
 * by the same person updates that one; only the newest `kept` are kept.
 */
export async function recordRevision(
	trx: Transaction<Database>,
	kept: number,
	article: Article,
	note: RevisionNote | undefined,
	statusBefore: ArticleStatus | null,
	now: string,
	/** The article was made in this transaction: it has no history to read or trim. */
	{ fresh }: { fresh: boolean } = { fresh: false },
): Promise<void> {
	const by = note?.by ?? { id: null, name: '' }
	const kind: RevisionKind =
		note?.kind ??
		(article.status === 'published' && statusBefore !== 'published'
			? 'published'
			: article.status !== 'published' && statusBefore === 'published'
				? 'unpublished'
				: 'saved')
	const [first, second] = fresh ? [] : await newest(trx, article.id, 2)
	let latest = first
	if (first?.kind === 'pending') {
		if (by.id !== null && first.user_id === by.id) {
			await trx.deleteFrom('article_revisions').where('id', '=', first.id).execute()
			latest = second
		} else {
			await trx
				.updateTable('article_revisions')
				.set({ kind: 'autosaved' })
				.where('id', '=', first.id)
				.execute()
			latest = { ...first, kind: 'autosaved' }
		}
	}
	const snapshot = revisionSnapshotOf(article)
	const changed = changedFields(latest && toSnapshot(latest), snapshot)
	// A save that changed nothing (Save pressed twice) adds nothing to read through.
	if (latest && changed.length === 0 && (kind === 'saved' || kind === 'autosaved')) return
	const sameSitting =
		kind === 'autosaved' &&
		latest?.kind === 'autosaved' &&
		by.id !== null &&
		latest.user_id === by.id &&
		Date.parse(now) - Date.parse(toIso(latest.saved_at)) < autosaveWindowMs
	if (latest && sameSitting) {
		const merged = new Set([...toSummary(latest).changed, ...changed])
		await trx
			.updateTable('article_revisions')
			.set({
				...contentColumns(snapshot),
				version: article.version,
				changed: revisionFields.filter((field) => merged.has(field)).join(','),
				saved_at: now,
			})
			.where('id', '=', latest.id)
			.execute()
		return
	}
	await trx
		.insertInto('article_revisions')
		.values({
			article_id: article.id,
			kind,
			version: article.version,
			user_id: by.id,
			by_name: by.name,
			...contentColumns(snapshot),
			changed: changed.join(','),
			restored_from: note?.restoredFrom ?? null,
			created_at: now,
			saved_at: now,
		})
		.execute()
	if (fresh) return
	await trx
		.deleteFrom('article_revisions')
		.where('article_id', '=', article.id)
		.where('kind', '<>', 'pending')
		.where('id', 'not in', (eb) =>
			eb
				.selectFrom('article_revisions')
				.select('id')
				.where('article_id', '=', article.id)
				.where('kind', '<>', 'pending')
				.orderBy('id', 'desc')
				.limit(kept),
		)
		.execute()
}

const summaryColumns = [
	'id',
	'article_id',
	'kind',
	'version',
	'by_name',
	'status',
	'title',
	'changed',
	'restored_from',
	'created_at',
	'saved_at',
] as const

export function createRevisionRepository(
	db: Kysely<Database>,
	dialect: Dialect,
): RevisionRepository {
	return {
		async list(articleId) {
			const rows = await db
				.selectFrom('article_revisions')
				.select(summaryColumns)
				.where('article_id', '=', articleId)
				.orderBy('id', 'desc')
				.execute()
			const summaries = rows.map(toSummary)
			// The pending edits first: they are what the editor holds now.
			return [
				...summaries.filter((revision) => revision.kind === 'pending'),
				...summaries.filter((revision) => revision.kind !== 'pending'),
			]
		},
		async get(articleId, id) {
			const row = await db
				.selectFrom('article_revisions')
				.selectAll()
				.where('article_id', '=', articleId)
				.where('id', '=', id)
				.executeTakeFirst()
			return row && toRevision(row)
		},
		pending: (articleId) => pendingOf(db, articleId),
		async savePending(articleId, basedOnVersion, content, by, pendingBasis) {
			return db.transaction().execute(async (trx) => {
				const now = new Date().toISOString()
				let read = trx
					.selectFrom('articles')
					.select(['id', 'version', 'status', ...articleContentColumns])
					.where('id', '=', articleId)
				// A save of the article waits for this, or this for it: never both at once.
				if (dialect === 'postgres') read = read.forUpdate()
				const article = await read.executeTakeFirst()
				if (!article) return { ok: false, reason: 'missing' } as const
				if (Number(article.version) !== basedOnVersion)
					return { ok: false, reason: 'conflict', version: Number(article.version) } as const
				if (pendingBasis !== undefined) {
					// Another editor's edits kept since this form was opened (the article locked
					// above, so none can come between this read and the write).
					const theirs = await pendingOf(trx, articleId)
					if (theirs && replacesPending(theirs, basedOnVersion, pendingBasis))
						return { ok: false, reason: 'pending-conflict', pending: theirs } as const
				}
				const terms = (await termsOf(trx, [articleId])).get(articleId)
				const live: Snapshot = toSnapshot({
					...article,
					tags: (terms?.tags ?? []).map((tag) => tag.name),
					authors: (terms?.authors ?? []).map((author) => author.name),
				})
				const snapshot: Snapshot = { ...content, status: live.status }
				const columns = {
					...contentColumns(snapshot),
					version: basedOnVersion,
					user_id: by.id,
					by_name: by.name,
					changed: changedFields(live, snapshot).join(','),
					saved_at: now,
				}
				const updated = await trx
					.updateTable('article_revisions')
					.set(columns)
					.where('article_id', '=', articleId)
					.where('kind', '=', 'pending')
					.returningAll()
					.executeTakeFirst()
				const row =
					updated ??
					(await trx
						.insertInto('article_revisions')
						.values({
							...columns,
							article_id: articleId,
							kind: 'pending',
							restored_from: null,
							created_at: now,
						})
						.returningAll()
						.executeTakeFirstOrThrow())
				return { ok: true, revision: toRevision(row) } as const
			})
		},
		async discardPending(articleId) {
			const result = await db
				.updateTable('article_revisions')
				.set({ kind: 'autosaved' })
				.where('article_id', '=', articleId)
				.where('kind', '=', 'pending')
				.executeTakeFirst()
			return Number(result.numUpdatedRows) > 0
		},
	}
}

/** The article's columns a revision holds (its tags and authors come from their own tables). */
const articleContentColumns = [
	'slug',
	'title',
	'summary',
	'body_markdown',
	'cover_image_url',
	'cover_image_alt',
	'seo_title',
	'seo_description',
	'social_image_url',
] as const
