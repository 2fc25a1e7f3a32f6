// Repositories of the editor area (API keys, rate limits), written once against Kysely for both
// adapters. Images have their own (upload-repository.ts).
import { type Kysely, sql } from 'kysely'
import type { ApiKeyRepository, RateLimitRepository } from '../port/accounts.ts'
import { toApiKey } from './rows.ts'
import type { Database } from './schema.ts'

export function createApiKeyRepository(db: Kysely<Database>): ApiKeyRepository {
	const columns = [
		'id',
		'name',
		'prefix',
		'created_by',
		'created_at',
		'last_used_at',
		'revoked_at',
	] as const
	return {
		async create({ name, keyHash, prefix, createdBy }) {
			const row = await db
				.insertInto('api_keys')
				.values({
					name,
					key_hash: keyHash,
					prefix,
					created_by: createdBy,
					created_at: new Date().toISOString(),
				})
				.returning(columns)
				.executeTakeFirstOrThrow()
			return toApiKey(row)
		},
		async list() {
			const rows = await db
				.selectFrom('api_keys')
				.select(columns)
				.orderBy('created_at', 'desc')
				.orderBy('id', 'desc')
				.execute()
			return rows.map(toApiKey)
		},
		async useByHash(keyHash) {
			const row = await db
				.updateTable('api_keys')
				.set({ last_used_at: new Date().toISOString() })
				.where('key_hash', '=', keyHash)
				.where('revoked_at', 'is', null)
				.returning(columns)
				.executeTakeFirst()
			return row && toApiKey(row)
		},
		async revoke(id) {
			const result = await db
				.updateTable('api_keys')
				.set({ revoked_at: new Date().toISOString() })
				.where('id', '=', id)
				.where('revoked_at', 'is', null)
				.executeTakeFirst()
			return Number(result.numUpdatedRows) > 0
		},
	}
}

export function createRateLimitRepository(db: Kysely<Database>): RateLimitRepository {
	return {
		async hit(key, max, windowMs, now = Date.now()) {
			// One statement, so two instances counting the same key never lose a hit: a window
			// that has ended starts again at this hit.
			const expired = sql<boolean>`rate_limits.window_start <= ${now - windowMs}`
			const row = await db
				.insertInto('rate_limits')
				.values({ key, window_start: now, count: 1 })
				.onConflict((oc) =>
					oc.column('key').doUpdateSet({
						count: sql`CASE WHEN ${expired} THEN 1 ELSE rate_limits.count + 1 END`,
						window_start: sql`CASE WHEN ${expired} THEN ${now} ELSE rate_limits.window_start END`,
					}),
				)
				.returning(['count', 'window_start'])
				.executeTakeFirstOrThrow()
			const count = Number(row.count)
			return { allowed: count <= max, count, resetAt: Number(row.window_start) + windowMs }
		},
		async clear(key) {
			await db.deleteFrom('rate_limits').where('key', '=', key).execute()
		},
		async prune(before) {
			const result = await db
				.deleteFrom('rate_limits')
				.where('window_start', '<', before)
				.executeTakeFirst()
			return Number(result.numDeletedRows)
		},
	}
}
