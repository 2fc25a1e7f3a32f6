// The loop of Canopy's queue workers (the mail outbox, push deliveries): one step claims a batch
// and handles it; steps run one after another, whoever asks for them (the timer, a wake, a test);
// a full batch, or a wake during a step, means the next step runs at once, else after
// `intervalMs`.
import type { Logger } from '#app/lib/logger.ts'
import { retryWarning } from './retry-warning.ts'

export interface BatchWorker<Outcome> {
	/** Runs one step now, after any step under way. */
	runOnce(): Promise<Outcome>
	/** Something was queued: step now rather than at the next tick. */
	wake(): void
	/**
	 * Stops the timer and waits for the step under way, or at most `stopGraceMs` (a step left
	 * then is left to its leases, as if the process had died); then lets go of what the steps
	 * held (`release`).
	 */
	stop(): Promise<void>
}

/**
 * What a step says of itself: how many items it claimed, and `more` when it left due items for
 * the next step though it claimed fewer than a batch (it stopped short, at a size limit).
 */
export interface StepOutcome {
	claimed: number
	more?: boolean
}

export function startBatchWorker<Outcome extends StepOutcome>(spec: {
	step(): Promise<Outcome>
	/** What a step that threw counts as, after `failed` is logged. */
	nothing(): Outcome
	/** The warning for a step that threw: "mail: could not read the outbox". */
	failed: string
	batchSize: number
	intervalMs: number
	logger: Logger
	/** How long stop() waits for a step under way; unset: until it ends. */
	stopGraceMs?: number
	/** What the steps held open (an SMTP pool, an HTTP agent), closed once stopped. */
	release?: () => void
}): BatchWorker<Outcome> {
	let chain: Promise<unknown> = Promise.resolve()
	const warn = retryWarning(spec.logger, spec.failed)
	const runOnce = (): Promise<Outcome> => {
		const next = chain.then(() =>
			spec.step().catch((error: unknown) => {
				warn(error)
				return spec.nothing()
			}),
		)
		chain = next
		return next
	}

	let timer: NodeJS.Timeout | undefined
	let stepping = false
	let wokenMeanwhile = false
	let stopped = false
	const schedule = (delayMs: number) => {
		clearTimeout(timer)
		if (stopped) return
		timer = setTimeout(tick, delayMs)
		timer.unref()
	}
	async function tick() {
		stepping = true
		const outcome = await runOnce()
		stepping = false
		// A full batch means more may be due: go on at once rather than a second later.
		const more = wokenMeanwhile || outcome.more === true || outcome.claimed >= spec.batchSize
		wokenMeanwhile = false
		schedule(more ? 0 : spec.intervalMs)
	}
	schedule(0)

	return {
		runOnce,
		wake() {
			if (stepping) wokenMeanwhile = true
			else schedule(0)
		},
		async stop() {
			stopped = true
			clearTimeout(timer)
			const graceMs = spec.stopGraceMs
			let grace: NodeJS.Timeout | undefined
			await Promise.race([
				chain,
				...(graceMs === undefined
					? []
					: [
							new Promise((resolve) => {
								grace = setTimeout(resolve, graceMs)
							}),
						]),
			])
			clearTimeout(grace)
			spec.release?.()
		},
	}
}

/** A worker that was not started (the configuration's or a test's choice): it never claims. */
export function idleWorker<Outcome>(nothing: Outcome): BatchWorker<Outcome> {
	return {
		runOnce: async () => nothing,
		wake() {},
		async stop() {},
	}
}
