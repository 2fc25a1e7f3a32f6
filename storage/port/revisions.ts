// An article's history: what it held after each save, who saved it and what changed, and the
// edits to a published article that wait for Update (docs/decisions/029-revisions.md).
import type { Article, ArticleStatus } from './articles.ts'

/**
 * How a revision came to be. `pending`: edits to a published or scheduled article, kept but not
 * live; an article has at most one, and the next save of the article settles it.
 */
export const revisionKinds = [
	'saved',
	'published',
	'unpublished',
	'autosaved',
	'restored',
	'pending',
] as const

export type RevisionKind = (typeof revisionKinds)[number]

/** Who made a revision: a team account, or (the API's key, an import) a name only. */
export interface RevisionAuthor {
	id: string | null
	name: string
}

/** What a revision holds of the article: what an editor can change and get back. */
export interface RevisionContent {
	slug: string
	title: string
	summary: string
	bodyMarkdown: string
	coverImageUrl: string | null
	coverImageAlt: string | null
	tags: string[]
	authors: string[]
	seoTitle: string
	seoDescription: string
	socialImageUrl: string | null
}

/** The fields a revision can change, named as the stored content names them. */
export type RevisionField = keyof RevisionContent | 'status'

/** A revision's content and the status it had: what two revisions are compared on. */
export type RevisionSnapshot = RevisionContent & { status: ArticleStatus }

/** Every field a revision compares, in the order a person reads an article. */
export const revisionFields: readonly RevisionField[] = [
	'title',
	'bodyMarkdown',
	'slug',
	'summary',
	'tags',
	'authors',
	'coverImageUrl',
	'coverImageAlt',
	'seoTitle',
	'seoDescription',
	'socialImageUrl',
	'status',
]

/** What an article holds, as a revision keeps it. */
export function revisionSnapshotOf(article: Article): RevisionSnapshot {
	return {
		slug: article.slug,
		title: article.title,
		summary: article.summary,
		bodyMarkdown: article.bodyMarkdown,
		coverImageUrl: article.coverImageUrl,
		coverImageAlt: article.coverImageAlt,
		tags: article.tags.map((tag) => tag.name),
		authors: article.authors.map((author) => author.name),
		seoTitle: article.seoTitle,
		seoDescription: article.seoDescription,
		socialImageUrl: article.socialImageUrl,
		status: article.status,
	}
}

/** The fields that differ; none when there is nothing to compare with (the first revision). */
export function changedFields(
	before: RevisionSnapshot | undefined,
	after: RevisionSnapshot,
): RevisionField[] {
	if (!before) return []
	return revisionFields.filter(
		(field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]),
	)
}

export interface RevisionSummary {
	id: number
	articleId: number
	kind: RevisionKind
	/** The article's version it made (pending: the version it builds on). */
	version: number
	byName: string
	status: ArticleStatus
	title: string
	/** What differs from the revision before it. */
	changed: RevisionField[]
	/** For a restore: the revision it brought back. */
	restoredFrom: number | null
	createdAt: string
	/** When it last changed: autosaves close together share one revision. */
	savedAt: string
}

export interface Revision extends RevisionSummary, RevisionContent {}

/** How a save is recorded in the history; given with the write (ArticleWrite.revision). */
export interface RevisionNote {
	/** Unless given: published, unpublished or saved, from the status before and after. */
	kind?: Exclude<RevisionKind, 'pending'>
	by?: RevisionAuthor
	restoredFrom?: number
}

export type PendingResult =
	| { ok: true; revision: Revision }
	| { ok: false; reason: 'missing' }
	/** The article was saved since the edit began: the pending edits would undo that save. */
	| { ok: false; reason: 'conflict'; version: number }
	/** Someone else's pending edits were kept since this edit began: these would replace them. */
	| { ok: false; reason: 'pending-conflict'; pending: Revision }

/**
 * Whether edits kept pending (`kept`) are someone else's, kept since a form built on `version`
 * was opened with the pending edits saved at `basis` ('' for none): saving that form would throw
 * them away. Pending edits built on another version are stale, not anyone's work in progress.
 */
export function replacesPending(
	kept: Pick<Revision, 'version' | 'savedAt'> | undefined,
	version: number,
	basis: string,
): boolean {
	return kept !== undefined && kept.version === version && kept.savedAt !== basis
}

export interface RevisionRepository {
	/** Newest first, the pending one (if any) first of all. */
	list(articleId: number): Promise<RevisionSummary[]>
	get(articleId: number, id: number): Promise<Revision | undefined>
	pending(articleId: number): Promise<Revision | undefined>
	/**
	 * Keeps edits to a published or scheduled article without changing what readers see; one
	 * pending revision per article, replaced by the next. Refused when the article is no longer
	 * at `basedOnVersion`, and, given `pendingBasis` (the savedAt of the pending edits the form
	 * began from; '' for none), when other pending edits were kept since.
	 */
	savePending(
		articleId: number,
		basedOnVersion: number,
		content: RevisionContent,
		by: RevisionAuthor,
		pendingBasis?: string,
	): Promise<PendingResult>
	/** Drops the pending edits from the editor; they stay in the history as an autosave. */
	discardPending(articleId: number): Promise<boolean>
}
