// The fields of an article's revision as the editor labels them: the history page's list and
// diff, and the server's diff, read the same names.
import type { RevisionField } from '#storage/port/revisions.ts'

/** The fields as the editor labels them, in the order a person reads an article. */
export const revisionFieldLabels: Record<RevisionField, string> = {
	title: 'Title',
	bodyMarkdown: 'Text',
	slug: 'Address (slug)',
	summary: 'Summary',
	tags: 'Tags',
	authors: 'Authors',
	coverImageUrl: 'Cover image',
	coverImageAlt: 'Cover image description',
	seoTitle: 'Title for search engines',
	seoDescription: 'Description for search engines',
	socialImageUrl: 'Image for shared links',
	status: 'Status',
}
