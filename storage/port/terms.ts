// Tags and authors as things of their own (docs/decisions/026-tags-and-authors.md): each has a
// page at its own address; an article names them (ArticleWrite.tags, .authors) and shows them
// as Terms.

export interface Tag {
	id: number
	slug: string
	name: string
	description: string
	coverImageUrl: string | null
	coverImageAlt: string | null
	updatedAt: string
}

export type TagEdit = Pick<Tag, 'slug' | 'name' | 'description' | 'coverImageUrl' | 'coverImageAlt'>

export interface AuthorProfile {
	id: number
	slug: string
	name: string
	bio: string
	avatarUrl: string | null
	website: string | null
	/** The team account it belongs to; null for a guest writer or a name from before accounts. */
	userId: string | null
	updatedAt: string
}

/**
 * With its count of published articles: for staff lists and the sitemap. A count reads every
 * link of the term, so a reader's page does without (findBySlug).
 */
export type Counted<T> = T & { articles: number }

export type AuthorEdit = Pick<
	AuthorProfile,
	'slug' | 'name' | 'bio' | 'avatarUrl' | 'website' | 'userId'
>

export type TermEditResult<T> =
	| { ok: true; value: Counted<T> }
	| { ok: false; reason: 'missing' | 'slug-taken' | 'account-taken' }

/**
 * What both kinds share. A change of address records a 301 from the old one (as an article's
 * rename does), and every published article that shows the tag or author is changed on the live
 * feed, so open lists show the new name.
 */
interface TermRepository<T, Edit> {
	/** Every one, by name (ignoring case), with its count of published articles. */
	list(): Promise<Counted<T>[]>
	/** A reader's page: one indexed read, no count. */
	findBySlug(slug: string): Promise<T | undefined>
	findById(id: number): Promise<Counted<T> | undefined>
	update(id: number, edit: Edit): Promise<TermEditResult<T>>
	/** Its articles go to `intoId` (keeping their other tags), its address answers 301 to it. */
	merge(id: number, intoId: number): Promise<TermEditResult<T>>
	/** Its articles lose it. False when there was none. */
	delete(id: number): Promise<boolean>
}

export type TagRepository = TermRepository<Tag, TagEdit>

export interface AuthorRepository extends TermRepository<AuthorProfile, AuthorEdit> {
	/** A team member's profile: theirs, else the unclaimed one with their name, else a new one. */
	forUser(userId: string, name: string): Promise<Counted<AuthorProfile>>
}
