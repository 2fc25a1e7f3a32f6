// The shape of Canopy's periodic jobs (retention, clean-ups, roll-ups, change pruning): a pass
// every `intervalMs`, once across every instance on the database, not once per instance.
//
// Before a pass, an instance claims the job's row in job_runs (storage.jobs.claim): it gets it
// only when the pass is due and no other instance holds a live lease. While the pass runs, the
// lease is renewed every third of `leaseMs`; when it ends, the next pass is set `intervalMs`
// after this one began. An instance that dies mid-pass leaves its lease to run out, and another
// takes the pass over then. Every pass is written to be cut off at any point (each step is a
// transaction, and running a step again does nothing more), so a pass taken over is safe too.
//
// An instance that did not get the claim sleeps until the pass is due, or the lease runs out,
// whichever is later (at most `recheckMs`), and tries again. See
// docs/decisions/017-jobs-across-instances.md.

import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { processName } from '../instance.ts'
import { retryWarning } from './retry-warning.ts'

export interface PeriodicJob<Result> {
	/** Runs one pass now, whatever the schedule, after any pass under way (tests, operations). */
	runOnce(): Promise<Result>
	/** Stops the timer and waits for a pass under way (which then records its end). */
	stop(): Promise<void>
}

export interface PeriodicTiming {
	/** Between the starts of two passes, site-wide (default: an hour). */
	intervalMs?: number
	/** How long a claim lasts without renewal (default: a minute). */
	leaseMs?: number
	/** Who claims: this process (default: processName). */
	holder?: string
}

export interface PeriodicSpec<Result> {
	/** The job's row in job_runs: `message-retention`. */
	name: string
	/** One pass; it handles and logs its own errors. */
	pass(): Promise<Result>
	/** Work for this process alone, once, after its first claim (whoever then ran the pass). */
	afterFirstClaim?(): Promise<void>
}

const hourMs = 60 * 60 * 1000
/** The longest an instance sleeps between two looks at a job's row. */
const recheckMs = 5 * 60 * 1000
/** After a failed claim (the database away), the next try. */
const retryMs = 30 * 1000

export function startPeriodic<Result>(
	storage: Storage,
	logger: Logger,
	spec: PeriodicSpec<Result>,
	timing: PeriodicTiming = {},
): PeriodicJob<Result> {
	const { name } = spec
	const intervalMs = timing.intervalMs ?? hourMs
	const leaseMs = timing.leaseMs ?? 60 * 1000
	const holder = timing.holder ?? processName
	const fields = { job: name, holder }

	let chain: Promise<unknown> = Promise.resolve()
	const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
		// Work that threw all the same does not stop what comes after it.
		const step = chain.catch(() => undefined).then(work)
		chain = step
		return step
	}

	/** Runs the claimed pass, renewing the lease meanwhile. */
	async function runClaimed() {
		let lost = false
		let ended = false
		const renewal = setInterval(() => {
			storage.jobs
				.renew(name, holder, new Date(Date.now() + leaseMs))
				.then((held) => {
					// A renewal that lands after the pass ended finds the lease released: not a loss.
					if (held || lost || ended) return
					lost = true
					logger.warn(
						`jobs: ${name}: the claim ran out during a slow pass; another instance may run it too`,
						fields,
					)
				})
				.catch((error: unknown) =>
					logger.warn(`jobs: ${name}: could not renew the claim; will retry`, { ...fields, error }),
				)
		}, leaseMs / 3)
		renewal.unref()
		try {
			await spec.pass()
		} catch (error) {
			logger.warn(`jobs: ${name}: the pass failed; will retry`, { ...fields, error })
		} finally {
			ended = true
			clearInterval(renewal)
		}
	}

	const scheduleUnread = retryWarning(logger, `jobs: ${name}: could not read the schedule`)

	/** One look at the job: claims and runs a due pass; returns when to look again (ms from now). */
	async function tryPass(): Promise<number> {
		const started = new Date()
		let claim: Awaited<ReturnType<Storage['jobs']['claim']>>
		try {
			claim = await storage.jobs.claim(name, holder, started, leaseMs)
		} catch (error) {
			scheduleUnread(error, fields)
			return retryMs
		}
		if (!claim.claimed) {
			const { nextRunAt, leaseUntil } = claim.run
			const due = Math.max(Date.parse(nextRunAt), leaseUntil ? Date.parse(leaseUntil) : 0)
			return due - Date.now()
		}
		logger.debug(`jobs: ${name}: pass started`, { ...fields, claimedAt: started.toISOString() })
		await runClaimed()
		const next = new Date(started.getTime() + intervalMs)
		try {
			const held = await storage.jobs.finish(name, holder, next, new Date())
			logger.debug(`jobs: ${name}: pass done`, { ...fields, held, nextRunAt: next.toISOString() })
		} catch (error) {
			// The lease runs out, and the pass runs again then: harmless, as every pass is.
			logger.warn(`jobs: ${name}: could not record the end of the pass`, { ...fields, error })
			return leaseMs
		}
		return next.getTime() - Date.now()
	}

	let stopped = false
	let first = true
	let timer: NodeJS.Timeout | undefined
	const tick = () => {
		const look = enqueue(async (): Promise<number> => {
			const wait = await tryPass()
			if (first && spec.afterFirstClaim) {
				first = false
				await spec
					.afterFirstClaim()
					.catch((error: unknown) =>
						logger.warn(`jobs: ${name}: could not finish starting`, { ...fields, error }),
					)
			}
			return wait
		}).catch(() => retryMs)
		look.then((wait) => {
			if (stopped) return
			// A little past the moment, so that the lease or the due time has passed for sure.
			timer = setTimeout(tick, Math.min(Math.max(wait, 0) + 10, recheckMs))
			timer.unref()
		})
	}
	tick()

	return {
		runOnce: () => enqueue(spec.pass),
		async stop() {
			stopped = true
			clearTimeout(timer)
			await chain.catch(() => undefined)
		},
	}
}
