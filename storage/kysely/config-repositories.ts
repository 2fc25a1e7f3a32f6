// Remote configuration's versions, written once against Kysely for both adapters
// (docs/decisions/013-remote-config.md). A version's id is the id it was built on plus one, and
// the primary key is the lock: of two publishes on one base, the second's insert meets the
// first's row (PostgreSQL waits for the first to commit, then refuses), so exactly one wins.
import type { Kysely } from 'kysely'
import type { Change } from '../port/changes.ts'
import type { ConfigRepository, ConfigVersion } from '../port/config.ts'
import { appendChange, type ChangeHooks } from './change-repository.ts'
import { toConfigVersion } from './rows.ts'
import type { Database } from './schema.ts'

/** Thrown inside the transaction to roll it back: the base is no longer the current version. */
class StaleBase extends Error {}

function isUniqueViolation(error: unknown): boolean {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
	return code === '23505' || (typeof message === 'string' && message.includes('UNIQUE constraint'))
}

export function createConfigRepository(db: Kysely<Database>, hooks: ChangeHooks): ConfigRepository {
	const latestId = async () => {
		const row = await db
			.selectFrom('config_versions')
			.select((eb) => eb.fn.max('id').as('id'))
			.executeTakeFirst()
		return Number(row?.id ?? 0)
	}

	return {
		async current() {
			const row = await db
				.selectFrom('config_versions')
				.selectAll()
				.orderBy('id', 'desc')
				.limit(1)
				.executeTakeFirst()
			return row ? toConfigVersion(row) : undefined
		},
		async get(id) {
			if (!Number.isSafeInteger(id)) return undefined
			const row = await db
				.selectFrom('config_versions')
				.selectAll()
				.where('id', '=', id)
				.executeTakeFirst()
			return row ? toConfigVersion(row) : undefined
		},
		async list({ limit, before }) {
			let query = db.selectFrom('config_versions').selectAll().orderBy('id', 'desc').limit(limit)
			if (before !== undefined) query = query.where('id', '<', before)
			return (await query.execute()).map(toConfigVersion)
		},
		async publish(input, now) {
			const { baseVersion } = input
			if (!Number.isSafeInteger(baseVersion) || baseVersion < 0)
				return { ok: false, current: await latestId() }
			let published: { version: ConfigVersion; change: Change }
			try {
				published = await db.transaction().execute(async (trx) => {
					// The insert comes first: on SQLite it takes the write lock before anything is
					// read, so a second process waits its turn instead of failing an upgrade.
					const row = await trx
						.insertInto('config_versions')
						.values({
							id: baseVersion + 1,
							document: JSON.stringify(input.document),
							created_at: now.toISOString(),
							created_by: input.createdBy,
							created_by_name: input.createdByName,
							summary: input.summary,
							restored_from: input.restoredFrom ?? null,
						})
						.returningAll()
						.executeTakeFirstOrThrow()
					// Ids have no gaps, so base + 1 being free and base existing means base is current.
					if (baseVersion > 0) {
						const base = await trx
							.selectFrom('config_versions')
							.select('id')
							.where('id', '=', baseVersion)
							.executeTakeFirst()
						if (!base) throw new StaleBase()
					}
					const version = toConfigVersion(row)
					const change = await appendChange(trx, hooks, 'config', String(version.id), 'modified')
					return { version, change }
				})
			} catch (error) {
				if (error instanceof StaleBase || isUniqueViolation(error))
					return { ok: false, current: await latestId() }
				throw error
			}
			hooks.committed(published.change)
			return { ok: true, version: published.version }
		},
	}
}
