// A circuit breaker in front of PostgreSQL. While the database answers, it only watches: a
// connection that fails, or a connect or query that takes longer than `slowMs`, makes it check
// the database once with a fresh connection (the probe). A failed probe opens the breaker: every
// piece of work waiting on the database is abandoned with StorageUnavailable, and new work fails
// at once, without a connection attempt, so no visitor waits on a database that is not there.
// One background probe at a time then decides when it is back. Decision 016 says why.
import { type StorageHealth, StorageUnavailable } from '../port/unavailable.ts'

export interface GuardOptions {
	/** Opens a fresh connection and runs a trivial query; rejects if either fails or is late. */
	probe(): Promise<void>
	/** Work outstanding this long makes the guard probe (default 1 s). */
	slowMs?: number
	/** Between probes while the database is down (default 250 ms). */
	probeIntervalMs?: number
	/** Called once when an outage begins, and once when it ends. */
	onDown?(error: unknown): void
	onUp?(downMs: number): void
}

export interface DatabaseGuard extends StorageHealth {
	/** Throws StorageUnavailable at once while the database is down. */
	assertAvailable(): void
	/**
	 * Resolves or rejects as `work` does, unless the database is found down first: then rejects
	 * with StorageUnavailable at once, and `abandon` is given what `work` yields if it ever does.
	 */
	watch<T>(work: Promise<T>, abandon?: (value: T) => void): Promise<T>
	/** Something looked wrong (a connection died): check the database now, in the background. */
	suspect(): void
	/** The database said no without doubt (connection refused): down now, no probe needed. */
	down(error: unknown): void
	/** Calls `listener` each time the database comes back. */
	onRecovered(listener: () => void): () => void
	stop(): void
}

export function unavailableError(retryAfterSeconds: number, cause?: unknown): StorageUnavailable {
	return new StorageUnavailable(
		'The database cannot be reached just now; the site will answer again as soon as it is back.',
		{ retryAfterSeconds, cause },
	)
}

/** One closure over the guard's state (up, checking, down since): its short methods share it. */
export function createDatabaseGuard(options: GuardOptions): DatabaseGuard {
	const slowMs = options.slowMs ?? 1_000
	const probeIntervalMs = options.probeIntervalMs ?? 250
	/** Rejecters of the work in flight, called when the breaker opens. */
	const inFlight = new Set<(error: StorageUnavailable) => void>()
	const recovered = new Set<() => void>()
	let downSince: number | undefined
	let probing: Promise<void> | undefined
	let timer: NodeJS.Timeout | undefined
	let stopped = false

	// Honest, not precise: the probe finds the database within a quarter of a second of its return,
	// and a database down for long is likely to stay down a while longer.
	const retryAfterSeconds = () =>
		downSince === undefined
			? 1
			: Math.min(30, Math.max(2, Math.ceil((Date.now() - downSince) / 2_000)))

	function goDown(error: unknown) {
		if (downSince !== undefined || stopped) return
		downSince = Date.now()
		options.onDown?.(error)
		const abandoned = unavailableError(retryAfterSeconds(), error)
		for (const reject of [...inFlight]) reject(abandoned)
		schedule()
	}

	function goUp() {
		if (downSince === undefined) return
		const downMs = Date.now() - downSince
		downSince = undefined
		options.onUp?.(downMs)
		for (const listener of [...recovered]) listener()
	}

	function schedule() {
		if (stopped || timer) return
		timer = setTimeout(() => {
			timer = undefined
			probe()
		}, probeIntervalMs)
		timer.unref()
	}

	function probe(): Promise<void> {
		if (stopped) return Promise.resolve()
		probing ??= options
			.probe()
			.then(goUp, goDown)
			.finally(() => {
				probing = undefined
				if (downSince !== undefined) schedule()
			})
		return probing
	}

	return {
		get available() {
			return downSince === undefined
		},
		get retryAfterSeconds() {
			return retryAfterSeconds()
		},
		assertAvailable() {
			if (downSince !== undefined) throw unavailableError(retryAfterSeconds())
		},
		watch<T>(work: Promise<T>, abandon?: (value: T) => void): Promise<T> {
			if (downSince !== undefined) {
				work.then(abandon, () => {})
				return Promise.reject(unavailableError(retryAfterSeconds()))
			}
			return new Promise<T>((resolve, reject) => {
				let settled = false
				const giveUp = (error: StorageUnavailable) => {
					if (settled) return
					settled = true
					done()
					reject(error)
				}
				const slow = setTimeout(() => void probe(), slowMs)
				slow.unref()
				const done = () => {
					clearTimeout(slow)
					inFlight.delete(giveUp)
				}
				inFlight.add(giveUp)
				work.then(
					(value) => {
						if (settled) return abandon?.(value)
						settled = true
						done()
						resolve(value)
					},
					(error) => {
						if (settled) return
						settled = true
						done()
						reject(error)
					},
				)
			})
		},
		suspect() {
			if (downSince === undefined) void probe()
		},
		down: goDown,
		onRecovered(listener) {
			recovered.add(listener)
			return () => recovered.delete(listener)
		},
		stop() {
			stopped = true
			clearTimeout(timer)
		},
	}
}
