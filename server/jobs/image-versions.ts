// The image-versions job: every few seconds, and at once when woken after an upload, a step of
// app/features/uploads/image-versions.server.ts on the queue worker's loop (batch-worker.ts).
import {
	type ImageVersionsOptions,
	type ImageVersionsOutcome,
	imageVersionSteps,
} from '#app/features/uploads/image-versions.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type BatchWorker, startBatchWorker } from './batch-worker.ts'

export type ImageVersionsWorker = BatchWorker<ImageVersionsOutcome>

export function startImageVersions(
	storage: Storage,
	logger: Logger,
	options: ImageVersionsOptions = {},
): ImageVersionsWorker {
	const { step, nothing, batchSize } = imageVersionSteps(storage, logger, options)
	return startBatchWorker({
		step,
		nothing,
		failed: 'images: could not read the image queue',
		batchSize,
		intervalMs: options.intervalMs ?? 5_000,
		logger,
		// An image under way is left to its lease: another instance, or the next start, makes it.
		stopGraceMs: 5_000,
	})
}
