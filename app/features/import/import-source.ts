// What an export from another publishing system holds, once read (docs/decisions/034-moving-in.md):
// Ghost's JSON and WordPress's WXR both become these, and one importer writes them.

export interface SourceTag {
	slug: string
	name: string
	description: string
	/** An image address as the export has it: on the old site, or a path in its files. */
	image: string | null
}

export interface SourceAuthor {
	slug: string
	name: string
	bio: string
	website: string | null
	image: string | null
}

/** A tag or an author as a post names it: the old address and the name. */
export interface TermName {
	slug: string
	name: string
}

export interface SourcePost {
	/** The old system's id: named in the report. */
	sourceId: string
	kind: 'article' | 'page'
	title: string
	slug: string
	/** The text as HTML, converted to Markdown by the importer. */
	html: string
	excerpt: string
	/** Scheduled posts come in as drafts that the publishing job makes public at `publishedAt`. */
	status: 'published' | 'draft' | 'scheduled'
	publishedAt: string | null
	image: string | null
	imageAlt: string | null
	/** In the old system's order (Ghost's first tag is the primary one). */
	tags: TermName[]
	authors: TermName[]
	seoTitle: string
	seoDescription: string
	/** Where readers found it on the old site (a path), so old links can be redirected. */
	oldPath: string | null
	/**
	 * Other addresses the old site answered for it: WordPress's `/?p=<id>` (its shortlink, and
	 * every link on a site with plain permalinks) and, for a page, `/?page_id=<id>`.
	 */
	shortPaths?: string[]
	/** What the reader of the export already knows cannot come across (private posts, galleries). */
	notes: string[]
}

/** A post the export holds that cannot be imported, with why. */
export interface SkippedSource {
	sourceId: string
	title: string
	reason: string
}

/**
 * An export, read: tags and authors (small, read first), then posts one at a time, so a file of
 * thousands of posts is never held whole.
 */
export interface ImportSource {
	format: 'ghost' | 'wordpress'
	/** The old site's address, when the export gives it: its images and links are rewritten. */
	siteUrl: string | null
	/** Complete once posts() has been read: WordPress's posts may name tags the file did not list. */
	readonly tags: SourceTag[]
	authors: SourceAuthor[]
	posts(): AsyncIterable<SourcePost | SkippedSource>
}

/** An export that cannot be read at all, said so the person importing can act on it. */
export class SourceFileError extends Error {}

export function isSkipped(entry: SourcePost | SkippedSource): entry is SkippedSource {
	return 'reason' in entry
}
