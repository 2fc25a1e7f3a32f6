// Kysely's view of the tables. Column types are what both drivers accept on write; reads are
// normalised in rows.ts because the drivers differ (Date vs string, jsonb vs text).
import type { Generated } from 'kysely'

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
		tags: string
		author_name: string
		status: string
		reading_minutes: number
		published_at: string | null
		created_at: string
		updated_at: string
		version: Generated<number>
	}
	changes: {
		id: Generated<number>
		topic: string
		entity_id: string
		kind: string
		created_at: string
	}
	change_horizon: { id: number; pruned_through: number }
	schema_migrations: { name: string; applied_at: string }
}
