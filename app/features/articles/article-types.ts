import type { ArticleCard } from '#storage/port/articles.ts'

/** One event of the live stream, as the browser receives it. */
export type ArticleEvent =
	| { kind: 'added' | 'modified'; article: ArticleCard }
	| { kind: 'removed'; id: number }
