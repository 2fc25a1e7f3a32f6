// Uploaded images: stored by the hash of their bytes.
export interface UploadMeta {
	/** SHA-256 of the bytes, hex: the image's address. */
	hash: string
	mime: string
	size: number
	width: number | null
	height: number | null
	createdAt: string
}

export interface UploadRepository {
	/** Stores the image unless the same bytes are there already; returns what is stored. */
	put(
		upload: Omit<UploadMeta, 'createdAt'> & { bytes: Uint8Array; createdBy: string | null },
	): Promise<UploadMeta>
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
	/** Deletes an image (one that cannot be stored safely); false when there was none. */
	delete(hash: string): Promise<boolean>
}
