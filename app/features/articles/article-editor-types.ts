// What the article editor shows and what its action answers: shared by the form, its parts and
// the server action, so none of them imports another.
import type { FieldErrors } from '#app/lib/field-errors.ts'
import type { ArticleKind, ArticleStatus } from '#storage/port/articles.ts'

export interface EditorArticle {
	id: number
	kind: ArticleKind
	slug: string
	title: string
	summary: string
	bodyMarkdown: string
	tags: string[]
	/** Author names, in order. */
	authors: string[]
	coverImageUrl: string | null
	coverImageAlt: string | null
	status: ArticleStatus
	publishAt: string | null
	publishedAt: string | null
	updatedAt: string
	version: number
	notify: boolean
	notifiedAt: string | null
	/** Whether its first publishing mails newsletter subscribers. */
	email: boolean
	/** When it was mailed to newsletter subscribers; at most once. */
	emailedAt: string | null
	seoTitle: string
	seoDescription: string
	socialImageUrl: string | null
	/** Its language tag; empty: the site's language. */
	language: string
	/** The address (slug) of the article it translates; empty: none. */
	translationOf: string
	/** Its published versions in other languages (the original, its other translations). */
	otherLanguages?: { id: number; language: string; title: string }[]
	/** Never published, and its address the title's own: the address follows the title. */
	slugFollowsTitle?: boolean
	/** Edits not live yet (a published or scheduled article's), shown in the form instead: when kept. */
	pendingSavedAt?: string
	/** Who made those edits. */
	pendingBy?: string
}

/** What the action answers: errors and the values to show again, or a saved version. */
export interface EditorActionData {
	errors?: FieldErrors
	values?: Record<string, string>
	/** With `pending`: someone else's edits kept (not live yet) since the form was opened. */
	conflict?: {
		version: number
		updatedAt: string
		title: string
		pending?: { savedAt: string; by: string }
	}
	/** `slug`: the address as saved, which follows a draft's title until it is first published. */
	saved?: { version: number; updatedAt: string; intent: string; slug?: string }
	/** A new article's first autosave made it a draft: its id, for the saves after it. */
	/** A new article's first autosave made it this draft (its title as stored: "Untitled draft" until it has one). */
	created?: { id: number; title: string }
	/** The autosave kept the edits pending: readers see them after Update. */
	pending?: boolean
	/** The autosave found the form holding the article as it stands: nothing is pending. */
	unchanged?: boolean
	/**
	 * The autosave saved everything but these fields (refused: a cover without its description,
	 * a tag too long), which stay as they were stored.
	 */
	savedExcept?: FieldErrors
}
