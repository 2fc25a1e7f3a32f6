// The periodic jobs' rows (migration 0010_job_runs): who may run a pass now, written once for
// both databases. A claim is one conditional UPDATE, which is atomic on both: SQLite has one
// writer at a time, and PostgreSQL makes a second UPDATE of the same row wait for the first to
// commit, then checks its WHERE again against the row the first one left (lease taken: no match).
import type { Kysely } from 'kysely'
import type { JobRun, JobRunRepository } from '../port/jobs.ts'
import { toIso, toIsoOrNull } from './rows.ts'
import type { Database } from './schema.ts'

function toJobRun(row: Record<string, unknown>): JobRun {
	return {
		name: String(row.name),
		nextRunAt: toIso(row.next_run_at),
		leaseUntil: toIsoOrNull(row.lease_until),
		holder: row.holder === null ? null : String(row.holder),
		runs: Number(row.runs),
		lastStartedAt: toIsoOrNull(row.last_started_at),
		lastFinishedAt: toIsoOrNull(row.last_finished_at),
	}
}

export function createJobRunRepository(db: Kysely<Database>): JobRunRepository {
	return {
		async claim(name, holder, now, leaseMs) {
			const at = now.toISOString()
			// A job nobody has run yet is due at once: a new site runs every pass at its first start.
			await db
				.insertInto('job_runs')
				.values({ name, next_run_at: at })
				.onConflict((oc) => oc.column('name').doNothing())
				.execute()
			const claimed = await db
				.updateTable('job_runs')
				.set({
					holder,
					lease_until: new Date(now.getTime() + leaseMs).toISOString(),
					last_started_at: at,
				})
				.where('name', '=', name)
				.where('next_run_at', '<=', at)
				.where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
				.returningAll()
				.executeTakeFirst()
			if (claimed) return { claimed: true, run: toJobRun(claimed) }
			const row = await db
				.selectFrom('job_runs')
				.selectAll()
				.where('name', '=', name)
				.executeTakeFirstOrThrow()
			return { claimed: false, run: toJobRun(row) }
		},
		async renew(name, holder, leaseUntil) {
			const result = await db
				.updateTable('job_runs')
				.set({ lease_until: leaseUntil.toISOString() })
				.where('name', '=', name)
				.where('holder', '=', holder)
				.where('lease_until', 'is not', null)
				.executeTakeFirst()
			return Number(result.numUpdatedRows) > 0
		},
		async finish(name, holder, nextRunAt, now) {
			const result = await db
				.updateTable('job_runs')
				.set((eb) => ({
					next_run_at: nextRunAt.toISOString(),
					lease_until: null,
					last_finished_at: now.toISOString(),
					runs: eb('runs', '+', 1),
				}))
				.where('name', '=', name)
				.where('holder', '=', holder)
				.where('lease_until', 'is not', null)
				.executeTakeFirst()
			return Number(result.numUpdatedRows) > 0
		},
		async list() {
			const rows = await db.selectFrom('job_runs').selectAll().orderBy('name').execute()
			return rows.map(toJobRun)
		},
	}
}
