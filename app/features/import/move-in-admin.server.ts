// What the moving-in pages decide on the server: whether a run is still alive, a new run's id,
// and a checked dry run imported from the files it kept.
import { randomUUID } from 'node:crypto'
import { existsSync, renameSync } from 'node:fs'
import type { MoveInRun } from '#storage/port/move-in.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { MoveInStarter } from './move-in-starter.ts'

/** A run's process writes at least every 5 s: one silent for 30 s was stopped with its server. */
export function isStalled(run: Pick<MoveInRun, 'state' | 'updatedAt'>, now: Date): boolean {
	return run.state === 'running' && now.getTime() - new Date(run.updatedAt).getTime() > 30_000
}

export const newRunId = (): string => randomUUID()

/**
 * Imports the files a finished dry run kept, as a new run; undefined when they are gone (a day
 * has passed, or another instance holds them).
 */
export async function importChecked(
	storage: Storage,
	moveIn: MoveInStarter,
	checked: MoveInRun,
	startedBy: string,
): Promise<MoveInRun | undefined> {
	const from = moveIn.folder(checked.id)
	if (!existsSync(`${from}/export`)) return undefined
	const id = newRunId()
	const to = moveIn.folder(id)
	renameSync(from, to)
	const run = await storage.moveIns.create(
		{
			id,
			format: checked.format,
			dryRun: false,
			fileName: checked.fileName,
			withImages: checked.withImages,
			startedBy,
		},
		new Date(),
	)
	moveIn.start(id)
	return run
}
