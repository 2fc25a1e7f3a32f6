// The search-stems job: every half minute, and at once when woken by a change, a step of
// app/features/search/stems.server.ts on the queue worker's loop (batch-worker.ts): the stems
// of articles saved since, and of every article after the upgrade that brought them.
import { type SearchStemsOutcome, searchStemSteps } from '#app/features/search/stems.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type BatchWorker, startBatchWorker } from './batch-worker.ts'

export type SearchStemsWorker = BatchWorker<SearchStemsOutcome>

export interface SearchStemsOptions {
	intervalMs?: number
}

export function startSearchStems(
	storage: Storage,
	logger: Logger,
	options: SearchStemsOptions = {},
): SearchStemsWorker {
	const { step, nothing, batchSize } = searchStemSteps(storage, logger)
	return startBatchWorker({
		step,
		nothing,
		failed: 'search: could not make the stems of saved articles',
		batchSize,
		intervalMs: options.intervalMs ?? 30_000,
		logger,
	})
}
