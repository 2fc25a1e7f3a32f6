// Canopy's periodic jobs as features declare them, beside the logic they run. The server runs
// them (server/jobs/periodic.ts: a pass once per interval across every instance), each listed
// once in server/jobs/jobs.ts. Decision 017 says how instances share them.
import type { Storage } from '#storage/port/storage.ts'
import type { Logger } from './logger.ts'

export interface JobContext {
	storage: Storage
	logger: Logger
	/** What a pass takes as now (tests set it). */
	clock: () => Date
}

export interface PeriodicJobSpec<Result> {
	/** The job's row in job_runs: `push-cleanup`. */
	name: string
	/** One pass; it handles and logs its own errors. */
	pass(job: JobContext): Promise<Result>
	/** Work for this process alone, once, after its first claim (whoever then ran the pass). */
	afterFirstClaim?(job: JobContext): Promise<void>
}

export type PassOutcome<Done> = ({ ok: true } & Done) | { ok: false; error: string }

/**
 * A periodic job bounded by a setting (how long messages or screen views are kept): a pass only
 * acts on what is past the setting, and a setting that cannot be read is said once per bad
 * value, not every hour. Acting twice does nothing more, so a pass taken over is safe.
 */
export interface SettingJobSpec<Done> {
	name: string
	/** What the log lines start with: `messages`. */
	area: string
	settingKey: string
	/** What a pass stopped by the setting did not do: "no old message deleted". */
	skipped: string
	/** What a pass that threw could not do: "could not delete old messages". */
	failed: string
	pass(job: JobContext): Promise<PassOutcome<Done>>
	/** The info line for a pass that did something; nothing for one that found nothing to do. */
	report(done: Done): [message: string, fields: Record<string, unknown>] | undefined
	afterFirstClaim?(job: JobContext): Promise<void>
}
