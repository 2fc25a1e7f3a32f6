// What the other repositories write in their own transactions when something happens that a
// webhook endpoint may want: one delivery per endpoint that is on and wants the event, in one
// INSERT … SELECT whatever their number (none: nothing is written). Built, not run, where the
// event also goes on the change feed: appendChange runs it first, on PostgreSQL inside the
// change row's own statement, so a webhook costs no extra round trip.
import { randomUUID } from 'node:crypto'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { ChangeKind } from '../port/changes.ts'
import type { Dialect } from '../port/storage.ts'
import type { WebhookEventType } from '../port/webhooks.ts'
import { type PrecedingInsert, preceding } from './change-repository.ts'
import { toIsoOrNull } from './rows.ts'
import type { Database } from './schema.ts'

type Db = Kysely<Database> | Transaction<Database>

/** A new webhook-id: the same for every endpoint and every attempt of one event. */
export function newMessageId(): string {
	return `msg_${randomUUID().replaceAll('-', '')}`
}

/**
 * The deliveries of one event, built. `data` is stored as it is now: a receiver learns what the
 * article was when it was published, even if it changed since.
 */
export function webhookDeliveries(
	trx: Db,
	dialect: Dialect,
	type: WebhookEventType | 'webhook.test',
	data: object,
	now: string,
	only?: number,
) {
	// PostgreSQL types a parameter in an INSERT's SELECT list as text: the timestamps say theirs.
	const at = dialect === 'postgres' ? sql<string>`${now}::timestamptz` : sql<string>`${now}`
	const enabled = dialect === 'postgres' ? sql<boolean>`e.enabled` : sql<boolean>`e.enabled = 1`
	let endpoints = trx
		.selectFrom('webhook_endpoints as e')
		.select([
			'e.id',
			sql<string>`${newMessageId()}`.as('message_id'),
			sql<string>`${type}`.as('event_type'),
			sql<string>`${JSON.stringify(data)}`.as('payload'),
			at.as('created_at'),
			at.as('next_attempt_at'),
		])
	endpoints =
		only === undefined
			? endpoints
					.where(enabled)
					.where('e.id', 'in', (eb) =>
						eb
							.selectFrom('webhook_endpoint_events')
							.select('endpoint_id')
							.where('event_type', '=', type),
					)
			: endpoints.where('e.id', '=', only)
	return trx
		.insertInto('webhook_deliveries')
		.columns([
			'endpoint_id',
			'message_id',
			'event_type',
			'payload',
			'created_at',
			'next_attempt_at',
		])
		.expression(endpoints)
}

/** The same, as an insert the change feed runs before its own row. */
export function webhookEvent(
	trx: Db,
	dialect: Dialect,
	type: WebhookEventType,
	data: object,
	now: string,
): PrecedingInsert {
	return preceding(webhookDeliveries(trx, dialect, type, data, now))
}

/** Writes the event's deliveries now (an event not on the change feed). */
export async function queueWebhookEvent(
	trx: Db,
	dialect: Dialect,
	type: WebhookEventType,
	data: object,
	now: string,
): Promise<void> {
	await webhookDeliveries(trx, dialect, type, data, now).execute()
}

/** The event a public change of an article (article.*) or a page (page.*) makes. */
export function articleEventType(
	change: ChangeKind | null,
	rowKind: unknown,
	deleted = false,
): WebhookEventType | null {
	if (!change) return null
	const kind = rowKind === 'page' ? 'page' : 'article'
	if (deleted) return `${kind}.deleted`
	if (change === 'added') return `${kind}.published`
	if (change === 'modified') return `${kind}.updated`
	return `${kind}.unpublished`
}

/** The columns articleEventData reads. */
export const articleEventColumns = [
	'id',
	'slug',
	'title',
	'summary',
	'status',
	'language',
	'published_at',
	'updated_at',
] as const

/**
 * An article's data in its events: enough to name it and find it (the Admin API gives the rest).
 * The worker adds its public address to a published one's.
 */
export function articleEventData(row: Record<(typeof articleEventColumns)[number], unknown>) {
	return {
		id: Number(row.id),
		slug: String(row.slug),
		title: String(row.title),
		summary: String(row.summary ?? ''),
		status: row.status === 'published' ? 'published' : 'draft',
		language: String(row.language ?? ''),
		publishedAt: toIsoOrNull(row.published_at),
		updatedAt: toIsoOrNull(row.updated_at),
	}
}
