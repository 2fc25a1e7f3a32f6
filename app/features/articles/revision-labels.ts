// The fields of an article's revision as the editor labels them: the history page's list and
// diff, and the server's diff, read the same names.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { RevisionField } from '#storage/port/revisions.ts'

/** The fields as the editor labels them, in the order a person reads an article: `i18n._()`. */
export const revisionFieldMessages: Record<RevisionField, MessageDescriptor> = {
	title: msg`Title`,
	bodyMarkdown: msg`Text`,
	slug: msg`Address (slug)`,
	summary: msg`Summary`,
	tags: msg`Tags`,
	authors: msg`Authors`,
	coverImageUrl: msg`Cover image`,
	coverImageAlt: msg`Cover image description`,
	seoTitle: msg`Title for search engines`,
	seoDescription: msg`Description for search engines`,
	socialImageUrl: msg`Image for shared links`,
	status: msg`Status`,
}

/**
 * The same labels in English, for the server's diff (revision-diff.server.ts), whose `label` the
 * history page no longer shows: it names each field from `revisionFieldMessages`.
 */
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
