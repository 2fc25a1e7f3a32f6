// The image types Canopy stores, shared by the server's checks and the upload field's hints.

/** Each accepted type and the extension its URL ends in. */
export const imageExtensions = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/avif': 'avif',
} as const

export type ImageMime = keyof typeof imageExtensions

export const maxImageBytes = 5 * 1024 * 1024

/** For a file input's accept attribute; the server still checks the bytes, not this. */
export const imageAccept = Object.keys(imageExtensions).join(',')

export const imageTooLargeMessage =
	'This image is larger than 5 MB. Make it smaller (fewer pixels or more compression) and upload it again.'

export const imageTypesHint = 'PNG, JPEG, WebP or AVIF, up to 5 MB.'

export function isImageMime(mime: string): mime is ImageMime {
	return Object.hasOwn(imageExtensions, mime)
}
