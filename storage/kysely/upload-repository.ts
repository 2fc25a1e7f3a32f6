// Images and their versions (decision 023), written once against Kysely for both adapters. An
// image's task row, written with it, is its place in the image-versions job's queue.
import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../port/storage.ts'
import type { ImageVersion, UploadRepository } from '../port/uploads.ts'
import { leaseDue } from './lease.ts'
import { toUpload } from './rows.ts'
import type { Database } from './schema.ts'
import { matchingIds } from './search-repository.ts'

const metaColumns = [
	'uploads.hash',
	'uploads.mime',
	'uploads.size',
	'uploads.width',
	'uploads.height',
	'uploads.name',
	'uploads.alt',
	'uploads.created_at',
] as const

/** What is kept of a task's error: enough to tell what went wrong. */
const errorLength = 1_000

function toVersion(row: Record<string, unknown>): ImageVersion {
	return {
		width: Number(row.width),
		height: Number(row.height),
		mime: String(row.mime),
		size: Number(row.size),
		hash: String(row.hash),
	}
}

export function createUploadRepository(db: Kysely<Database>, dialect: Dialect): UploadRepository {
	return {
		async put({ bytes, createdBy, name = null, alt = null, ...meta }) {
			const now = new Date().toISOString()
			const added = await db.transaction().execute(async (trx) => {
				const inserted = await trx
					.insertInto('uploads')
					.values({ ...meta, name, alt, bytes, created_by: createdBy, created_at: now })
					// The same bytes uploaded twice are one image: the first row stands.
					.onConflict((oc) => oc.column('hash').doNothing())
					.executeTakeFirst()
				// Its versions are due with it: the job cannot miss an image that is stored.
				if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false
				await trx
					.insertInto('image_tasks')
					.values({ upload_hash: meta.hash, next_attempt_at: now })
					.onConflict((oc) => oc.column('upload_hash').doNothing())
					.execute()
				return true
			})
			const row = await db
				.selectFrom('uploads')
				.select(metaColumns)
				.where('hash', '=', meta.hash)
				.executeTakeFirstOrThrow()
			return { ...toUpload(row), added }
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
		async describeMany(hashes) {
			if (hashes.length === 0) return []
			const rows = await db
				.selectFrom('uploads')
				.select(metaColumns)
				.where('hash', 'in', [...new Set(hashes)])
				.execute()
			return rows.map(toUpload)
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
			// Its versions and task go with it (ON DELETE CASCADE).
			const result = await db.deleteFrom('uploads').where('hash', '=', hash).executeTakeFirst()
			return Number(result.numDeletedRows) > 0
		},
		async setDetails(hash, { name, alt }) {
			const result = await db
				.updateTable('uploads')
				.set({ name, alt })
				.where('hash', '=', hash)
				.executeTakeFirst()
			return Number(result.numUpdatedRows) > 0
		},
		async library({ search, limit, offset }) {
			let base = db.selectFrom('uploads')
			if (search)
				base = base.where(sql<boolean>`uploads.id IN ${matchingIds(dialect, search, 'uploads')}`)
			const [rows, counted] = await Promise.all([
				base
					.leftJoin('image_tasks', 'image_tasks.upload_hash', 'uploads.hash')
					.select(metaColumns)
					.select((eb) => [
						eb('image_tasks.finished_at', 'is not', null).as('versions_done'),
						eb
							.selectFrom('upload_versions')
							.select((v) => v.fn.countAll().as('n'))
							.whereRef('upload_versions.upload_hash', '=', 'uploads.hash')
							.as('versions'),
						eb
							.selectFrom('upload_versions')
							.select((v) => v.fn.sum('upload_versions.size').as('n'))
							.whereRef('upload_versions.upload_hash', '=', 'uploads.hash')
							.as('versions_size'),
					])
					.orderBy('uploads.id', 'desc')
					.limit(limit)
					.offset(offset)
					.execute(),
				base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
			])
			return {
				images: rows.map((row) => ({
					...toUpload(row),
					versions: Number(row.versions ?? 0),
					versionsSize: Number(row.versions_size ?? 0),
					// No task row: an image stored by an import, before its task was written.
					versionsDone: Boolean(row.versions_done),
				})),
				total: Number(counted.n),
			}
		},
		async getVersion(hash, width, mime) {
			const row = await db
				.selectFrom('upload_versions')
				.select(['width', 'height', 'mime', 'size', 'hash', 'bytes'])
				.where('upload_hash', '=', hash)
				.where('width', '=', width)
				.where('mime', '=', mime)
				.executeTakeFirst()
			return row && { version: toVersion(row), bytes: row.bytes as Uint8Array }
		},
		async versionsOf(hash) {
			const rows = await db
				.selectFrom('upload_versions')
				.select(['width', 'height', 'mime', 'size', 'hash'])
				.where('upload_hash', '=', hash)
				.orderBy('width')
				.orderBy('mime')
				.execute()
			return rows.map(toVersion)
		},
		async claimVersionTasks(now, leaseMs, limit) {
			return db.transaction().execute(async (trx) => {
				const ids = await leaseDue(
					trx,
					dialect,
					'image_tasks',
					(eb) => eb('finished_at', 'is', null),
					{ now, leaseMs, limit },
				)
				if (ids.length === 0) return []
				const rows = await trx
					.selectFrom('image_tasks')
					.innerJoin('uploads', 'uploads.hash', 'image_tasks.upload_hash')
					.select([
						'image_tasks.id',
						'image_tasks.attempts',
						'uploads.hash',
						'uploads.mime',
						'uploads.bytes',
					])
					.where('image_tasks.id', 'in', ids)
					.orderBy('image_tasks.id')
					.execute()
				return rows.map((row) => ({
					taskId: Number(row.id),
					attempts: Number(row.attempts),
					hash: row.hash,
					mime: row.mime,
					bytes: row.bytes as Uint8Array,
				}))
			})
		},
		async finishVersions(taskId, hash, versions, now) {
			const at = now.toISOString()
			await db.transaction().execute(async (trx) => {
				for (const version of versions) {
					await trx
						.insertInto('upload_versions')
						.values({
							upload_hash: hash,
							width: version.width,
							height: version.height,
							mime: version.mime,
							size: version.size,
							hash: version.hash,
							bytes: version.bytes,
							created_at: at,
						})
						.onConflict((oc) => oc.columns(['upload_hash', 'width', 'mime']).doNothing())
						.execute()
				}
				await trx
					.updateTable('image_tasks')
					.set({ finished_at: at, lease_until: null, last_error: null })
					.where('id', '=', taskId)
					.execute()
			})
		},
		async failVersions(taskId, error, retryAt, now) {
			await db
				.updateTable('image_tasks')
				.set({
					last_error: error.slice(0, errorLength),
					lease_until: null,
					...(retryAt
						? { next_attempt_at: retryAt.toISOString() }
						: { finished_at: now.toISOString() }),
				})
				.where('id', '=', taskId)
				.execute()
		},
	}
}
