// Images stored before uploads were cleaned (migration 0012) are made again the same way: without
// their metadata, upright, under the same address, so the pages that show them need no change. An
// image that cannot be stored safely any more (larger than the limits, or unreadable) is deleted:
// a missing picture is better than a reader's browser decoding billions of pixels.

import type { PeriodicJobSpec } from '#app/lib/jobs.ts'
import type { Storage } from '#storage/port/storage.ts'
import { cleanImage } from './clean-image.server.ts'
import { isImageMime } from './image-types.ts'

const nextKey = 'uploads.cleaning.next'
const beforeKey = 'uploads.cleaning.before'
const batchSize = 10

export interface StoredImagesCleaned {
	cleaned: number
	/** Hashes of the images deleted, with why. */
	deleted: { hash: string; reason: string }[]
	/** Images still to clean (another pass finishes them). */
	left: number
}

/**
 * Cleans up to `limit` of the older images, oldest first, recording how far it got after each
 * batch: a pass cut off anywhere is carried on by the next, and an image cleaned twice is only
 * made again from clean pixels.
 */
export async function cleanStoredImages(
	storage: Storage,
	limit = Number.POSITIVE_INFINITY,
): Promise<StoredImagesCleaned> {
	const settings = await storage.settings.all()
	let next = Number(settings[nextKey] ?? 1)
	const before = Number(settings[beforeKey] ?? 1)
	const done: StoredImagesCleaned = { cleaned: 0, deleted: [], left: 0 }
	while (next < before && done.cleaned + done.deleted.length < limit) {
		const batch = await storage.uploads.listByIds(next, before, batchSize)
		if (batch.length === 0) {
			next = before
			break
		}
		for (const upload of batch) {
			const result = isImageMime(upload.mime)
				? await cleanImage(upload.bytes, upload.mime)
				: ({ ok: false, message: `It is stored as ${upload.mime}, not an image type.` } as const)
			if (result.ok) {
				await storage.uploads.replaceBytes(upload.hash, result)
				done.cleaned++
			} else {
				await storage.uploads.delete(upload.hash)
				done.deleted.push({ hash: upload.hash, reason: result.message })
			}
		}
		next = (batch.at(-1)?.id ?? next) + 1
		await storage.settings.set({ [nextKey]: String(next) })
	}
	if (next < before) done.left = (await storage.uploads.listByIds(next, before, 1_000)).length
	return done
}

/**
 * Once across instances, at start and again within the interval while images are left: the
 * images stored before uploads were cleaned, made again without their metadata. Once all are
 * done a pass finds nothing and costs one settings read. Undefined: the pass failed (logged).
 */
export const uploadCleaningJob: PeriodicJobSpec<StoredImagesCleaned | undefined> = {
	name: 'upload-cleaning',
	async pass({ storage, logger }) {
		try {
			const done = await cleanStoredImages(storage)
			for (const { hash, reason } of done.deleted)
				logger.warn('uploads: an image that cannot be stored safely was deleted', { hash, reason })
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
}
