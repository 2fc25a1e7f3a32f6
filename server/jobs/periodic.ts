// A pass now and one every `intervalMs` after, never two at once: the shape of the hourly
// clean-up jobs (privacy, push). The pass handles its own errors; stop() waits for one under way.
export interface PeriodicJob<Result> {
	/** Runs one pass now (tests), after any pass under way. */
	runOnce(): Promise<Result>
	stop(): Promise<void>
}

export function startPeriodic<Result>(
	pass: () => Promise<Result>,
	intervalMs: number,
): PeriodicJob<Result> {
	let running: Promise<unknown> = Promise.resolve()
	const runOnce = () => {
		// A pass that threw all the same does not stop the ones after it.
		const step = running.catch(() => undefined).then(() => pass())
		running = step
		return step
	}
	runOnce()
	const timer = setInterval(runOnce, intervalMs)
	timer.unref()
	return {
		runOnce,
		async stop() {
			clearInterval(timer)
			await running
		},
	}
}
