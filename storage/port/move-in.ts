// Moving in from the admin page: each import an admin starts, its progress and its report, kept
// where every instance can read them (the import itself runs in a process of its own).

export type MoveInFormat = 'ghost' | 'wordpress'

/** Why a run whose process stopped with its server failed. */
export const stoppedWithServer =
	'The import stopped when its server did. What came across before stays: start it again, and it brings the rest (what is here already is left as it is).'

/** running: its process is at work (or was stopped with its server: see updatedAt). */
export type MoveInState = 'running' | 'done' | 'failed'

export interface MoveInProgress {
	/** unpacking: the images' archive; checking: the whole file read once; importing; finishing. */
	phase: 'starting' | 'unpacking' | 'checking' | 'importing' | 'finishing'
	/** Posts read so far in this phase. */
	posts: number
	/** Posts in the file, once the check has counted them. */
	total: number | null
}

export interface MoveInRun {
	id: string
	format: MoveInFormat
	dryRun: boolean
	/** The export's name as uploaded. */
	fileName: string
	withImages: boolean
	state: MoveInState
	progress: MoveInProgress
	/** The import's report (import-report.ts), once done. */
	report: unknown
	/** Why it failed, in a sentence for the admin. */
	error: string | null
	startedBy: string | null
	startedAt: string
	/** Written with each progress: a running import not updated for a while was stopped. */
	updatedAt: string
	finishedAt: string | null
}

export interface MoveInRepository {
	/**
	 * Writes a new running run, unless one is running already (undefined): at most one at a
	 * time, across instances. A running run not updated since `staleBefore` was stopped with its
	 * server: it is closed as failed first, and does not stand in the way.
	 */
	create(
		run: Pick<MoveInRun, 'id' | 'format' | 'dryRun' | 'fileName' | 'withImages' | 'startedBy'>,
		now: Date,
		staleBefore: Date,
	): Promise<MoveInRun | undefined>
	find(id: string): Promise<MoveInRun | undefined>
	/** The newest first. */
	recent(limit: number): Promise<MoveInRun[]>
	/** Records progress (and that the run is alive). */
	progress(id: string, progress: MoveInProgress, now: Date): Promise<void>
	/** Records the end, once: a run that has ended already is left as it is. */
	finish(id: string, outcome: { report: unknown } | { error: string }, now: Date): Promise<void>
}
