// Moving in's runs, for both databases: written by the run's own process, read by the pages.
import type { Kysely } from 'kysely'
import { type MoveInRepository, type MoveInRun, stoppedWithServer } from '../port/move-in.ts'
import type { Dialect } from '../port/storage.ts'
import { isUniqueViolation } from './article-save.ts'
import { toIso, toIsoOrNull } from './rows.ts'
import type { Database } from './schema.ts'

function parsed(text: unknown): unknown {
	if (text === null || text === undefined) return null
	return typeof text === 'string' ? JSON.parse(text) : text
}

function toRun(row: Record<string, unknown>): MoveInRun {
	return {
		id: String(row.id),
		format: row.format === 'wordpress' ? 'wordpress' : 'ghost',
		dryRun: Boolean(row.dry_run),
		fileName: String(row.file_name),
		withImages: Boolean(row.with_images),
		state: row.state as MoveInRun['state'],
		progress: parsed(row.progress) as MoveInRun['progress'],
		report: parsed(row.report),
		error: row.error === null ? null : String(row.error),
		startedBy: row.started_by === null ? null : String(row.started_by),
		startedAt: toIso(row.started_at),
		updatedAt: toIso(row.updated_at),
		finishedAt: toIsoOrNull(row.finished_at),
	}
}

export function createMoveInRepository(db: Kysely<Database>, dialect: Dialect): MoveInRepository {
	const flag = (on: boolean) => (dialect === 'postgres' ? on : on ? 1 : 0)
	const find = async (id: string) => {
		const row = await db
			.selectFrom('move_in_runs')
			.selectAll()
			.where('id', '=', id)
			.executeTakeFirst()
		return row && toRun(row)
	}
	return {
		async create(run, now, staleBefore) {
			const at = now.toISOString()
			try {
				await db.transaction().execute(async (trx) => {
					await trx
						.updateTable('move_in_runs')
						.set({
							state: 'failed',
							error: stoppedWithServer,
							finished_at: at,
						})
						.where('state', '=', 'running')
						.where('updated_at', '<', staleBefore.toISOString())
						.execute()
					await trx
						.insertInto('move_in_runs')
						.values({
							id: run.id,
							format: run.format,
							dry_run: flag(run.dryRun),
							file_name: run.fileName,
							with_images: flag(run.withImages),
							progress: JSON.stringify({ phase: 'starting', posts: 0, total: null }),
							started_by: run.startedBy,
							started_at: at,
							updated_at: at,
						})
						.execute()
				})
			} catch (error) {
				if (isUniqueViolation(error)) return undefined
				throw error
			}
			return find(run.id)
		},
		find,
		async recent(limit) {
			const rows = await db
				.selectFrom('move_in_runs')
				.selectAll()
				.orderBy('started_at', 'desc')
				.limit(limit)
				.execute()
			return rows.map(toRun)
		},
		async progress(id, progress, now) {
			await db
				.updateTable('move_in_runs')
				.set({ progress: JSON.stringify(progress), updated_at: now.toISOString() })
				.where('id', '=', id)
				.where('state', '=', 'running')
				.execute()
		},
		async finish(id, outcome, now) {
			const at = now.toISOString()
			await db
				.updateTable('move_in_runs')
				.set(
					'report' in outcome
						? {
								state: 'done',
								report: JSON.stringify(outcome.report),
								updated_at: at,
								finished_at: at,
							}
						: {
								state: 'failed',
								error: outcome.error.slice(0, 2_000),
								updated_at: at,
								finished_at: at,
							},
				)
				.where('id', '=', id)
				.where('state', '=', 'running')
				.execute()
		},
	}
}
