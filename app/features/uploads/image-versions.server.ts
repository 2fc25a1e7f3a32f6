// The image-versions job's work (decision 023): each step leases one image whose versions are
// due and makes them with sharp (libvips, in its own threads: the event loop only waits), from the
// cleaned image, so no version carries anything the image does not. Several instances may run it
// on one database: each image is leased to one of them, and a version made twice (a lease run
// out) is stored once. The server runs the steps (server/jobs/image-versions.ts).
import { createHash } from 'node:crypto'
import sharp, { type Sharp } from 'sharp'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { ClaimedImageTask, ImageVersion } from '#storage/port/uploads.ts'
import { maxImagePixels } from './clean-image.server.ts'
import { type ImageMime, isImageMime } from './image-types.ts'
import { plannedVersions, plannedWidths } from './responsive-image.ts'

export interface ImageVersionsOutcome {
	claimed: number
	made: number
	retried: number
	failed: number
}

export interface ImageVersionsOptions {
	intervalMs?: number
	/** Longer than the slowest image takes (a 40-megapixel PNG: well under a minute). */
	leaseMs?: number
	/** Tries before an image is served without versions for good. */
	maxAttempts?: number
	/** How long one image may take before it is stopped and tried again later. */
	timeoutSeconds?: number
	clock?: () => Date
}

/** The encoders' settings: small for the eye, quick enough for a 2-core server. */
function encode(image: Sharp, mime: ImageMime): Sharp {
	switch (mime) {
		case 'image/avif':
			return image.avif({ quality: 50, effort: 3 })
		case 'image/webp':
			return image.webp({ quality: 72, effort: 4 })
		case 'image/jpeg':
			return image.jpeg({ quality: 78, mozjpeg: true })
		case 'image/png':
			return image.png({ compressionLevel: 9, adaptiveFiltering: true })
	}
}

export type MadeVersion = ImageVersion & { bytes: Uint8Array }

/**
 * Every planned version of an image: decoded once at the widest planned width (JPEG shrinks on
 * load), each narrower one resized from that. An animated image gets none: it is served as it
 * is. No metadata is written: sharp keeps none unless told.
 */
export async function makeVersions(
	bytes: Uint8Array,
	mime: ImageMime,
	timeoutSeconds = 60,
): Promise<MadeVersion[]> {
	const input = { limitInputPixels: maxImagePixels, failOn: 'error' } as const
	const meta = await sharp(bytes, input).metadata()
	if ((meta.pages ?? 1) > 1) return []
	const planned = plannedVersions(meta.width, mime)
	const widest = plannedWidths(meta.width).at(-1)
	if (!widest || planned.length === 0) return []
	const { data, info } = await sharp(bytes, input)
		.rotate()
		.resize({ width: widest, withoutEnlargement: true })
		.timeout({ seconds: timeoutSeconds })
		.raw()
		.toBuffer({ resolveWithObject: true })
	const raw = { width: info.width, height: info.height, channels: info.channels }
	const made: MadeVersion[] = []
	for (const version of planned) {
		const resized = sharp(data, { raw })
			.resize({ width: version.width, withoutEnlargement: true })
			.timeout({ seconds: timeoutSeconds })
		const out = await encode(resized, version.mime).toBuffer({ resolveWithObject: true })
		made.push({
			width: out.info.width,
			height: out.info.height,
			mime: version.mime,
			size: out.data.byteLength,
			hash: createHash('sha256').update(out.data).digest('hex'),
			bytes: new Uint8Array(out.data),
		})
	}
	return made
}

const nothing = (): ImageVersionsOutcome => ({ claimed: 0, made: 0, retried: 0, failed: 0 })

/** One step of the image-versions worker: one image leased, its versions made and stored. */
export function imageVersionSteps(
	storage: Storage,
	logger: Logger,
	options: ImageVersionsOptions = {},
) {
	const leaseMs = options.leaseMs ?? 5 * 60_000
	const maxAttempts = options.maxAttempts ?? 3
	const timeoutSeconds = options.timeoutSeconds ?? 60
	const clock = options.clock ?? (() => new Date())

	async function handle(task: ClaimedImageTask, outcome: ImageVersionsOutcome) {
		try {
			if (!isImageMime(task.mime)) throw new Error(`stored as ${task.mime}, not an image type`)
			const versions = await makeVersions(task.bytes, task.mime, timeoutSeconds)
			await storage.uploads.finishVersions(task.taskId, task.hash, versions, clock())
			outcome.made += versions.length
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error)
			const giveUp = task.attempts >= maxAttempts
			// Tried again a minute later, then two: a busy machine's timeout passes.
			const retryAt = giveUp ? null : new Date(clock().getTime() + task.attempts * 60_000)
			await storage.uploads.failVersions(task.taskId, message, retryAt, clock())
			if (giveUp) {
				outcome.failed++
				logger.warn('images: no versions could be made; the image is served as it is', {
					hash: task.hash,
					error: message,
				})
			} else outcome.retried++
		}
	}

	async function step(): Promise<ImageVersionsOutcome> {
		const outcome = nothing()
		const tasks = await storage.uploads.claimVersionTasks(clock(), leaseMs, 1)
		outcome.claimed = tasks.length
		for (const task of tasks) await handle(task, outcome)
		return outcome
	}

	return { step, nothing, batchSize: 1 }
}
