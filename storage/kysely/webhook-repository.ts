// Webhook endpoints and their deliveries, for both databases: the endpoints admins keep, the
// deliveries leased to one worker at a time with each attempt's answer, the log per endpoint,
// and old finished deliveries deleted. The deliveries themselves are written by the events'
// own transactions (webhook-events.ts).
import { type Kysely, sql, type Transaction } from 'kysely'
import type { Dialect } from '../port/storage.ts'
import {
	type ClaimedWebhookDelivery,
	type WebhookAttempt,
	type WebhookDelivery,
	type WebhookDeliveryState,
	type WebhookEndpoint,
	type WebhookEventType,
	type WebhookRepository,
	webhookEventTypes,
} from '../port/webhooks.ts'
import { leaseDue } from './lease.ts'
import { toIso, toIsoOrNull } from './rows.ts'
import type { Database } from './schema.ts'
import { webhookDeliveries } from './webhook-events.ts'

type Db = Kysely<Database> | Transaction<Database>
type Row = Record<string, unknown>

/** What is kept of a receiver's error or answer. */
const errorLength = 500

const deliveryColumns = [
	'id',
	'endpoint_id',
	'message_id',
	'event_type',
	'payload',
	'state',
	'attempts',
	'created_at',
	'next_attempt_at',
	'last_status',
	'last_error',
	'last_duration_ms',
	'finished_at',
	'resent_at',
] as const

function toDelivery(row: Row): WebhookDelivery {
	return {
		id: Number(row.id),
		endpointId: Number(row.endpoint_id),
		messageId: String(row.message_id),
		eventType: String(row.event_type) as WebhookDelivery['eventType'],
		payload: String(row.payload),
		state: String(row.state) as WebhookDeliveryState,
		attempts: Number(row.attempts),
		createdAt: toIso(row.created_at),
		nextAttemptAt: toIso(row.next_attempt_at),
		lastStatus: row.last_status === null ? null : Number(row.last_status),
		lastError: row.last_error === null ? null : String(row.last_error),
		lastDurationMs: row.last_duration_ms === null ? null : Number(row.last_duration_ms),
		finishedAt: toIsoOrNull(row.finished_at),
		resentAt: toIsoOrNull(row.resent_at),
	}
}

/** The previous secret while it still signs at `now`; null before any rotation and after. */
function overlapping(row: Row, now: Date): { secret: string; until: string } | null {
	const until = toIsoOrNull(row.previous_secret_until)
	if (row.previous_secret === null || until === null || Date.parse(until) <= now.getTime())
		return null
	return { secret: String(row.previous_secret), until }
}

function toEndpoint(row: Row, events: string[]): WebhookEndpoint {
	const previous = overlapping(row, new Date())
	return {
		id: Number(row.id),
		url: String(row.url),
		description: String(row.description),
		secret: String(row.secret),
		previousSecret: previous?.secret ?? null,
		previousSecretUntil: previous?.until ?? null,
		events: webhookEventTypes.filter((type) => events.includes(type)),
		enabled: Boolean(row.enabled),
		disabledReason: row.disabled_reason === null ? null : String(row.disabled_reason),
		createdAt: toIso(row.created_at),
		updatedAt: toIso(row.updated_at),
	}
}

export function createWebhookRepository(db: Kysely<Database>, dialect: Dialect): WebhookRepository {
	const flag = (on: boolean) => (dialect === 'postgres' ? on : on ? 1 : 0)

	async function eventsOf(trx: Db, ids: number[]): Promise<Map<number, string[]>> {
		const found = new Map<number, string[]>()
		if (ids.length === 0) return found
		const rows = await trx
			.selectFrom('webhook_endpoint_events')
			.select(['endpoint_id', 'event_type'])
			.where('endpoint_id', 'in', ids)
			.execute()
		for (const row of rows) {
			const list = found.get(Number(row.endpoint_id)) ?? []
			list.push(row.event_type)
			found.set(Number(row.endpoint_id), list)
		}
		return found
	}

	async function read(trx: Db, id: number): Promise<WebhookEndpoint | undefined> {
		const row = await trx
			.selectFrom('webhook_endpoints')
			.selectAll()
			.where('id', '=', id)
			.executeTakeFirst()
		if (!row) return undefined
		return toEndpoint(row, (await eventsOf(trx, [id])).get(id) ?? [])
	}

	async function setEvents(trx: Db, id: number, events: WebhookEventType[]) {
		await trx.deleteFrom('webhook_endpoint_events').where('endpoint_id', '=', id).execute()
		const unique = [...new Set(events)]
		if (unique.length > 0)
			await trx
				.insertInto('webhook_endpoint_events')
				.values(unique.map((event_type) => ({ endpoint_id: id, event_type })))
				.execute()
	}

	/** What an endpoint turned off had waiting: failed, with the reason. */
	async function failWaiting(trx: Db, endpointId: number, now: Date) {
		await trx
			.updateTable('webhook_deliveries')
			.set({
				state: 'failed',
				last_error: 'The endpoint was turned off before it went.',
				finished_at: now.toISOString(),
				lease_until: null,
			})
			.where('endpoint_id', '=', endpointId)
			.where('state', '=', 'pending')
			.execute()
	}

	async function finish(
		id: number,
		state: WebhookDeliveryState,
		attempt: WebhookAttempt,
		now: Date,
	): Promise<void> {
		await db
			.updateTable('webhook_deliveries')
			.set({
				state,
				...attemptColumns(attempt),
				finished_at: state === 'pending' ? null : now.toISOString(),
				lease_until: null,
			})
			.where('id', '=', id)
			.where('state', '=', 'pending')
			.execute()
	}

	return {
		async listEndpoints() {
			// Each endpoint with the id of its newest finished delivery: the log's own index, one
			// row each, in the same statement (not one query per endpoint).
			const rows = await db
				.selectFrom('webhook_endpoints as e')
				.selectAll('e')
				.select((eb) =>
					eb
						.selectFrom('webhook_deliveries as d')
						.select('d.id')
						.whereRef('d.endpoint_id', '=', 'e.id')
						.where('d.state', '<>', 'pending')
						.orderBy('d.id', 'desc')
						.limit(1)
						.as('last_delivery_id'),
				)
				.orderBy('e.id')
				.execute()
			const ids = rows.map((row) => Number(row.id))
			if (ids.length === 0) return []
			const lastIds = rows.flatMap((row) =>
				row.last_delivery_id === null ? [] : [Number(row.last_delivery_id)],
			)
			const [events, counts, last] = await Promise.all([
				eventsOf(db, ids),
				db
					.selectFrom('webhook_deliveries')
					.select((eb) => [
						'endpoint_id',
						'state',
						eb.fn.countAll<number | string | bigint>().as('n'),
					])
					.where('state', 'in', ['pending', 'failed'])
					.groupBy(['endpoint_id', 'state'])
					.execute(),
				lastIds.length === 0
					? Promise.resolve([])
					: db
							.selectFrom('webhook_deliveries')
							.select(['endpoint_id', 'state', 'last_status', 'finished_at'])
							.where('id', 'in', lastIds)
							.execute(),
			])
			return rows.map((row) => {
				const id = Number(row.id)
				const count = (state: string) =>
					Number(
						counts.find((one) => Number(one.endpoint_id) === id && one.state === state)?.n ?? 0,
					)
				const newest = last.find((one) => Number(one?.endpoint_id) === id)
				return {
					...toEndpoint(row, events.get(id) ?? []),
					pending: count('pending'),
					failed: count('failed'),
					lastDelivery: newest
						? {
								state: newest.state as WebhookDeliveryState,
								status: newest.last_status === null ? null : Number(newest.last_status),
								at: toIso(newest.finished_at),
							}
						: null,
				}
			})
		},
		findEndpoint(id) {
			return read(db, id)
		},
		async createEndpoint(input, secret, now) {
			const at = now.toISOString()
			return db.transaction().execute(async (trx) => {
				const row = await trx
					.insertInto('webhook_endpoints')
					.values({
						url: input.url,
						description: input.description,
						secret,
						enabled: flag(input.enabled),
						created_at: at,
						updated_at: at,
					})
					.returning('id')
					.executeTakeFirstOrThrow()
				const id = Number(row.id)
				await setEvents(trx, id, input.events)
				return (await read(trx, id)) as WebhookEndpoint
			})
		},
		async updateEndpoint(id, input, now) {
			return db.transaction().execute(async (trx) => {
				const updated = await trx
					.updateTable('webhook_endpoints')
					.set({
						url: input.url,
						description: input.description,
						enabled: flag(input.enabled),
						...(input.enabled ? { disabled_reason: null } : {}),
						updated_at: now.toISOString(),
					})
					.where('id', '=', id)
					.executeTakeFirst()
				if (updated.numUpdatedRows === 0n) return undefined
				await setEvents(trx, id, input.events)
				if (!input.enabled) await failWaiting(trx, id, now)
				return read(trx, id)
			})
		},
		async rotateSecret(id, secret, now, previousUntil) {
			// The current secret becomes the previous one (a secret older than that signs no more).
			await db
				.updateTable('webhook_endpoints')
				.set((eb) => ({
					previous_secret: eb.ref('secret'),
					previous_secret_until: previousUntil.toISOString(),
					secret,
					updated_at: now.toISOString(),
				}))
				.where('id', '=', id)
				.execute()
			return read(db, id)
		},
		async retirePreviousSecret(id, now) {
			await db
				.updateTable('webhook_endpoints')
				.set({ previous_secret: null, previous_secret_until: null, updated_at: now.toISOString() })
				.where('id', '=', id)
				.execute()
			return read(db, id)
		},
		async deleteEndpoint(id) {
			// Its events and deliveries go with it (ON DELETE CASCADE).
			const deleted = await db
				.deleteFrom('webhook_endpoints')
				.where('id', '=', id)
				.executeTakeFirst()
			return deleted.numDeletedRows > 0n
		},
		async queueTest(endpointId, data, now) {
			const row = await webhookDeliveries(
				db,
				dialect,
				'webhook.test',
				data,
				now.toISOString(),
				endpointId,
			)
				.returning(deliveryColumns)
				.executeTakeFirst()
			return row && toDelivery(row)
		},
		async deliveries(endpointId, { limit, before }) {
			let query = db
				.selectFrom('webhook_deliveries')
				.select(deliveryColumns)
				.where('endpoint_id', '=', endpointId)
			if (before !== undefined) query = query.where('id', '<', before)
			const rows = await query.orderBy('id', 'desc').limit(limit).execute()
			return rows.map(toDelivery)
		},
		async resend(endpointId, deliveryId, now) {
			const at = now.toISOString()
			const updated = await db
				.updateTable('webhook_deliveries')
				.set({
					state: 'pending',
					attempts: 0,
					resent_at: at,
					next_attempt_at: at,
					lease_until: null,
					finished_at: null,
				})
				.where('id', '=', deliveryId)
				.where('endpoint_id', '=', endpointId)
				.where('state', '=', 'failed')
				.executeTakeFirst()
			return updated.numUpdatedRows > 0n
		},
		async claimDue(now, leaseMs, limit) {
			return db.transaction().execute(async (trx) => {
				const enabled = dialect === 'postgres' ? sql<boolean>`enabled` : sql<boolean>`enabled = 1`
				const ids = await leaseDue(
					trx,
					dialect,
					'webhook_deliveries',
					(eb) =>
						eb.and([
							eb('state', '=', 'pending'),
							eb(
								'endpoint_id',
								'in',
								eb.selectFrom('webhook_endpoints').select('id').where(enabled),
							),
						]),
					{ now, leaseMs, limit },
				)
				if (ids.length === 0) return []
				const rows = await trx
					.selectFrom('webhook_deliveries as d')
					.innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
					.select(deliveryColumns.map((column) => `d.${column}` as const))
					.select(['e.url', 'e.secret', 'e.previous_secret', 'e.previous_secret_until'])
					.where('d.id', 'in', ids)
					.orderBy('d.id')
					.execute()
				return rows.map((row): ClaimedWebhookDelivery => {
					const previous = overlapping(row, now)
					return {
						...toDelivery(row),
						endpoint: {
							id: Number(row.endpoint_id),
							url: row.url,
							secrets: [row.secret, ...(previous ? [previous.secret] : [])],
						},
					}
				})
			})
		},
		markDelivered(id, attempt, now) {
			return finish(id, 'delivered', attempt, now)
		},
		async retryLater(id, attempt, nextAttemptAt) {
			await db
				.updateTable('webhook_deliveries')
				.set({
					...attemptColumns(attempt),
					next_attempt_at: nextAttemptAt.toISOString(),
					lease_until: null,
				})
				.where('id', '=', id)
				.where('state', '=', 'pending')
				.execute()
		},
		markFailed(id, attempt, now) {
			return finish(id, 'failed', attempt, now)
		},
		async disableEndpoint(id, reason, now) {
			await db.transaction().execute(async (trx) => {
				await trx
					.updateTable('webhook_endpoints')
					.set({
						enabled: flag(false),
						disabled_reason: reason.slice(0, errorLength),
						updated_at: now.toISOString(),
					})
					.where('id', '=', id)
					.execute()
				await failWaiting(trx, id, now)
			})
		},
		async deleteFinished(before) {
			const deleted = await db
				.deleteFrom('webhook_deliveries')
				// A literal, not a parameter, so that SQLite sees the partial index.
				.where(sql<boolean>`state <> 'pending'`)
				.where('finished_at', '<', before.toISOString())
				.executeTakeFirst()
			return Number(deleted.numDeletedRows)
		},
		async eraseExpiredSecrets(now) {
			const erased = await db
				.updateTable('webhook_endpoints')
				.set({ previous_secret: null, previous_secret_until: null })
				.where('previous_secret', 'is not', null)
				.where('previous_secret_until', '<=', now.toISOString())
				.executeTakeFirst()
			return Number(erased.numUpdatedRows)
		},
	}
}

function attemptColumns(attempt: WebhookAttempt) {
	return {
		last_status: attempt.status,
		last_error: attempt.error?.slice(0, errorLength) ?? null,
		last_duration_ms: Math.round(attempt.durationMs),
	}
}
