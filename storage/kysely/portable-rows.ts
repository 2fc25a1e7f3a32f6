// Each portable section as a table: how its rows are read, in primary-key order, and written.
// The read maps what either driver returns (Date or text, boolean or 0/1, jsonb or JSON text,
// Buffer or Uint8Array, int8 as number or text) to one form; the write maps it back to values
// both databases accept.
import type { PortableRows, PortableSection, PortableWrites } from '../port/portable.ts'
import type { Dialect } from '../port/storage.ts'
import { toIso, toIsoOrNull } from './rows.ts'

type Row = Record<string, unknown>

export interface SectionTable<S extends PortableSection> {
	/** The table rows are written to. */
	table: string
	/** The select, without ORDER BY. */
	select: string
	/** The primary key's columns; `text` ones are ordered by code point on both databases. */
	order: { column: string; text?: boolean }[]
	/** Rows per fetch: images are fetched a few at a time, so only a few are held at once. */
	fetch: number
	read(row: Row): PortableRows[S]
	write(row: PortableWrites[S]): Row
	/** How a row meets one already there: settings a started site made (its VAPID keys) give way. */
	onConflict?: string
	/** Whether the key is an identity whose sequence must move past imported ids (PostgreSQL). */
	identity?: boolean
}

const text = (value: unknown) => String(value)
const textOrNull = (value: unknown) =>
	value === null || value === undefined ? null : String(value)
const integer = (value: unknown) => Number(value)
const integerOrNull = (value: unknown) =>
	value === null || value === undefined ? null : Number(value)
const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value)

const everything = (table: string) => `SELECT * FROM "${table}"`

type Tables = { [S in PortableSection]: SectionTable<S> }

export const sectionTables: Tables = {
	settings: {
		table: 'settings',
		select: everything('settings'),
		order: [{ column: 'key', text: true }],
		fetch: 500,
		onConflict:
			'ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
		read: (r) => ({ key: text(r.key), value: text(r.value), updatedAt: toIso(r.updated_at) }),
		write: (r) => ({ key: r.key, value: r.value, updated_at: r.updatedAt }),
	},
	users: {
		table: 'user',
		select: everything('user'),
		order: [{ column: 'id', text: true }],
		fetch: 500,
		read: (r) => ({
			id: text(r.id),
			name: text(r.name),
			email: text(r.email),
			emailVerified: Boolean(r.emailVerified),
			image: textOrNull(r.image),
			createdAt: toIso(r.createdAt),
			updatedAt: toIso(r.updatedAt),
			role: text(r.role),
			deactivatedAt: toIsoOrNull(r.deactivatedAt),
		}),
		write: (r) => ({ ...r }),
	},
	accounts: {
		table: 'account',
		select: everything('account'),
		order: [{ column: 'id', text: true }],
		fetch: 500,
		read: (r) => ({
			id: text(r.id),
			accountId: text(r.accountId),
			providerId: text(r.providerId),
			userId: text(r.userId),
			accessToken: textOrNull(r.accessToken),
			refreshToken: textOrNull(r.refreshToken),
			idToken: textOrNull(r.idToken),
			accessTokenExpiresAt: toIsoOrNull(r.accessTokenExpiresAt),
			refreshTokenExpiresAt: toIsoOrNull(r.refreshTokenExpiresAt),
			scope: textOrNull(r.scope),
			password: textOrNull(r.password),
			createdAt: toIso(r.createdAt),
			updatedAt: toIso(r.updatedAt),
		}),
		write: (r) => ({ ...r }),
	},
	apiKeys: {
		table: 'api_keys',
		select: everything('api_keys'),
		order: [{ column: 'id' }],
		fetch: 500,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			name: text(r.name),
			keyHash: text(r.key_hash),
			prefix: text(r.prefix),
			createdBy: text(r.created_by),
			createdAt: toIso(r.created_at),
			lastUsedAt: toIsoOrNull(r.last_used_at),
			revokedAt: toIsoOrNull(r.revoked_at),
		}),
		write: (r) => ({
			id: r.id,
			name: r.name,
			key_hash: r.keyHash,
			prefix: r.prefix,
			created_by: r.createdBy,
			created_at: r.createdAt,
			last_used_at: r.lastUsedAt,
			revoked_at: r.revokedAt,
		}),
	},
	uploads: {
		table: 'uploads',
		select: everything('uploads'),
		order: [{ column: 'id' }],
		fetch: 4,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			hash: text(r.hash),
			mime: text(r.mime),
			size: integer(r.size),
			width: integerOrNull(r.width),
			height: integerOrNull(r.height),
			createdBy: textOrNull(r.created_by),
			createdAt: toIso(r.created_at),
			bytes: r.bytes as Uint8Array,
		}),
		write: (r) => ({
			id: r.id,
			hash: r.hash,
			mime: r.mime,
			size: r.size,
			width: r.width,
			height: r.height,
			// A Buffer: what pg sends as bytea, and a Uint8Array for node:sqlite.
			bytes: Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength),
			created_by: r.createdBy,
			created_at: r.createdAt,
		}),
	},
	articles: {
		table: 'articles',
		select: everything('articles'),
		order: [{ column: 'id' }],
		fetch: 100,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			slug: text(r.slug),
			title: text(r.title),
			summary: text(r.summary),
			bodyMarkdown: text(r.body_markdown),
			coverImageUrl: textOrNull(r.cover_image_url),
			coverImageAlt: textOrNull(r.cover_image_alt),
			tags: (json(r.tags) as unknown[]).map(String),
			authorName: text(r.author_name),
			status: r.status === 'published' ? 'published' : 'draft',
			readingMinutes: integer(r.reading_minutes),
			publishedAt: toIsoOrNull(r.published_at),
			createdAt: toIso(r.created_at),
			updatedAt: toIso(r.updated_at),
			version: integer(r.version),
			publishAt: toIsoOrNull(r.publish_at),
			notify: Boolean(r.notify),
			notifiedAt: toIsoOrNull(r.notified_at),
		}),
		write: (r) => ({
			id: r.id,
			slug: r.slug,
			title: r.title,
			summary: r.summary,
			body_markdown: r.bodyMarkdown,
			body_html: r.bodyHtml,
			cover_image_url: r.coverImageUrl,
			cover_image_alt: r.coverImageAlt,
			tags: JSON.stringify(r.tags),
			author_name: r.authorName,
			status: r.status,
			reading_minutes: r.readingMinutes,
			published_at: r.publishedAt,
			created_at: r.createdAt,
			updated_at: r.updatedAt,
			version: r.version,
			publish_at: r.publishAt,
			notify: r.notify,
			notified_at: r.notifiedAt,
		}),
	},
	pushSubscriptions: {
		table: 'push_subscriptions',
		select: everything('push_subscriptions'),
		order: [{ column: 'id' }],
		fetch: 500,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			endpoint: text(r.endpoint),
			p256dh: text(r.p256dh),
			auth: text(r.auth),
			expirationTime: toIsoOrNull(r.expiration_time),
			createdAt: toIso(r.created_at),
			refreshedAt: toIso(r.refreshed_at),
		}),
		write: (r) => ({
			id: r.id,
			endpoint: r.endpoint,
			p256dh: r.p256dh,
			auth: r.auth,
			expiration_time: r.expirationTime,
			created_at: r.createdAt,
			refreshed_at: r.refreshedAt,
		}),
	},
	pushResults: {
		table: 'push_delivery_totals',
		// Retired totals plus the finished delivery rows, per article: what editors see as an
		// article's results. Pending deliveries are not moved (the decision says why).
		select: `SELECT article_id, SUM(sent) AS sent, SUM(gone) AS gone, SUM(failed) AS failed,
			SUM(cancelled) AS cancelled
			FROM (
				SELECT article_id, sent, gone, failed, cancelled FROM push_delivery_totals
				UNION ALL
				SELECT article_id,
					CASE WHEN state = 'sent' THEN 1 ELSE 0 END,
					CASE WHEN state = 'gone' THEN 1 ELSE 0 END,
					CASE WHEN state = 'failed' THEN 1 ELSE 0 END,
					CASE WHEN state = 'cancelled' THEN 1 ELSE 0 END
				FROM push_deliveries WHERE state <> 'pending'
			) results
			GROUP BY article_id`,
		order: [{ column: 'article_id' }],
		fetch: 500,
		read: (r) => ({
			articleId: integer(r.article_id),
			sent: integer(r.sent),
			gone: integer(r.gone),
			failed: integer(r.failed),
			cancelled: integer(r.cancelled),
		}),
		write: (r) => ({
			article_id: r.articleId,
			sent: r.sent,
			gone: r.gone,
			failed: r.failed,
			cancelled: r.cancelled,
		}),
	},
	configVersions: {
		table: 'config_versions',
		select: everything('config_versions'),
		order: [{ column: 'id' }],
		fetch: 100,
		read: (r) => ({
			id: integer(r.id),
			document: json(r.document),
			createdAt: toIso(r.created_at),
			createdBy: textOrNull(r.created_by),
			createdByName: text(r.created_by_name),
			summary: text(r.summary),
			restoredFrom: integerOrNull(r.restored_from),
		}),
		write: (r) => ({
			id: r.id,
			document: JSON.stringify(r.document),
			created_at: r.createdAt,
			created_by: r.createdBy,
			created_by_name: r.createdByName,
			summary: r.summary,
			restored_from: r.restoredFrom,
		}),
	},
	contactMessages: {
		table: 'contact_messages',
		select: everything('contact_messages'),
		order: [{ column: 'id' }],
		fetch: 500,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			idempotencyKey: text(r.idempotency_key),
			name: text(r.name),
			email: text(r.email),
			subject: text(r.subject),
			message: text(r.message),
			createdAt: toIso(r.created_at),
			readAt: toIsoOrNull(r.read_at),
			archivedAt: toIsoOrNull(r.archived_at),
		}),
		write: (r) => ({
			id: r.id,
			idempotency_key: r.idempotencyKey,
			name: r.name,
			email: r.email,
			subject: r.subject,
			message: r.message,
			created_at: r.createdAt,
			read_at: r.readAt,
			archived_at: r.archivedAt,
		}),
	},
	analyticsDaily: {
		table: 'analytics_daily',
		select: everything('analytics_daily'),
		order: ['day', 'dimension', 'value', 'value2', 'value3'].map((column) => ({
			column,
			text: true,
		})),
		fetch: 1000,
		read: (r) => ({
			day: text(r.day),
			dimension: text(r.dimension),
			value: text(r.value),
			value2: text(r.value2),
			value3: text(r.value3),
			visitors: integer(r.visitors),
			views: integer(r.views),
			visits: integer(r.visits),
		}),
		write: (r) => ({ ...r }),
	},
	analyticsViews: {
		table: 'analytics_events',
		select: everything('analytics_events'),
		order: [{ column: 'id' }],
		fetch: 1000,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			atMs: integer(r.at_ms),
			day: text(r.day),
			visitor: text(r.visitor),
			screen: text(r.screen),
			path: text(r.path),
			title: text(r.title),
			previousPath: text(r.previous_path),
			referrerHost: text(r.referrer_host),
			utmSource: text(r.utm_source),
			utmMedium: text(r.utm_medium),
			utmCampaign: text(r.utm_campaign),
			device: text(r.device),
			language: text(r.language),
		}),
		write: (r) => ({
			id: r.id,
			at_ms: r.atMs,
			day: r.day,
			visitor: r.visitor,
			screen: r.screen,
			path: r.path,
			title: r.title,
			previous_path: r.previousPath,
			referrer_host: r.referrerHost,
			utm_source: r.utmSource,
			utm_medium: r.utmMedium,
			utm_campaign: r.utmCampaign,
			device: r.device,
			language: r.language,
		}),
	},
}

/** The section's full query: PostgreSQL orders text by its collation unless told otherwise. */
export function orderedSelect(section: PortableSection, dialect: Dialect): string {
	const spec = sectionTables[section]
	const collate = dialect === 'postgres' ? ' COLLATE "C"' : ''
	const order = spec.order.map(({ column, text }) => `${column}${text ? collate : ''}`).join(', ')
	return `${spec.select} ORDER BY ${order}`
}
