// The image-versions job's work (decision 023): each step leases one image whose versions are
// due and has them made from the cleaned image (make-versions.server.ts) in a process of lower
// priority (versions-process.server.ts), so readers' pages keep the CPU they need. No version
// carries anything the image does not. Several instances may run it on one database: each image
// is leased to one of them, and a version made twice (a lease run out) is stored once. The server
// runs the steps (server/jobs/image-versions.ts).
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { ClaimedImageTask } from '#storage/port/uploads.ts'
import { isImageMime } from './image-types.ts'
import { makeVersionsAside } from './versions-process.server.ts'

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
			const versions = await makeVersionsAside(task.bytes, task.mime, timeoutSeconds)
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
