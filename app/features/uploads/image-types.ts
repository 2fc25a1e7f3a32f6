// The image types Canopy stores, shared by the server's checks and the upload field's hints.

/** Each accepted type and the extension its URL ends in. */
export const imageExtensions = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/avif': 'avif',
} as const

export type ImageMime = keyof typeof imageExtensions

/** The largest upload unless UPLOAD_MAX_MB says otherwise (a 24-megapixel camera JPEG is ~10 MB). */
export const defaultMaxImageMb = 20
export const defaultMaxImageBytes = defaultMaxImageMb * 1024 * 1024

/**
 * More pixels than this is refused unless UPLOAD_MAX_MEGAPIXELS says otherwise (a 40-megapixel
 * photo is about 7,700 × 5,200).
 */
export const defaultMaxImagePixels = 40_000_000
/** The most UPLOAD_MAX_MEGAPIXELS may allow: what the versions job decodes at most. */
export const ceilingImagePixels = 100_000_000

/** Bytes as whole megabytes, for messages. */
export const inMegabytes = (bytes: number) => Math.round(bytes / (1024 * 1024))

/** For a file input's accept attribute; the server still checks the bytes, not this. */
export const imageAccept = Object.keys(imageExtensions).join(',')

export function imageTooLargeMessage(maxBytes: number): string {
	return `This image is larger than ${inMegabytes(maxBytes)} MB. Make it smaller (fewer pixels or more compression) and upload it again.`
}

export function isImageMime(mime: string): mime is ImageMime {
	return Object.hasOwn(imageExtensions, mime)
}
