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
}

export type ChangeKind = 'added' | 'modified' | 'removed'

/** One event of the live stream, as the browser receives it. */
export type ArticleEvent =
	| { kind: 'added' | 'modified'; article: ArticleCard }
	| { kind: 'removed'; id: number }
