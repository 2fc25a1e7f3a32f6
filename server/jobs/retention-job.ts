// The shape of Canopy's hourly retention jobs (contact messages, raw screen views): a periodic
// job (periodic.ts: once per interval across instances) whose pass reads a setting, and a setting
// that cannot be read said once per bad value rather than every hour. A pass only acts on what is
// past the setting, and acting twice does nothing more, so a pass taken over by another instance
// after a crash is safe.
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type PeriodicTiming, startPeriodic } from './periodic.ts'

export type PassOutcome<Done> = ({ ok: true } & Done) | { ok: false; error: string }

export interface RetentionJobSpec<Done> {
	/** The job's row in job_runs: `message-retention`. */
	name: string
	/** What the log lines start with: `messages`. */
	area: string
	settingKey: string
	/** What a pass stopped by the setting did not do: "no old message deleted". */
	skipped: string
	/** What a pass that threw could not do: "could not delete old messages". */
	failed: string
	pass(now: Date): Promise<PassOutcome<Done>>
	/** The info line for a pass that did something; nothing for one that found nothing to do. */
	report(done: Done): [message: string, fields: Record<string, unknown>] | undefined
	/** Work for this process alone, once, after its first claim (periodic.ts). */
	afterFirstClaim?(): Promise<void>
}

export interface RetentionJob<Done> {
	/** Runs one pass now (tests), after any pass under way. */
	runOnce(): Promise<PassOutcome<Done>>
	stop(): Promise<void>
}

export interface RetentionJobOptions extends PeriodicTiming {
	/** What a pass takes as now: which records are past the setting. */
	clock?: () => Date
}

export function startRetentionJob<Done>(
	storage: Storage,
	spec: RetentionJobSpec<Done>,
	logger: Logger,
	options: RetentionJobOptions = {},
): RetentionJob<Done> {
	const clock = options.clock ?? (() => new Date())
	let reported = ''

	async function pass(): Promise<PassOutcome<Done>> {
		try {
			const outcome = await spec.pass(clock())
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

	return startPeriodic(
		storage,
		logger,
		{ name: spec.name, pass, afterFirstClaim: spec.afterFirstClaim },
		options,
	)
}
