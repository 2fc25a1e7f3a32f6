// Analytics (migration 0006), written once against Kysely for both adapters: screen views
// stored in batches, the dashboard's figures, and the roll-up of old days into daily totals.
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'
import type { AnalyticsRepository, Dialect } from './types.ts'

/** Rows per INSERT: 14 columns each stays well under either database's parameter limit. */
const insertChunk = 500

function notBuilt(): never {
	throw new Error('analytics: not built yet')
}

export function createAnalyticsRepository(
	db: Kysely<Database>,
	_dialect: Dialect,
): AnalyticsRepository {
	return {
		async record(views) {
			if (views.length === 0) return
			await db.transaction().execute(async (trx) => {
				for (let start = 0; start < views.length; start += insertChunk) {
					await trx
						.insertInto('analytics_events')
						.values(
							views.slice(start, start + insertChunk).map((view) => ({
								at_ms: view.at.getTime(),
								day: view.at.toISOString().slice(0, 10),
								visitor: view.visitor,
								screen: view.screen,
								path: view.path,
								title: view.title,
								previous_path: view.previousPath,
								referrer_host: view.referrerHost,
								utm_source: view.utmSource,
								utm_medium: view.utmMedium,
								utm_campaign: view.utmCampaign,
								device: view.device,
								language: view.language,
							})),
						)
						.execute()
				}
			})
		},
		daily: notBuilt,
		totals: notBuilt,
		breakdown: notBuilt,
		activeVisitors: notBuilt,
		rollUp: notBuilt,
		async countViews() {
			const row = await db
				.selectFrom('analytics_events')
				.select((eb) => eb.fn.countAll().as('count'))
				.executeTakeFirstOrThrow()
			return Number(row.count)
		},
	}
}
