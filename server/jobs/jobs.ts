// Every background job Canopy runs, in one list. The periodic ones are declared by their
// features, beside the logic they run (app/lib/jobs.ts gives their shape); this file starts them
// on the runner (periodic.ts: a pass once per interval across every instance). The queue
// workers (mail-outbox.ts, push-delivery.ts) and the publishing clock (scheduled-publishing.ts)
// are started by server/compose.ts beside them.
import { analyticsRollupJob } from '#app/features/analytics/retention.server.ts'
import { messageRetentionJob } from '#app/features/contact/message-retention.server.ts'
import { privacyCleanupJob } from '#app/features/privacy/visitor-hash.server.ts'
import { pushCleanupJob } from '#app/features/push/retention.server.ts'
import { uploadCleaningJob } from '#app/features/uploads/clean-stored.server.ts'
import { changePruningJob } from '#app/lib/change-pruning.server.ts'
import type { JobContext, PassOutcome, PeriodicJobSpec, SettingJobSpec } from '#app/lib/jobs.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type PeriodicJob, type PeriodicTiming, startPeriodic } from './periodic.ts'

/** The periodic jobs, by the name CanopyJobs turns each on or off with. */
export const periodicJobs = {
	/** The change feed keeps its newest 10,000 changes. */
	changePruning: changePruningJob,
	/** Contact messages older than `contact.retentionDays`. */
	messageRetention: messageRetentionJob,
	/** Past days' visitor-hash salts and stale rate-limit counters. */
	privacyCleanup: privacyCleanupJob,
	/** Dead push subscriptions; old delivery rows into totals. */
	pushCleanup: pushCleanupJob,
	/** Screen views older than `analytics.retentionDays` into daily totals. */
	analyticsRollup: analyticsRollupJob,
	/** Images stored before uploads were cleaned, made again without metadata. */
	uploadCleaning: uploadCleaningJob,
} as const

export type PeriodicJobName = keyof typeof periodicJobs

export interface JobOptions extends PeriodicTiming {
	/** What a pass takes as now (tests). */
	clock?: () => Date
}

type ResultOf<Spec> =
	Spec extends SettingJobSpec<infer Done>
		? PassOutcome<Done>
		: Spec extends PeriodicJobSpec<infer Result>
			? Result
			: never

/** Starts one job on the runner: claimed once per interval across instances. */
export function startJob<Spec extends PeriodicJobSpec<unknown> | SettingJobSpec<object>>(
	spec: Spec,
	storage: Storage,
	logger: Logger,
	options: JobOptions = {},
): PeriodicJob<ResultOf<Spec>> {
	const job: JobContext = { storage, logger, clock: options.clock ?? (() => new Date()) }
	const pass = 'settingKey' in spec ? settingPass(spec, job) : () => spec.pass(job)
	return startPeriodic(
		storage,
		logger,
		{
			name: spec.name,
			pass: pass as () => Promise<ResultOf<Spec>>,
			afterFirstClaim: spec.afterFirstClaim && (() => spec.afterFirstClaim?.(job) as Promise<void>),
		},
		options,
	)
}

/** A setting job's pass: a setting that cannot be read said once per bad value, not every hour. */
function settingPass<Done>(spec: SettingJobSpec<Done>, job: JobContext) {
	const { logger } = job
	let reported = ''
	return async (): Promise<PassOutcome<Done>> => {
		try {
			const outcome = await spec.pass(job)
			if (!outcome.ok && outcome.error !== reported) {
				logger.warn(`${spec.area}: ${spec.skipped}; fix the ${spec.settingKey} setting`, {
					error: outcome.error,
				})
			}
			reported = outcome.ok ? '' : outcome.error
			const line = outcome.ok ? spec.report(outcome) : undefined
			if (line) logger.info(`${spec.area}: ${line[0]}`, line[1])
			return outcome
		} catch (error) {
			logger.warn(`${spec.area}: ${spec.failed}; will retry`, { error })
			return { ok: false, error: String(error) }
		}
	}
}

/** Starts every periodic job that `enabled` turns on; returns their stop functions. */
export function startPeriodicJobs(
	enabled: Record<PeriodicJobName, boolean>,
	storage: Storage,
	logger: Logger,
	options: JobOptions,
): (() => Promise<void>)[] {
	return (Object.keys(periodicJobs) as PeriodicJobName[])
		.filter((name) => enabled[name])
		.map((name) => startJob(periodicJobs[name], storage, logger, options).stop)
}
