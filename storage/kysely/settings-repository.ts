// Site settings, for both databases: values by key; a public change goes on the feed.
import { type Kysely, sql } from 'kysely'
import type { SettingsRepository } from '../port/settings.ts'
import { appendChange, type ChangeHooks } from './change-repository.ts'
import { prepared } from './prepared.ts'
import type { Database } from './schema.ts'

export function createSettingsRepository(
	db: Kysely<Database>,
	hooks: ChangeHooks,
): SettingsRepository {
	return {
		async all() {
			const rows = await db
				.selectFrom('settings')
				.modifyFront(prepared)
				.select(['key', 'value'])
				.execute()
			return Object.fromEntries(rows.map((row) => [row.key, row.value]))
		},
		async set(values) {
			const entries = Object.entries(values)
			if (entries.length === 0) return
			const change = await db.transaction().execute(async (trx) => {
				const now = new Date().toISOString()
				await trx
					.insertInto('settings')
					.values(entries.map(([key, value]) => ({ key, value, updated_at: now })))
					.onConflict((oc) =>
						oc.column('key').doUpdateSet((eb) => ({
							value: eb.ref('excluded.value'),
							updated_at: eb.ref('excluded.updated_at'),
						})),
					)
					.execute()
				// Settings shape every page, so page caches on every instance must hear of this.
				return appendChange(trx, hooks, 'settings', 'site', 'modified')
			})
			hooks.committed(change)
		},
		async deleteByPrefix(prefix, keep) {
			// substr, not LIKE: a prefix is matched literally on both databases, wildcards and all.
			let query = db
				.deleteFrom('settings')
				.where(sql<string>`substr(key, 1, ${prefix.length})`, '=', prefix)
			if (keep.length > 0) query = query.where('key', 'not in', keep)
			const result = await query.executeTakeFirst()
			return Number(result.numDeletedRows)
		},
		async setIfAbsent(key, value) {
			await db
				.insertInto('settings')
				.values({ key, value, updated_at: new Date().toISOString() })
				.onConflict((oc) => oc.column('key').doNothing())
				.execute()
			const row = await db
				.selectFrom('settings')
				.select('value')
				.where('key', '=', key)
				.executeTakeFirstOrThrow()
			return row.value
		},
	}
}
