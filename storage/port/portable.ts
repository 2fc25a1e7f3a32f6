// The storage port's side of moving a site (docs/decisions/015-portable-export.md): every table
// a site owner would lose on a move, as plain rows both databases read and write the same way.
// Timestamps are ISO 8601 UTC with milliseconds, flags are booleans, JSON is parsed, bytes are
// bytes: nothing here says which database a row came from.
import type { RevisionKind } from './revisions.ts'

export interface PortableRows {
	/** Everything but each installation's own secrets (portable-read.ts says which). */
	settings: { key: string; value: string; updatedAt: string }
	users: {
		id: string
		name: string
		email: string
		emailVerified: boolean
		image: string | null
		createdAt: string
		updatedAt: string
		role: string
		deactivatedAt: string | null
		/** The editor area's language the account chose ('' : none); absent in older exports. */
		interfaceLanguage?: string
	}
	/** better-auth's account rows: the credential one holds the password hash. */
	accounts: {
		id: string
		accountId: string
		providerId: string
		userId: string
		accessToken: string | null
		refreshToken: string | null
		idToken: string | null
		accessTokenExpiresAt: string | null
		refreshTokenExpiresAt: string | null
		scope: string | null
		password: string | null
		createdAt: string
		updatedAt: string
	}
	apiKeys: {
		id: number
		name: string
		keyHash: string
		prefix: string
		createdBy: string
		createdAt: string
		lastUsedAt: string | null
		revokedAt: string | null
	}
	uploads: {
		id: number
		hash: string
		mime: string
		size: number
		width: number | null
		height: number | null
		createdBy: string | null
		createdAt: string
		bytes: Uint8Array
	}
	/** Without body_html: it is made again from the Markdown when the row is written. */
	articles: {
		id: number
		/** 'page' for a page; an export made before pages has none (articles). */
		kind: 'article' | 'page'
		slug: string
		title: string
		summary: string
		bodyMarkdown: string
		coverImageUrl: string | null
		coverImageAlt: string | null
		/** Tag names, in order. */
		tags: string[]
		/** Author names, in order (docs/decisions/026-tags-and-authors.md). */
		authors?: string[]
		/** An export made before author profiles: the one author's name. Read, never written. */
		authorName?: string
		status: 'draft' | 'published'
		readingMinutes: number
		publishedAt: string | null
		createdAt: string
		updatedAt: string
		version: number
		publishAt: string | null
		notify: boolean
		notifiedAt: string | null
		/**
		 * Whether publishing mails newsletter subscribers, and when it did (an export made before
		 * the newsletter has neither: on, and mailed when published).
		 */
		email?: boolean
		emailedAt?: string | null
		/** What search engines and shared links show; an export made before them has none. */
		seoTitle?: string
		seoDescription?: string
		socialImageUrl?: string | null
		/**
		 * Its language ('' the site's own) and the id of the original it translates, one of the
		 * file's articles (kept on import, as every id is). An export made before translations has
		 * neither: the site's language, and no link.
		 */
		language?: string
		translationOf?: number | null
	}
	pushSubscriptions: {
		id: number
		endpoint: string
		p256dh: string
		auth: string
		expirationTime: string | null
		createdAt: string
		refreshedAt: string
	}
	/** An article's finished push deliveries, counted by result (retired ones included). */
	pushResults: { articleId: number; sent: number; gone: number; failed: number; cancelled: number }
	configVersions: {
		id: number
		document: unknown
		createdAt: string
		createdBy: string | null
		createdByName: string
		summary: string
		restoredFrom: number | null
	}
	contactMessages: {
		id: number
		idempotencyKey: string
		name: string
		email: string
		subject: string
		message: string
		createdAt: string
		readAt: string | null
		archivedAt: string | null
	}
	analyticsDaily: {
		day: string
		dimension: string
		value: string
		value2: string
		value3: string
		visitors: number
		views: number
		visits: number
	}
	/** A tag's page: its name, description and cover. Exports before tags had pages have none. */
	tags: {
		slug: string
		name: string
		description: string
		coverImageUrl: string | null
		coverImageAlt: string | null
		createdAt: string
		updatedAt: string
	}
	/** An author's profile; `userId` one of the file's users, or null for a guest. */
	authors: {
		slug: string
		name: string
		bio: string
		avatarUrl: string | null
		website: string | null
		userId: string | null
		createdAt: string
		updatedAt: string
	}
	/** An article's history: `articleId` one of the file's articles, `userId` one of its users. */
	revisions: {
		id: number
		articleId: number
		kind: RevisionKind
		version: number
		userId: string | null
		byName: string
		status: 'draft' | 'published'
		slug: string
		title: string
		summary: string
		bodyMarkdown: string
		coverImageUrl: string | null
		coverImageAlt: string | null
		tags: string[]
		authors: string[]
		seoTitle: string
		seoDescription: string
		socialImageUrl: string | null
		/** Field names (RevisionField). */
		changed: string[]
		restoredFrom: number | null
		createdAt: string
		savedAt: string
	}
	/** Addresses that moved: renames' and admins' own. */
	redirects: {
		from: string
		to: string
		status: 301 | 302
		automatic: boolean
		createdAt: string
	}
	analyticsViews: {
		id: number
		atMs: number
		day: string
		visitor: string
		screen: string
		path: string
		title: string
		previousPath: string
		referrerHost: string
		utmSource: string
		utmMedium: string
		utmCampaign: string
		device: string
		language: string
	}
}

export type PortableSection = keyof PortableRows

/** What the writer takes: an article comes with the HTML made from its Markdown. */
export type PortableWrites = Omit<PortableRows, 'articles'> & {
	articles: PortableRows['articles'] & { bodyHtml: string }
}

export interface PortableReader {
	/** The section's rows in primary-key order (text keys by code point, on both databases). */
	rows<S extends PortableSection>(section: S): AsyncIterable<PortableRows[S]>
}

/** What a database already holds that an import type { RevisionKind } from './revisions.ts'
import must not overwrite. */
export interface PortableContents {
	users: number
	uploads: number
	contactMessages: number
	configVersions: number
	pushSubscriptions: number
	/** Up to `articleLimit` articles, by id. */
	articles: { slug: string; version: number }[]
}

export interface PortableWriter {
	contents(articleLimit: number): Promise<PortableContents>
	/** Empties what an import replaces: articles, screen views and daily totals. */
	clearReplaceable(): Promise<void>
	insert<S extends PortableSection>(section: S, rows: PortableWrites[S][]): Promise<void>
	/** After the last insert: new rows get ids after the imported ones (PostgreSQL's identities). */
	finish(): Promise<void>
}

export interface PortableRepository {
	/** Runs `work` on one consistent snapshot: writes committed meanwhile are not seen. */
	read<T>(work: (reader: PortableReader) => Promise<T>): Promise<T>
	/** Runs `work` in one transaction: all of it is stored, or nothing when it throws. */
	write<T>(work: (writer: PortableWriter) => Promise<T>): Promise<T>
	/**
	 * SQLite: copies the whole database, consistently, into `file` (which must not exist) while
	 * the site keeps serving. PostgreSQL: 'unsupported' (pg_dump does this there).
	 */
	backup(file: string): Promise<'done' | 'unsupported'>
}
