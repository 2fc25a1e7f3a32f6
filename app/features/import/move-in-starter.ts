// What the moving-in pages need from the server to start an import: a folder for the upload and
// a process to run it in (server/portable/move-in-runner.ts). Declared here so the pages depend
// on this shape, not on the server.

export interface MoveInStarter {
	/** The largest export or images archive taken, in bytes (MOVE_IN_MAX_MB). */
	maxBytes: number
	/** The folder a run's files are written to: made empty for a new run. */
	folder(id: string): string
	/** Starts the run's own process on this instance; it reports through the run's row. */
	start(id: string): void
}
