// The upload-cleaning job: once across instances, makes the images stored before uploads were
// cleaned again without their metadata (app/features/uploads/clean-stored.server.ts). Runs at
// start, and again within the interval while images are left; once all are done a pass finds
// nothing and costs one settings read.
import {
	cleanStoredImages,
	type StoredImagesCleaned,
} from '#app/features/uploads/clean-stored.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type PeriodicJob, type PeriodicTiming, startPeriodic } from './periodic.ts'

/** runOnce() gives what the pass did, or undefined when it failed (logged; tried next time). */
export function startUploadCleaning(
	storage: Storage,
	logger: Logger,
	timing: PeriodicTiming = {},
): PeriodicJob<StoredImagesCleaned | undefined> {
	return startPeriodic(
		storage,
		logger,
		{
			name: 'upload-cleaning',
			async pass() {
				try {
					const done = await cleanStoredImages(storage)
					for (const { hash, reason } of done.deleted)
						logger.warn('uploads: an image that cannot be stored safely was deleted', {
							hash,
							reason,
						})
					if (done.cleaned > 0)
						logger.info('uploads: older images made again without their metadata', {
							cleaned: done.cleaned,
							left: done.left,
						})
					return done
				} catch (error) {
					logger.warn('uploads: could not clean older images; will retry', { error })
					return undefined
				}
			},
		},
		timing,
	)
}
