// Every article's search stems made, as the server's worker makes them after saves
// (server/jobs/search-stems.ts), for a benchmark that writes its publication through the Storage
// port: a server started on it would otherwise spend its first half minute stemming 10,000
// articles beside the load it is measured under. A tree of a commit before stems has none.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Storage } from '#storage/port/storage.ts'

const module = join(import.meta.dirname, '../../app/features/search/stems.server.ts')

/** The tree's stems module; undefined for a commit before stems. */
export async function stemsModule(): Promise<
	typeof import('#app/features/search/stems.server.ts') | undefined
> {
	return existsSync(module) ? await import(pathToFileURL(module).href) : undefined
}

/** Seconds taken; undefined for a tree without stems. */
export async function makeStems(storage: Storage): Promise<number | undefined> {
	const stems = await stemsModule()
	if (!stems) return undefined
	const { step, batchSize } = stems.searchStemSteps(storage)
	const started = performance.now()
	while ((await step()).claimed >= batchSize) {}
	return (performance.now() - started) / 1000
}
