// The storage port: everything above it speaks these types, never a driver's.
import type { Kysely } from 'kysely'
import type {
	Article,
	ArticleCard,
	ArticleStatus,
	ChangeKind,
} from '#app/features/articles/article-types.ts'
import type { Database } from './schema.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface ArticleWrite {
	slug: string
	title: string
	summary: string
	bodyMarkdown: string
	bodyHtml: string
	coverImageUrl: string | null
	coverImageAlt: string | null
	tags: string[]
	authorName: string
	status: ArticleStatus
	readingMinutes: number
	publishedAt: string | null
}

export interface ListCursor {
	publishedAt: string
	id: number
}

export interface SavedArticle {
	article: Article
	/** The change written to the feed with it, if the public saw a difference. */
	change: Change | null
}

export interface ArticleRepository {
	findBySlug(slug: string): Promise<Article | undefined>
	findPublishedBySlug(slug: string): Promise<Article | undefined>
	/** Published articles, newest first, strictly after the cursor when one is given. */
	listPublished(options: { limit: number; after?: ListCursor }): Promise<ArticleCard[]>
	listPublishedByIds(ids: number[]): Promise<ArticleCard[]>
	/** Published articles with their bodies, newest first: feeds and sitemaps. */
	listPublishedFull(limit: number): Promise<Article[]>
	count(): Promise<number>
	/** Creates or updates the article with this slug and records the public change, atomically. */
	saveBySlug(write: ArticleWrite): Promise<SavedArticle>
	/** Deletes the article; records a removal when it was public. */
	deleteBySlug(slug: string): Promise<Change | null>
}

export interface Change {
	id: number
	topic: string
	entityId: string
	kind: ChangeKind
	createdAt: string
}

export interface ChangeRepository {
	latestId(): Promise<number>
	/** Ids at or below this were pruned; a reader that far behind must start over. */
	horizon(): Promise<number>
	after(id: number, limit: number): Promise<Change[]>
	/** Keeps the newest `keep` changes and moves the horizon past the rest. */
	prune(keep: number): Promise<number>
	/**
	 * Calls `wake` soon after any change commits, in this process or another one on the same
	 * database. The caller reads the table to learn what changed. Returns a stop function.
	 */
	watch(wake: () => void): () => void
}

export interface SettingsRepository {
	all(): Promise<Record<string, string>>
	set(values: Record<string, string>): Promise<void>
	/**
	 * Stores the value unless the key has one, and returns what is stored: instances starting
	 * together agree on one value (a generated secret). Not announced on the feed: not public.
	 */
	setIfAbsent(key: string, value: string): Promise<string>
}

export interface Storage {
	readonly dialect: Dialect
	/**
	 * The query builder, for better-auth's adapter only (server/auth.ts): sign-in keeps its
	 * own tables (0002_auth) and reads them itself. Everything else goes through repositories.
	 */
	readonly authDatabase: { db: Kysely<Database>; type: Dialect }
	readonly articles: ArticleRepository
	readonly changes: ChangeRepository
	readonly settings: SettingsRepository
	/** Applies pending migrations; returns the names applied. */
	migrate(): Promise<string[]>
	/** Throws when the database cannot answer. */
	ping(): Promise<void>
	close(): Promise<void>
}
