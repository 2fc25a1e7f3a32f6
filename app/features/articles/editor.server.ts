// Writing articles in the editor area and through the admin API: one set of functions, so the
// form, the API and the scheduled-publishing job change articles the same way.

import { pageSlugFromTitle, pageSlugProblem } from '#app/features/pages/page-addresses.ts'
import { parseQuery } from '#app/features/search/search-query.ts'
import { contentLanguages, withStems } from '#app/features/search/stems.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type {
	Article,
	ArticleKind,
	ArticleListItem,
	ArticleStatusFilter,
	ArticleWrite,
	RepeatableRequest,
} from '#storage/port/articles.ts'
import type { Change } from '#storage/port/changes.ts'
import {
	changedFields,
	type RevisionAuthor,
	type RevisionContent,
	type RevisionNote,
	replacesPending,
	revisionSnapshotOf,
} from '#storage/port/revisions.ts'
import type { Storage } from '#storage/port/storage.ts'
import { articleInputSchema } from './article.schema.ts'
import {
	articleWriteOf,
	TranslationNotFound,
	toArticleWrite,
	translationRefusedMessage,
} from './article-write.server.ts'
import { editorListSchema, saveIntentSchema, versionSchema } from './editor.schema.ts'
import { MarkdownRefused, renderMarkdown } from './markdown.server.ts'
import { slugFor, slugify, slugPattern } from './slug.ts'

export type EditorResult =
	/** `repeated`: made by an earlier request with the same Idempotency-Key, not now. */
	| { ok: true; article: Article; change: Change | null; repeated?: boolean }
	| { ok: false; kind: 'invalid'; errors: FieldErrors }
	/**
	 * Someone saved a newer version since this edit began; or, with `pending`, kept edits of
	 * their own to the published or scheduled article (not live yet) since.
	 */
	| { ok: false; kind: 'conflict'; current: Article; pending?: PendingBy }
	| { ok: false; kind: 'missing' }

const slugTakenMessage = 'Another article or page already uses this address. Choose another slug.'
export const editorPageSize = 20

/**
 * The article to store, from what the editor sent, or every field that needs fixing, in one
 * answer: the fields' own rules, a page's reserved address, Markdown past its limits and images
 * without a description are told together, not one save after another.
 */
async function prepare(
	storage: Storage,
	raw: Record<string, unknown>,
	existing: Article | undefined,
	defaultAuthor: string,
	newKind: ArticleKind = 'article',
): Promise<{ ok: true; write: ArticleWrite } | { ok: false; errors: FieldErrors }> {
	const kind = existing?.kind ?? newKind
	const content = articleInputSchema.safeParse(raw)
	const intent = saveIntentSchema.safeParse(raw)
	if (!content.success || !intent.success) {
		const errors: FieldErrors = {
			...(content.success ? {} : fieldErrors(content.error)),
			...(intent.success ? {} : fieldErrors(intent.error)),
		}
		const wanted = intent.success ? intent.data.intent : raw.intent
		return {
			ok: false,
			errors: { ...(await fieldProblems(raw, errors, existing, kind, wanted)), ...errors },
		}
	}
	const input = content.data
	const { intent: action, publishAt, notify, email } = intent.data
	const status = action === 'publish' ? 'published' : 'draft'
	const publishedAt =
		input.publishedAt?.toISOString() ??
		existing?.publishedAt ??
		(status === 'published' ? new Date().toISOString() : null)
	const slug = input.slug ?? existing?.slug ?? slugFromTitle(kind, input.title)
	// A page beside the site's own addresses: /contact is always the contact form.
	const reserved = kind === 'page' ? pageSlugProblem(slug) : undefined
	const refused = (errors: FieldErrors) =>
		({ ok: false, errors: reserved ? { slug: [reserved], ...errors } : errors }) as const
	try {
		const write = await toArticleWrite(storage, input, {
			slug,
			status,
			authors: authorsOf(input, existing, defaultAuthor),
			publishedAt,
			publishAt: action === 'schedule' ? (publishAt?.toISOString() ?? null) : null,
			// A page is never news: no push notice, and no tags.
			notify: kind === 'page' ? false : notify,
			email: kind === 'page' ? false : email,
		})
		write.kind = kind
		if (kind === 'page') write.tags = []
		// A draft may wait for its descriptions; what readers get may not.
		const undescribed = action === 'draft' ? [] : imagesWithoutAlt(write.bodyHtml)
		if (undescribed.length > 0) return refused({ body: [undescribedMessage(undescribed)] })
		if (reserved) return refused({})
		return { ok: true, write }
	} catch (error) {
		if (error instanceof MarkdownRefused) return refused({ body: [error.message] })
		if (error instanceof TranslationNotFound) return refused({ translationOf: [error.message] })
		throw error
	}
}

/**
 * Beside fields their rules refused, what the fields that passed can still tell: a page's
 * reserved address, and the text's Markdown past its limits or images without a description
 * (unless it is a draft).
 */
async function fieldProblems(
	raw: Record<string, unknown>,
	refused: FieldErrors,
	existing: Article | undefined,
	kind: ArticleKind,
	intent: unknown,
): Promise<FieldErrors> {
	const problems: FieldErrors = {}
	const fields = articleInputSchema.shape
	if (kind === 'page' && !refused.slug) {
		const slug = fields.slug.safeParse(raw.slug)
		const title = fields.title.safeParse(raw.title)
		const address =
			(slug.success ? slug.data : undefined) ||
			existing?.slug ||
			(title.success ? slugFromTitle(kind, title.data) : '')
		const reserved = address ? pageSlugProblem(address) : undefined
		if (reserved) problems.slug = [reserved]
	}
	const body = fields.body.safeParse(raw.body)
	if ((intent === 'publish' || intent === 'schedule') && !refused.body && body.success) {
		try {
			const undescribed = imagesWithoutAlt(await renderMarkdown(body.data))
			if (undescribed.length > 0) problems.body = [undescribedMessage(undescribed)]
		} catch (error) {
			if (!(error instanceof MarkdownRefused)) throw error
			problems.body = [error.message]
		}
	}
	return problems
}

/** An address made from a title: a page's kept clear of the site's own addresses. */
function slugFromTitle(kind: ArticleKind, title: string): string {
	const slug = slugFor(kind, title)
	return kind === 'page' ? pageSlugFromTitle(slug) : slug
}

/**
 * Who wrote it: the authors named, else the one author named (the API's and front matter's older
 * field), else who it had, else who is writing it. An article always has at least one.
 */
function authorsOf(
	input: { author: string; authors: string[] },
	existing: Article | undefined,
	defaultAuthor: string,
): string[] {
	if (input.authors.length > 0) return input.authors
	if (input.author) return [input.author]
	const before = existing?.authors.map((author) => author.name) ?? []
	return before.length > 0 ? before : [defaultAuthor].filter(Boolean)
}

/** The addresses of the images in rendered article HTML that have no description (alt text). */
export function imagesWithoutAlt(html: string): string[] {
	const undescribed: string[] = []
	for (const [tag] of html.matchAll(/<img\b[^>]*>/g)) {
		const alt = /\salt="([^"]*)"/.exec(tag)?.[1] ?? ''
		if (alt.trim() === '') undescribed.push(/\ssrc="([^"]*)"/.exec(tag)?.[1] ?? '')
	}
	return undescribed
}

function undescribedMessage(addresses: string[]): string {
	const which = addresses.length === 1 ? 'An image' : `${addresses.length} images`
	return `${which} in the text ${addresses.length === 1 ? 'has' : 'have'} no description: ${addresses.map((address) => `![](${address})`).join(', ')}. Write what each shows between the square brackets, e.g. ![A heron in shallow water](…), so readers who cannot see it learn it too. A draft can be saved without.`
}

/** freeSlug's "-2", "-3"… after a base taken: the base cut to leave room for it. */
const numbered = (base: string, n: number) => `${base.slice(0, 76)}-${n}`

/** A free slug from the title: "title", else "title-2", "title-3"… (its own article's is free). */
async function freeSlug(storage: Storage, base: string, exceptId?: number): Promise<string> {
	for (let n = 1; n < 100; n++) {
		const candidate = n === 1 ? base : numbered(base, n)
		if (!(await storage.articles.slugTaken(candidate, exceptId))) return candidate
	}
	return `${base.slice(0, 70)}-${Date.now().toString(36)}`
}

/**
 * Whether an article's address is the one its title makes ("title", or freeSlug's "title-2"…
 * where that was taken), not one given by hand. Nothing stores who wrote an address, so this is
 * how a save tells: an address typed by hand that is exactly the title's own cannot be told from
 * it, and follows the title too, which is what it said anyway.
 */
export function slugMadeFromTitle(article: Pick<Article, 'kind' | 'slug' | 'title'>): boolean {
	const base = slugFromTitle(article.kind, article.title)
	if (article.slug === base) return true
	const prefix = `${base.slice(0, 76)}-`
	if (!article.slug.startsWith(prefix)) return false
	const n = Number(article.slug.slice(prefix.length))
	return Number.isInteger(n) && n >= 2 && n < 100 && numbered(base, n) === article.slug
}

export async function createArticle(
	storage: Storage,
	raw: Record<string, unknown>,
	author: string,
	request?: RepeatableRequest,
	kind: ArticleKind = 'article',
	revision?: RevisionNote,
): Promise<EditorResult> {
	const prepared = await prepare(storage, raw, undefined, author, kind)
	if (!prepared.ok) return { ok: false, kind: 'invalid', errors: prepared.errors }
	const { write } = prepared
	write.revision = revision
	if (!write.slug)
		return invalid({ title: ['The title needs at least one letter or digit for its address.'] })
	if (!raw.slug) write.slug = await freeSlug(storage, write.slug)
	const created = await storage.articles.create(write, request)
	if (!created.ok && created.reason === 'repeated')
		return { ok: true, article: created.article, change: null, repeated: true }
	if (!created.ok && created.reason === 'key-reused')
		return invalid({
			'Idempotency-Key': [
				'This key came before with a different request. Use a new key for a new article.',
			],
		})
	if (!created.ok && created.reason === 'translation-invalid')
		return invalid({ translationOf: [translationRefusedMessage] })
	if (!created.ok) return invalid({ slug: [slugTakenMessage] })
	return { ok: true, ...created.saved }
}

export async function updateArticle(
	storage: Storage,
	id: number,
	raw: Record<string, unknown>,
	/** Who saves, and how, for the article's history. */
	revision?: RevisionNote,
): Promise<EditorResult> {
	const version = versionSchema.safeParse(raw.version)
	if (!version.success) return invalid({ version: fieldErrors(version.error).form ?? [] })
	const existing = await storage.articles.findById(id)
	if (!existing) return { ok: false, kind: 'missing' }
	const prepared = await prepare(storage, raw, existing, existing.authors[0]?.name ?? '')
	if (!prepared.ok) return { ok: false, kind: 'invalid', errors: prepared.errors }
	// A draft never published: its address follows the title as it is written ("The rive" → "The
	// river"), on its own page as on the new-article page, until it is first published or given
	// an address by hand. The editor sends `slugFollowsTitle` while its address field is empty or
	// holds the stored address untouched; the stored one must then be the title's own (not one
	// typed in an earlier visit). A published article's address never moves: readers have it.
	const { write } = prepared
	write.revision = revision
	const untouched = !raw.slug || (raw.slug === existing.slug && slugMadeFromTitle(existing))
	if (raw.slugFollowsTitle === true && untouched && existing.publishedAt === null) {
		const fromTitle = slugify(write.title) && slugFromTitle(existing.kind, write.title)
		if (fromTitle && fromTitle !== existing.slug)
			write.slug = await freeSlug(storage, fromTitle, id)
	}
	const updated = await storage.articles.update(id, version.data, write)
	if (updated.ok) return { ok: true, ...updated.saved }
	if (updated.reason === 'slug-taken') return invalid({ slug: [slugTakenMessage] })
	if (updated.reason === 'translation-invalid')
		return invalid({ translationOf: [translationRefusedMessage] })
	if (updated.reason === 'conflict')
		return { ok: false, kind: 'conflict', current: updated.current }
	return { ok: false, kind: 'missing' }
}

/** Takes the article off the public site (and out of the schedule); it stays as a draft. */
export async function unpublishArticleById(
	storage: Storage,
	id: number,
	version: number,
	by?: RevisionAuthor,
): Promise<EditorResult> {
	const existing = await storage.articles.findById(id)
	if (!existing) return { ok: false, kind: 'missing' }
	const updated = await storage.articles.update(id, version, {
		...articleWriteOf(existing),
		status: 'draft',
		publishAt: null,
		revision: { by },
	})
	if (updated.ok) return { ok: true, ...updated.saved }
	if (updated.reason === 'conflict')
		return { ok: false, kind: 'conflict', current: updated.current }
	return { ok: false, kind: 'missing' }
}

export async function deleteArticle(
	storage: Storage,
	id: number,
	version?: number,
): Promise<{ ok: true } | { ok: false; kind: 'missing' | 'conflict' }> {
	const deleted = await storage.articles.deleteById(id, version)
	return deleted.ok ? { ok: true } : { ok: false, kind: deleted.reason }
}

/** Why this slug cannot be used, or null when it is free (checked as the editor types). */
export async function slugProblem(
	storage: Storage,
	slug: string,
	exceptId?: number,
): Promise<string | null> {
	if (!slug) return 'Give the article an address (slug).'
	if (Array.from(slug).length > 80) return 'Keep the slug under 80 characters.'
	if (!slugPattern.test(slug))
		return 'Use lowercase letters, digits, letters of scripts without capitals and single hyphens in the slug.'
	return (await storage.articles.slugTaken(slug, exceptId)) ? slugTakenMessage : null
}

export interface EditorArticleList {
	items: ArticleListItem[]
	total: number
	page: number
	pages: number
	query: string
	status: ArticleStatusFilter | null
}

export async function listEditorArticles(
	storage: Storage,
	params: Record<string, unknown>,
	kind: ArticleKind = 'article',
): Promise<EditorArticleList> {
	const { q, status, page } = editorListSchema.parse(params)
	// Words to look for, through the search index; signs alone look for nothing (an empty list).
	const parsed = q ? parseQuery(q) : undefined
	if (parsed === null)
		return { items: [], total: 0, page: 1, pages: 1, query: q ?? '', status: status ?? null }
	// Each word by its stems too, as readers search (decision 030).
	const query =
		parsed && q ? await withStems(parsed, q, await contentLanguages(storage)) : undefined
	const { items, total } = await storage.articles.listForEditor({
		query,
		status,
		kind,
		limit: editorPageSize,
		offset: (page - 1) * editorPageSize,
	})
	return {
		items,
		total,
		page,
		pages: Math.max(1, Math.ceil(total / editorPageSize)),
		query: q ?? '',
		status: status ?? null,
	}
}

/**
 * The public page's own pipeline, so the preview shows exactly what readers will get; or why the
 * text cannot be shown (over a limit, or too slow to render).
 */
export async function previewArticle(
	markdown: string,
): Promise<{ ok: true; html: string } | { ok: false; problem: string }> {
	try {
		return { ok: true, html: await renderMarkdown(markdown.slice(0, 200_000)) }
	} catch (error) {
		if (error instanceof MarkdownRefused) return { ok: false, problem: error.message }
		throw error
	}
}

/** The scheduled-publishing job's one step: publishes what is due, once across instances. */
export function publishDueArticles(storage: Storage, now = new Date()): Promise<Article[]> {
	return storage.articles.publishDue(now, 20)
}

/** Whose pending edits a save would have replaced, and when they were kept. */
export interface PendingBy {
	savedAt: string
	by: string
}

export type PendingEditsResult =
	/** unchanged: the form holds the article as it stands, so no edits are pending. */
	| { ok: true; savedAt: string; version: number; unchanged?: boolean }
	| { ok: false; kind: 'invalid'; errors: FieldErrors }
	| { ok: false; kind: 'conflict'; current: Article; pending?: PendingBy }
	| { ok: false; kind: 'missing' }

/**
 * The form's `pendingBasis`: the savedAt of the pending edits it was opened with ('' for none),
 * or undefined when it sent none (the admin API, which keeps no pending edits).
 */
function pendingBasisOf(raw: Record<string, unknown>): string | undefined {
	return typeof raw.pendingBasis === 'string' ? raw.pendingBasis : undefined
}

/**
 * Someone else's pending edits kept since the form was opened, which a save of it (Update,
 * Publish, Unpublish, an undo) would throw away: refused as a conflict, as their autosave would be.
 */
export async function pendingConflict(
	storage: Storage,
	articleId: number,
	raw: Record<string, unknown>,
): Promise<EditorResult | undefined> {
	const basis = pendingBasisOf(raw)
	const version = versionSchema.safeParse(raw.version)
	if (basis === undefined || !version.success) return undefined
	const pending = await storage.revisions.pending(articleId)
	if (!pending || !replacesPending(pending, version.data, basis)) return undefined
	const current = await storage.articles.findById(articleId)
	if (!current) return undefined
	return {
		ok: false,
		kind: 'conflict',
		current,
		pending: { savedAt: pending.savedAt, by: pending.byName },
	}
}

/**
 * Edits to a published or scheduled article, kept without changing it: readers see them only
 * after Update (docs/decisions/029-revisions.md). Checked as a draft's autosave is.
 */
export async function keepPendingEdits(
	storage: Storage,
	article: Article,
	raw: Record<string, unknown>,
	by: RevisionAuthor,
): Promise<PendingEditsResult> {
	const version = versionSchema.safeParse(raw.version)
	if (!version.success) return invalid({ version: fieldErrors(version.error).form ?? [] })
	const parsed = articleInputSchema.safeParse(raw)
	if (!parsed.success) return invalid(fieldErrors(parsed.error))
	const input = parsed.data
	const content: RevisionContent = {
		slug: input.slug ?? article.slug,
		title: input.title,
		summary: input.summary,
		bodyMarkdown: input.body,
		coverImageUrl: input.cover,
		coverImageAlt: input.cover ? input.coverAlt : null,
		tags: article.kind === 'page' ? [] : [...new Set(input.tags)],
		authors: authorsOf(input, article, by.name),
		seoTitle: input.seoTitle ?? article.seoTitle,
		seoDescription: input.seoDescription ?? article.seoDescription,
		socialImageUrl: input.socialImage === undefined ? article.socialImageUrl : input.socialImage,
	}
	if (
		changedFields(revisionSnapshotOf(article), { ...content, status: article.status }).length === 0
	) {
		// An edit undone, or the text just published: nothing is waiting for Update (what was
		// pending stays in the history). Not someone else's edits kept since, though.
		const theirs = await pendingConflict(storage, article.id, raw)
		if (theirs) return theirs as PendingEditsResult
		await storage.revisions.discardPending(article.id)
		return { ok: true, savedAt: article.updatedAt, version: version.data, unchanged: true }
	}
	const kept = await storage.revisions.savePending(
		article.id,
		version.data,
		content,
		by,
		pendingBasisOf(raw),
	)
	if (kept.ok) return { ok: true, savedAt: kept.revision.savedAt, version: version.data }
	if (kept.reason === 'missing') return { ok: false, kind: 'missing' }
	if (kept.reason === 'pending-conflict') {
		const { savedAt, byName } = kept.pending
		return { ok: false, kind: 'conflict', current: article, pending: { savedAt, by: byName } }
	}
	const current = await storage.articles.findById(article.id)
	return current ? { ok: false, kind: 'conflict', current } : { ok: false, kind: 'missing' }
}

/**
 * Brings an earlier revision back: saved over the article as it stands, keeping its status (a
 * published article shows it to readers at once; a scheduled one keeps its time). The restore is
 * itself a revision, which names the one it brought back.
 */
export async function restoreRevision(
	storage: Storage,
	articleId: number,
	revisionId: number,
	version: number,
	by: RevisionAuthor,
): Promise<EditorResult> {
	const [article, revision] = await Promise.all([
		storage.articles.findById(articleId),
		storage.revisions.get(articleId, revisionId),
	])
	if (!article) return { ok: false, kind: 'missing' }
	if (!revision)
		return invalid({ revision: ['This revision is no longer kept. Choose another one.'] })
	const scheduled = article.status === 'draft' && article.publishAt !== null
	const publishAt = scheduled && Date.parse(article.publishAt ?? '') > Date.now()
	return updateArticle(
		storage,
		articleId,
		{
			title: revision.title,
			slug: revision.slug,
			summary: revision.summary,
			body: revision.bodyMarkdown,
			tags: revision.tags,
			authors: revision.authors,
			cover: revision.coverImageUrl ?? undefined,
			coverAlt: revision.coverImageAlt ?? undefined,
			seoTitle: revision.seoTitle,
			seoDescription: revision.seoDescription,
			socialImage: revision.socialImageUrl ?? '',
			intent: article.status === 'published' ? 'publish' : publishAt ? 'schedule' : 'draft',
			publishAt: publishAt ? article.publishAt : undefined,
			version,
		},
		{ kind: 'restored', by, restoredFrom: revisionId },
	)
}

function invalid(errors: FieldErrors): { ok: false; kind: 'invalid'; errors: FieldErrors } {
	return { ok: false, kind: 'invalid', errors }
}
