// Every article's search stems made, as the server's worker makes them after saves
// (server/jobs/search-stems.ts), for a benchmark that writes its publication through the Storage
// port: a server started on it would otherwise spend its first half minute stemming 10,000
// articles beside the load it is measured under. A tree of a commit before stems has none.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Storage } from '#storage/port/storage.ts'

const module = join(import.meta.dirname, '../../app/features/search/stems.server.ts')

/** Seconds taken; undefined for a tree without stems. */
export async function makeStems(storage: Storage): Promise<number | undefined> {
	if (!existsSync(module)) return undefined
	const stems: typeof import('#app/features/search/stems.server.ts') = await import(
		pathToFileURL(module).href
	)
	const { step, batchSize } = stems.searchStemSteps(storage)
	const started = performance.now()
	while ((await step()).claimed >= batchSize) {}
	return (performance.now() - started) / 1000
}
