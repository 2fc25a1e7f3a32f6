// What saving an article means beyond its row: the change readers see, and whether push
// subscribers are told. The storage applies these inside the save's own transaction
// (storage/kysely/article-repository.ts), so the change row, the deliveries and the article
// commit together; the decisions are here.
import { publicPath } from '#app/features/pages/page-addresses.ts'
import type { ArticleRules } from '#storage/port/articles.ts'
import { termSlug } from './slug.ts'

/** The newest revisions of each article kept, unless REVISIONS_KEPT says otherwise. */
export const defaultRevisionsKept = 50

export const articleRules: ArticleRules = {
	/** Readers see an article arrive, change and leave; a draft saved as a draft is no change. */
	publicChange(wasPublic, isPublic) {
		if (wasPublic && isPublic) return 'modified'
		if (isPublic) return 'added'
		if (wasPublic) return 'removed'
		return null
	},
	/**
	 * Subscribers are told once in an article's life: the first time it goes public, unless an
	 * editor saved it with "notify" off. Unpublishing and publishing again tells nobody.
	 */
	announces(change, notify, announcedBefore) {
		return change === 'added' && notify && !announcedBefore
	},
	address: publicPath,
	termSlug,
	/** REVISIONS_KEPT changes it where the server and the CLI open the storage. */
	revisionsKept: defaultRevisionsKept,
}
