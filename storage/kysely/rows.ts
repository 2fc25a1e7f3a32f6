// Row normalisation: the one place that knows the drivers return different shapes.

import type { ApiKeyRecord } from '../port/accounts.ts'
import type { Article, ArticleCard, ArticleListItem, ArticleStatus } from '../port/articles.ts'
import type { Change, ChangeKind } from '../port/changes.ts'
import type { ConfigVersion } from '../port/config.ts'
import type { ContactMessage } from '../port/contact.ts'
import type { QueuedMail } from '../port/mail.ts'
import type { PushDelivery, PushDeliveryState, PushSubscriptionRecord } from '../port/push.ts'
import type { UploadMeta } from '../port/uploads.ts'
import type { ArticleTerms } from './article-terms.ts'
import type { Database } from './schema.ts'

export function toIso(value: unknown): string {
	if (value instanceof Date) return value.toISOString()
	if (typeof value === 'string') return new Date(value).toISOString()
	throw new TypeError(`expected a timestamp, got ${typeof value}`)
}

export function toIsoOrNull(value: unknown): string | null {
	return value === null || value === undefined ? null : toIso(value)
}

type Row = Record<string, unknown>

const numberOrNull = (value: unknown) =>
	value === null || value === undefined ? null : Number(value)

/** An article's row as a card; its tags and authors come from their own tables (termsOf). */
export function toCard(row: Row, terms: ArticleTerms): ArticleCard {
	return {
		id: Number(row.id),
		slug: String(row.slug),
		title: String(row.title),
		summary: String(row.summary),
		coverImageUrl: (row.cover_image_url as string | null) ?? null,
		coverImageAlt: (row.cover_image_alt as string | null) ?? null,
		coverImageWidth: numberOrNull(row.cover_image_width),
		coverImageHeight: numberOrNull(row.cover_image_height),
		tags: terms.tags,
		authors: terms.authors,
		readingMinutes: Number(row.reading_minutes),
		publishedAt: toIso(row.published_at),
		updatedAt: toIso(row.updated_at),
		language: String(row.language ?? ''),
	}
}

export function toArticle(row: Row, terms: ArticleTerms): Article {
	return {
		...toCard({ ...row, published_at: row.published_at ?? row.created_at }, terms),
		kind: row.kind === 'page' ? 'page' : 'article',
		publishedAt: toIsoOrNull(row.published_at),
		bodyMarkdown: String(row.body_markdown),
		bodyHtml: String(row.body_html),
		status: row.status as ArticleStatus,
		createdAt: toIso(row.created_at),
		version: Number(row.version),
		publishAt: toIsoOrNull(row.publish_at),
		// 1/0 from SQLite, a boolean from PostgreSQL.
		notify: Boolean(row.notify),
		notifiedAt: toIsoOrNull(row.notified_at),
		email: Boolean(row.email ?? true),
		emailedAt: toIsoOrNull(row.emailed_at),
		seoTitle: String(row.seo_title ?? ''),
		seoDescription: String(row.seo_description ?? ''),
		socialImageUrl: (row.social_image_url as string | null) ?? null,
		// A bigint from PostgreSQL comes as a string.
		translationOf: numberOrNull(row.translation_of),
	}
}

/**
 * Every column toArticle reads, named: never `*`, which on PostgreSQL would also carry the search
 * index's tsvectors (as large as the text, read from TOAST and parsed for nothing), and whose
 * result shape a migration could change under a kept statement plan.
 */
export const articleRowColumns = [
	'id',
	'slug',
	'title',
	'summary',
	'body_markdown',
	'body_html',
	'cover_image_url',
	'cover_image_alt',
	'cover_image_width',
	'cover_image_height',
	'status',
	'reading_minutes',
	'published_at',
	'created_at',
	'updated_at',
	'version',
	'publish_at',
	'notify',
	'notified_at',
	'email',
	'emailed_at',
	'kind',
	'seo_title',
	'seo_description',
	'social_image_url',
	'language',
	'translation_of',
] as const satisfies readonly (keyof Database['articles'])[]

export function toListItem(row: Row, terms: ArticleTerms): ArticleListItem {
	return {
		id: Number(row.id),
		slug: String(row.slug),
		title: String(row.title),
		status: row.status as ArticleStatus,
		authors: terms.authors,
		publishAt: toIsoOrNull(row.publish_at),
		publishedAt: toIsoOrNull(row.published_at),
		updatedAt: toIso(row.updated_at),
		version: Number(row.version),
		notify: Boolean(row.notify),
		notifiedAt: toIsoOrNull(row.notified_at),
	}
}

export const listItemColumns = [
	'id',
	'slug',
	'title',
	'status',
	'publish_at',
	'published_at',
	'updated_at',
	'version',
	'notify',
	'notified_at',
] as const

export function toUpload(row: Row): UploadMeta {
	return {
		hash: String(row.hash),
		mime: String(row.mime),
		size: Number(row.size),
		width: numberOrNull(row.width),
		height: numberOrNull(row.height),
		name: (row.name as string | null) ?? null,
		alt: (row.alt as string | null) ?? null,
		createdAt: toIso(row.created_at),
	}
}

export function toApiKey(row: Row): ApiKeyRecord {
	return {
		id: Number(row.id),
		name: String(row.name),
		prefix: String(row.prefix),
		createdBy: String(row.created_by),
		createdAt: toIso(row.created_at),
		lastUsedAt: toIsoOrNull(row.last_used_at),
		revokedAt: toIsoOrNull(row.revoked_at),
	}
}

export function toChange(row: Row): Change {
	return {
		id: Number(row.id),
		topic: String(row.topic),
		entityId: String(row.entity_id),
		kind: row.kind as ChangeKind,
		createdAt: toIso(row.created_at),
	}
}

export function toConfigVersion(row: Row): ConfigVersion {
	// SQLite keeps the document as text; PostgreSQL's jsonb arrives parsed.
	const document = typeof row.document === 'string' ? JSON.parse(row.document) : row.document
	return {
		id: Number(row.id),
		document: document as ConfigVersion['document'],
		createdAt: toIso(row.created_at),
		createdBy: (row.created_by as string | null) ?? null,
		createdByName: String(row.created_by_name),
		summary: String(row.summary),
		restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
	}
}

export const cardColumns = [
	'id',
	'slug',
	'title',
	'summary',
	'cover_image_url',
	'cover_image_alt',
	'cover_image_width',
	'cover_image_height',
	'reading_minutes',
	'published_at',
	'updated_at',
	'language',
] as const

export function toMessage(row: Row): ContactMessage {
	return {
		id: Number(row.id),
		name: String(row.name),
		email: String(row.email),
		subject: String(row.subject),
		message: String(row.message),
		createdAt: toIso(row.created_at),
		readAt: toIsoOrNull(row.read_at),
		archivedAt: toIsoOrNull(row.archived_at),
	}
}

export function toQueuedMail(row: Row): QueuedMail {
	return {
		id: Number(row.id),
		kind: String(row.kind),
		recipient: String(row.recipient),
		subject: String(row.subject),
		textBody: String(row.text_body),
		htmlBody: (row.html_body as string | null) ?? null,
		replyTo: (row.reply_to as string | null) ?? null,
		attempts: Number(row.attempts),
		createdAt: toIso(row.created_at),
		nextAttemptAt: toIso(row.next_attempt_at),
		lastError: (row.last_error as string | null) ?? null,
		sentAt: toIsoOrNull(row.sent_at),
		abandonedAt: toIsoOrNull(row.abandoned_at),
	}
}

export function toPushSubscription(row: Row): PushSubscriptionRecord {
	return {
		id: Number(row.id),
		endpoint: String(row.endpoint),
		p256dh: String(row.p256dh),
		auth: String(row.auth),
		expirationTime: toIsoOrNull(row.expiration_time),
		createdAt: toIso(row.created_at),
		refreshedAt: toIso(row.refreshed_at),
	}
}

export function toPushDelivery(row: Row): PushDelivery {
	return {
		id: Number(row.id),
		articleId: Number(row.article_id),
		subscriptionId:
			row.subscription_id === null || row.subscription_id === undefined
				? null
				: Number(row.subscription_id),
		state: row.state as PushDeliveryState,
		attempts: Number(row.attempts),
		createdAt: toIso(row.created_at),
		nextAttemptAt: toIso(row.next_attempt_at),
		lastStatus:
			row.last_status === null || row.last_status === undefined ? null : Number(row.last_status),
		lastError: (row.last_error as string | null) ?? null,
		finishedAt: toIsoOrNull(row.finished_at),
	}
}

/** Fails to compile when a column of articles is missing from articleRowColumns. */
type MissingArticleColumn = Exclude<
	keyof Database['articles'],
	// The search index's columns: written by saves and setStems, read by the index alone.
	| (typeof articleRowColumns)[number]
	| 'search'
	| 'search_stems'
	| 'search_title_stems'
	| 'search_stems_language'
	| 'search_stems_lease_until'
>
const everyArticleColumn: MissingArticleColumn extends never ? true : MissingArticleColumn = true
void everyArticleColumn
