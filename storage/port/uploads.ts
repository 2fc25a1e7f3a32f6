// Uploaded images: stored by the hash of their bytes.
import type { SearchQuery } from './search.ts'
export interface UploadMeta {
	/** SHA-256 of the bytes, hex: the image's address. */
	hash: string
	mime: string
	size: number
	width: number | null
	height: number | null
	/** The file's name as uploaded (for finding it again), when known. */
	name: string | null
	/** A description offered when the image is placed in a text; each use may have its own. */
	alt: string | null
	createdAt: string
}

/** A smaller copy of an image in one format (decision 023), made by the image-versions job. */
export interface ImageVersion {
	width: number
	height: number
	mime: string
	size: number
	/** SHA-256 of the bytes: the version's ETag. */
	hash: string
}

/** An image whose versions are due, leased to one worker. */
export interface ClaimedImageTask {
	taskId: number
	hash: string
	mime: string
	bytes: Uint8Array
	/** Claims so far, this one included. */
	attempts: number
}

/** A row of the media library. */
export interface LibraryImage extends UploadMeta {
	/** Stored bytes of its versions, together. */
	versionsSize: number
	versions: number
	/** Whether the job has finished with it (versions made, or given up). */
	versionsDone: boolean
}

export interface UploadRepository {
	/**
	 * Stores the image unless the same bytes are there already; returns what is stored, and
	 * `added`: whether this call stored it (false: they were there, and stay as they were).
	 */
	put(
		upload: Omit<UploadMeta, 'createdAt' | 'name' | 'alt'> & {
			bytes: Uint8Array
			createdBy: string | null
			name?: string | null
			alt?: string | null
		},
	): Promise<UploadMeta & { added: boolean }>
	get(hash: string): Promise<{ meta: UploadMeta; bytes: Uint8Array } | undefined>
	/** What is known of an image without reading its bytes (a page's width and height). */
	describe(hash: string): Promise<UploadMeta | undefined>
	/** Up to `limit` uploads with ids from `from` up to (not including) `before`, oldest first. */
	listByIds(
		from: number,
		before: number,
		limit: number,
	): Promise<{ id: number; hash: string; mime: string; bytes: Uint8Array }[]>
	/**
	 * Puts new bytes under an image's address (made again without its metadata): its URL, which
	 * pages already use, stays. False when there is no such image.
	 */
	replaceBytes(
		hash: string,
		image: { bytes: Uint8Array; width: number; height: number },
	): Promise<boolean>
	/** Deletes an image with its versions; false when there was none. */
	delete(hash: string): Promise<boolean>
	/** Several images' descriptions at once (a page's cover and the pictures in its text). */
	describeMany(hashes: string[]): Promise<UploadMeta[]>
	/** Sets the name and the description offered for an image; false when there is no such image. */
	setDetails(hash: string, details: { name: string | null; alt: string | null }): Promise<boolean>
	/** The library, newest first: images whose name or description has the words, `limit` from `offset`. */
	library(query: { search?: SearchQuery; limit: number; offset: number }): Promise<{
		images: LibraryImage[]
		total: number
	}>

	/** One version's bytes, when made. */
	getVersion(
		hash: string,
		width: number,
		mime: string,
	): Promise<{ version: ImageVersion; bytes: Uint8Array } | undefined>
	/** The versions made of an image so far, without their bytes. */
	versionsOf(hash: string): Promise<ImageVersion[]>
	/**
	 * Leases up to `limit` images whose versions are due and not leased to another worker, oldest
	 * first (the mail outbox's leasing: FOR UPDATE SKIP LOCKED on PostgreSQL). A worker that dies
	 * leaves its lease to run out, and the image is taken again.
	 */
	claimVersionTasks(now: Date, leaseMs: number, limit: number): Promise<ClaimedImageTask[]>
	/**
	 * Stores an image's versions and finishes its task, in one transaction. A version stored
	 * already (a task taken over after its lease ran out) is kept as it is: an address's bytes
	 * never change.
	 */
	finishVersions(
		taskId: number,
		hash: string,
		versions: (ImageVersion & { bytes: Uint8Array })[],
		now: Date,
	): Promise<void>
	/**
	 * A task that failed: tried again at `retryAt`, or given up for good when null (the image is
	 * then served as it is).
	 */
	failVersions(taskId: number, error: string, retryAt: Date | null, now: Date): Promise<void>
}
