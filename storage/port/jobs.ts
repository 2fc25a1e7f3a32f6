// Periodic jobs' rows: one pass per interval across instances.
/** A periodic job's row (docs/decisions/017-jobs-across-instances.md). */
export interface JobRun {
	/** e.g. `message-retention`. */
	name: string
	/** When the next pass is due; a pass claimed before then is not run. */
	nextRunAt: string
	/** Until when the holder's claim lasts; null when nobody runs a pass. */
	leaseUntil: string | null
	/** The process that holds (or last held) the lease: host:pid:random. */
	holder: string | null
	/** Passes finished, by any instance. */
	runs: number
	lastStartedAt: string | null
	lastFinishedAt: string | null
}

export interface JobRunRepository {
	/**
	 * Leases the job to `holder` until `now + leaseMs` if a pass is due (a job never run is due)
	 * and no lease is live. One conditional UPDATE: of instances claiming at the same moment,
	 * exactly one gets it. Returns the row as it is now, claimed or not.
	 */
	claim(
		name: string,
		holder: string,
		now: Date,
		leaseMs: number,
	): Promise<{ claimed: boolean; run: JobRun }>
	/** Extends the holder's lease; false when it holds it no longer (it ran out and was taken). */
	renew(name: string, holder: string, leaseUntil: Date): Promise<boolean>
	/**
	 * The holder's pass is done: the lease is released, the next pass is due at `nextRunAt`, and
	 * runs goes up by one. False, and nothing changed, when it holds the lease no longer.
	 */
	finish(name: string, holder: string, nextRunAt: Date, now: Date): Promise<boolean>
	/** Every job's row, by name (operations, tests). */
	list(): Promise<JobRun[]>
}
