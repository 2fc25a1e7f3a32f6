// What the moving-in pages decide on the server: whether a run is still alive, a new run's id,
// and a checked dry run imported from the files it kept.
import { randomUUID } from 'node:crypto'
import { existsSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type { MoveInRun } from '#storage/port/move-in.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { MoveInStarter } from './move-in-starter.ts'

/** A run's process writes at least every 5 s: one silent for 30 s was stopped with its server. */
const stalledAfterMs = 30_000

export function isStalled(run: Pick<MoveInRun, 'state' | 'updatedAt'>, now: Date): boolean {
	return (
		run.state === 'running' && now.getTime() - new Date(run.updatedAt).getTime() > stalledAfterMs
	)
}

/** Records a new run, unless another is running (undefined): one import at a time. */
export function recordRun(
	storage: Storage,
	run: Parameters<Storage['moveIns']['create']>[0],
): Promise<MoveInRun | undefined> {
	const now = new Date()
	return storage.moveIns.create(run, now, new Date(now.getTime() - stalledAfterMs))
}

export const newRunId = (): string => randomUUID()

/**
 * Imports the files a finished dry run kept, as a new run: 'gone' when they are no longer here
 * (a day has passed, or another instance holds them), 'busy' when another import is running.
 */
export async function importChecked(
	storage: Storage,
	moveIn: MoveInStarter,
	checked: MoveInRun,
	startedBy: string,
): Promise<MoveInRun | 'gone' | 'busy'> {
	const from = moveIn.folder(checked.id)
	if (!existsSync(join(from, 'export'))) return 'gone'
	const id = newRunId()
	const to = moveIn.folder(id)
	// The files are this run's before it is recorded: a day-old sweep may take them meanwhile.
	try {
		renameSync(from, to)
	} catch {
		return 'gone'
	}
	const run = await recordRun(storage, {
		id,
		format: checked.format,
		dryRun: false,
		fileName: checked.fileName,
		withImages: checked.withImages,
		startedBy,
	})
	if (!run) {
		// Another import runs: the checked files wait where they were.
		try {
			renameSync(to, from)
		} catch {
			return 'gone'
		}
		return 'busy'
	}
	moveIn.start(id)
	return run
}
