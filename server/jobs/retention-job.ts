// The shape of Canopy's hourly retention jobs (contact messages, raw screen views): a pass now and
// one every hour after, never two at once, and a setting that cannot be read said once per bad
// value rather than every hour. Every instance may run them: a pass only acts on what is past the
// setting, and acting twice does nothing more.
import type { Logger } from '../logger.ts'

export type PassOutcome<Done> = ({ ok: true } & Done) | { ok: false; error: string }

export interface RetentionJobSpec<Done> {
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
}

export interface RetentionJob<Done> {
	/** Runs one pass now (tests), after any pass under way. */
	runOnce(): Promise<PassOutcome<Done>>
	stop(): Promise<void>
}

export interface RetentionJobOptions {
	intervalMs?: number
	clock?: () => Date
}

export function startRetentionJob<Done>(
	spec: RetentionJobSpec<Done>,
	logger: Logger,
	options: RetentionJobOptions = {},
): RetentionJob<Done> {
	const intervalMs = options.intervalMs ?? 60 * 60 * 1000
	const clock = options.clock ?? (() => new Date())
	let chain: Promise<unknown> = Promise.resolve()
	let reported = ''

	const runOnce = (): Promise<PassOutcome<Done>> => {
		const step = chain.then(async (): Promise<PassOutcome<Done>> => {
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
		})
		chain = step
		return step
	}

	let stopped = false
	let timer: NodeJS.Timeout | undefined
	const tick = () => {
		runOnce().finally(() => {
			if (stopped) return
			timer = setTimeout(tick, intervalMs)
			timer.unref()
		})
	}
	tick()
	return {
		runOnce,
		async stop() {
			stopped = true
			clearTimeout(timer)
			await chain
		},
	}
}
