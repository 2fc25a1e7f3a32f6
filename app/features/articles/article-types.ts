export type ArticleStatus = 'draft' | 'published'

/** What a list or a live event needs to show an article: no body. */
export interface ArticleCard {
	id: number
	slug: string
	title: string
	summary: string
	coverImageUrl: string | null
	coverImageAlt: string | null
	tags: string[]
	authorName: string
	readingMinutes: number
	publishedAt: string
	updatedAt: string
}

export interface Article extends Omit<ArticleCard, 'publishedAt'> {
	bodyMarkdown: string
	bodyHtml: string
	status: ArticleStatus
	publishedAt: string | null
	createdAt: string
	version: number
	/** When a scheduled draft goes public; null when nothing is scheduled. */
	publishAt: string | null
	/** Whether making it public notifies push subscribers (true unless an editor said not to). */
	notify?: boolean
	/** When push subscribers were told of it; an article is announced at most once. */
	notifiedAt?: string | null
}

/** A row of the editor's article list. */
export interface ArticleListItem {
	id: number
	slug: string
	title: string
	status: ArticleStatus
	authorName: string
	publishAt: string | null
	publishedAt: string | null
	updatedAt: string
	version: number
	/** As on Article: whether becoming public announces it, and when it was announced. */
	notify: boolean
	notifiedAt: string | null
}

/** The editor list's status filter: a scheduled article is a draft with a publishing time. */
export type ArticleStatusFilter = 'draft' | 'scheduled' | 'published'

export type ChangeKind = 'added' | 'modified' | 'removed'

/** One event of the live stream, as the browser receives it. */
export type ArticleEvent =
	| { kind: 'added' | 'modified'; article: ArticleCard }
	| { kind: 'removed'; id: number }
