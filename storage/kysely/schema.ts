// Kysely's view of the tables. Column types are what both drivers accept on write; reads are
// normalised in rows.ts because the drivers differ (Date vs string, jsonb vs text).
import type { ColumnType, Generated } from 'kysely'

export interface Database {
	settings: { key: string; value: string; updated_at: string }
	articles: {
		id: Generated<number>
		slug: string
		title: string
		summary: string
		body_markdown: string
		body_html: string
		cover_image_url: string | null
		cover_image_alt: string | null
		cover_image_width: number | null
		cover_image_height: number | null
		status: string
		reading_minutes: number
		published_at: string | null
		created_at: string
		updated_at: string
		version: Generated<number>
		publish_at: string | null
		/** 1/0 on SQLite, a boolean from PostgreSQL: read through rows.ts. */
		notify: Generated<boolean | number>
		notified_at: string | null
		/** Whether becoming public mails newsletter subscribers (migration 0021); 1/0 on SQLite. */
		email: Generated<boolean | number>
		/** When it was mailed to newsletter subscribers; at most once in its life. */
		emailed_at: string | null
		kind: Generated<string>
		seo_title: Generated<string>
		seo_description: Generated<string>
		social_image_url: string | null
		/** A BCP 47 tag; '' is the site's own language (migration 0022). */
		language: Generated<string>
		/** The original this row translates; null for an original. Groups are flat. */
		translation_of: number | null
		/** PostgreSQL only (migration 0018): the search index's words, written with the row, never read. */
		search?: string
		/**
		 * The stems of its words, made by the site after each save (migration 0027); null when due.
		 * Kept so that an index rebuilt in SQL (a tag renamed, an import) keeps them.
		 */
		search_stems: ColumnType<string | null, string | null | undefined, string | null>
		/** The title's stems, made with search_stems (migration 0027). */
		search_title_stems: ColumnType<string | null, string | null | undefined, string | null>
		/** The language search_stems were made in. */
		search_stems_language: ColumnType<string | null, string | null | undefined, string | null>
		/** Until when an instance's step is making its stems (migration 0028); null: nobody. */
		search_stems_lease_until: ColumnType<string | null, string | null | undefined, string | null>
	}
	article_revisions: {
		id: Generated<number>
		article_id: number
		kind: string
		version: number
		user_id: string | null
		by_name: string
		status: string
		slug: string
		title: string
		summary: string
		body_markdown: string
		cover_image_url: string | null
		cover_image_alt: string | null
		/** JSON arrays of names: text on SQLite; PostgreSQL's jsonb comes back parsed. */
		tags: string
		authors: string
		seo_title: string
		seo_description: string
		social_image_url: string | null
		/** Field names, comma-separated. */
		changed: string
		restored_from: number | null
		created_at: string
		saved_at: string
	}
	tags: {
		id: Generated<number>
		slug: string
		name: string
		description: Generated<string>
		cover_image_url: string | null
		cover_image_alt: string | null
		created_at: string
		updated_at: string
	}
	article_tags: { article_id: number; tag_id: number; position: number }
	authors: {
		id: Generated<number>
		slug: string
		name: string
		bio: Generated<string>
		avatar_url: string | null
		website: string | null
		user_id: string | null
		created_at: string
		updated_at: string
	}
	article_authors: { article_id: number; author_id: number; position: number }
	changes: {
		id: Generated<number>
		topic: string
		entity_id: string
		kind: string
		created_at: string
	}
	change_horizon: { id: number; pruned_through: number }
	schema_migrations: { name: string; applied_at: string }
	uploads: {
		id: Generated<number>
		hash: string
		mime: string
		size: number
		width: number | null
		height: number | null
		bytes: Uint8Array
		created_by: string | null
		created_at: string
		name: string | null
		alt: string | null
	}
	upload_versions: {
		upload_hash: string
		width: number
		mime: string
		height: number
		hash: string
		size: number
		bytes: Uint8Array
		created_at: string
	}
	redirects: {
		from_path: string
		to_path: string
		status: number
		/** 1/0 on SQLite, a boolean from PostgreSQL. */
		automatic: boolean | number
		created_at: string
	}
	image_tasks: {
		id: Generated<number>
		upload_hash: string
		attempts: Generated<number>
		next_attempt_at: string
		lease_until: string | null
		last_error: string | null
		finished_at: string | null
	}
	api_keys: {
		id: Generated<number>
		name: string
		key_hash: string
		prefix: string
		created_by: string
		created_at: string
		last_used_at: string | null
		revoked_at: string | null
	}
	rate_limits: { key: string; window_start: number; count: number }
	contact_messages: {
		id: Generated<number>
		idempotency_key: string
		name: string
		email: string
		subject: string
		message: string
		created_at: string
		read_at: string | null
		archived_at: string | null
	}
	analytics_events: {
		id: Generated<number>
		/** Epoch milliseconds (a string from PostgreSQL's BIGINT: convert with Number). */
		at_ms: number
		day: string
		visitor: string
		screen: string
		path: string
		title: string
		previous_path: string
		referrer_host: string
		utm_source: string
		utm_medium: string
		utm_campaign: string
		device: string
		language: string
	}
	analytics_daily: {
		day: string
		dimension: string
		value: string
		value2: string
		value3: string
		visitors: number
		views: number
		visits: number
	}
	mail_outbox: {
		id: Generated<number>
		kind: string
		recipient: string
		subject: string
		text_body: string
		html_body: string | null
		reply_to: string | null
		created_at: string
		attempts: Generated<number>
		next_attempt_at: string
		lease_until: string | null
		last_error: string | null
		sent_at: string | null
		abandoned_at: string | null
	}
	push_subscriptions: {
		id: Generated<number>
		endpoint: string
		p256dh: string
		auth: string
		expiration_time: string | null
		created_at: string
		refreshed_at: string
	}
	push_deliveries: {
		id: Generated<number>
		article_id: number
		subscription_id: number | null
		state: Generated<string>
		attempts: Generated<number>
		created_at: string
		next_attempt_at: string
		lease_until: string | null
		last_status: number | null
		last_error: string | null
		finished_at: string | null
	}
	subscribers: {
		id: Generated<number>
		email: string
		status: Generated<string>
		cadence: Generated<string>
		source: string
		consent_at: string | null
		created_at: string
		changed_at: string
		failures: Generated<number>
	}
	subscriber_tags: { subscriber_id: number; tag_id: number }
	newsletter_digests: {
		id: Generated<number>
		slot: string
		period_start: string
		period_end: string
		article_ids: string
		created_at: string
	}
	newsletter_sends: {
		id: Generated<number>
		article_id: number | null
		digest_id: number | null
		created_at: string
		expanded_through: Generated<number>
		finished_at: string | null
	}
	newsletter_deliveries: {
		id: Generated<number>
		article_id: number | null
		digest_id: number | null
		subscriber_id: number | null
		state: Generated<string>
		attempts: Generated<number>
		created_at: string
		next_attempt_at: string
		lease_until: string | null
		last_error: string | null
		finished_at: string | null
	}
	webhook_endpoints: {
		id: Generated<number>
		url: string
		description: Generated<string>
		secret: string
		/** The secret before the last one made, still signing beside it until previous_secret_until. */
		previous_secret: string | null
		previous_secret_until: string | null
		/** 1/0 on SQLite, a boolean from PostgreSQL. */
		enabled: Generated<boolean | number>
		disabled_reason: string | null
		created_at: string
		updated_at: string
	}
	webhook_endpoint_events: { endpoint_id: number; event_type: string }
	webhook_deliveries: {
		id: Generated<number>
		endpoint_id: number
		message_id: string
		event_type: string
		payload: string
		state: Generated<string>
		attempts: Generated<number>
		created_at: string
		next_attempt_at: string
		lease_until: string | null
		last_status: number | null
		last_error: string | null
		last_duration_ms: number | null
		finished_at: string | null
		resent_at: string | null
	}
	move_in_runs: {
		id: string
		format: string
		/** 1/0 on SQLite, a boolean from PostgreSQL. */
		dry_run: boolean | number
		file_name: string
		with_images: boolean | number
		state: Generated<string>
		progress: Generated<string>
		report: string | null
		error: string | null
		started_by: string | null
		started_at: string
		updated_at: string
		finished_at: string | null
	}
	push_delivery_totals: {
		article_id: number
		sent: number
		gone: number
		failed: number
		cancelled: number
	}
	config_versions: {
		id: number
		/** JSON text on SQLite; PostgreSQL's jsonb comes back parsed: read through rows.ts. */
		document: string
		created_at: string
		created_by: string | null
		created_by_name: string
		summary: string
		restored_from: number | null
	}
	api_requests: {
		user_id: string
		idempotency_key: string
		fingerprint: string
		article_id: number
		created_at: string
	}
	job_runs: {
		name: string
		next_run_at: string
		lease_until: string | null
		holder: string | null
		runs: Generated<number>
		last_started_at: string | null
		last_finished_at: string | null
	}
	/** better-auth's tables (0002_auth), typed for the few reads and writes Canopy makes itself. */
	user: {
		id: string
		name: string
		email: string
		emailVerified: boolean | number
		image: string | null
		createdAt: string
		updatedAt: string
		role: string
		deactivatedAt: string | null
		/** The staff area's language the account chose; '' to follow the browser (0030). */
		interfaceLanguage: Generated<string>
	}
	session: {
		id: string
		expiresAt: string
		token: string
		createdAt: string
		updatedAt: string
		ipAddress: string | null
		userAgent: string | null
		userId: string
	}
	account: {
		id: string
		accountId: string
		providerId: string
		userId: string
		password: string | null
		createdAt: string
		updatedAt: string
	}
}
