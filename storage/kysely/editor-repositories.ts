// Repositories of the editor area (images, API keys, rate limits), written once against Kysely
// for both adapters.
import { type Kysely, sql } from 'kysely'
import type { ApiKeyRepository, RateLimitRepository } from '../port/accounts.ts'
import type { UploadRepository } from '../port/uploads.ts'
import { toApiKey, toUpload } from './rows.ts'
import type { Database } from './schema.ts'

export function createUploadRepository(db: Kysely<Database>): UploadRepository {
	const metaColumns = ['hash', 'mime', 'size', 'width', 'height', 'created_at'] as const
	return {
		async put({ bytes, createdBy, ...meta }) {
			await db
				.insertInto('uploads')
				.values({
					...meta,
					bytes,
					created_by: createdBy,
					created_at: new Date().toISOString(),
				})
				// The same bytes uploaded twice are one image: the first row stands.
				.onConflict((oc) => oc.column('hash').doNothing())
				.execute()
			const row = await db
				.selectFrom('uploads')
				.select(metaColumns)
				.where('hash', '=', meta.hash)
				.executeTakeFirstOrThrow()
			return toUpload(row)
		},
		async get(hash) {
			const row = await db
				.selectFrom('uploads')
				.select([...metaColumns, 'bytes'])
				.where('hash', '=', hash)
				.executeTakeFirst()
			if (!row) return undefined
			const bytes = row.bytes as Uint8Array
			return { meta: toUpload(row), bytes }
		},
		async describe(hash) {
			const row = await db
				.selectFrom('uploads')
				.select(metaColumns)
				.where('hash', '=', hash)
				.executeTakeFirst()
			return row && toUpload(row)
		},
		async listByIds(from, before, limit) {
			const rows = await db
				.selectFrom('uploads')
				.select(['id', 'hash', 'mime', 'bytes'])
				.where('id', '>=', from)
				.where('id', '<', before)
				.orderBy('id')
				.limit(limit)
				.execute()
			return rows.map((row) => ({
				id: Number(row.id),
				hash: row.hash,
				mime: row.mime,
				bytes: row.bytes as Uint8Array,
			}))
		},
		async replaceBytes(hash, { bytes, width, height }) {
			const result = await db
				.updateTable('uploads')
				.set({ bytes, size: bytes.byteLength, width, height })
				.where('hash', '=', hash)
				.executeTakeFirst()
			return Number(result.numUpdatedRows) > 0
		},
		async delete(hash) {
			const result = await db.deleteFrom('uploads').where('hash', '=', hash).executeTakeFirst()
			return Number(result.numDeletedRows) > 0
		},
	}
}

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
