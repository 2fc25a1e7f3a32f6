// Every stored image is made again from its pixels by sharp (libvips, in its own threads, off the
// event loop): turned upright first as its EXIF orientation says, then written without any
// metadata. A camera's EXIF (GPS position, time, device, serial number), XMP, IPTC and a PNG's
// text chunks never reach a reader. Images too large to be decoded safely are refused before
// any pixel is decoded.
import type { Sharp } from 'sharp'
import { defaultMaxImagePixels, type ImageMime } from './image-types.ts'

/** Wider or taller than this is refused: no screen needs it, and decoding it costs memory. */
export const maxImageSide = 16_384

// sharp (libvips and its bindings) is loaded with the first image, not at the server's start.
let loadingSharp: Promise<typeof import('sharp')> | undefined
async function loadSharp() {
	// A failed load (a broken install) is tried again at the next image, not kept.
	loadingSharp ??= import('sharp').catch((error: unknown) => {
		loadingSharp = undefined
		throw error
	})
	return (await loadingSharp).default
}

export type CleanedImage =
	| { ok: true; bytes: Uint8Array; width: number; height: number }
	| { ok: false; reason: 'too-large' | 'unreadable'; message: string }

export const unreadableMessage =
	'This image could not be read: it may be damaged or cut short. Export it again and upload the new file.'

function tooLargeMessage(width: number, height: number, maxPixels: number): string {
	const size = `${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels`
	return `This image is ${size}. Images can be at most ${maxImageSide.toLocaleString('en')} pixels on a side and ${maxPixels / 1_000_000} megapixels. Make it smaller and upload it again.`
}

function encode(image: Sharp, mime: ImageMime): Sharp {
	switch (mime) {
		// Not mozjpeg: five times slower on a camera's 24 megapixels (3.9 s against 0.7 s here),
		// and an editor waits for it; readers get the versions, which are.
		case 'image/jpeg':
			return image.jpeg({ quality: 88 })
		case 'image/png':
			return image.png({ compressionLevel: 9, adaptiveFiltering: true })
		case 'image/webp':
			return image.webp({ quality: 85 })
		case 'image/avif':
			return image.avif({ quality: 60 })
	}
}

/**
 * The image without metadata, upright, in its own format; or why it cannot be stored. Its size
 * is read from the header first, so a file declaring billions of pixels is refused unread.
 */
export async function cleanImage(
	bytes: Uint8Array,
	mime: ImageMime,
	maxPixels = defaultMaxImagePixels,
): Promise<CleanedImage> {
	const options = { limitInputPixels: maxPixels, failOn: 'error', animated: true } as const
	const sharp = await loadSharp()
	let width: number
	let height: number
	try {
		const meta = await sharp(bytes, { ...options, limitInputPixels: false }).metadata()
		width = meta.width
		height = meta.pageHeight ?? meta.height
	} catch {
		return { ok: false, reason: 'unreadable', message: unreadableMessage }
	}
	if (width > maxImageSide || height > maxImageSide || width * height > maxPixels)
		return { ok: false, reason: 'too-large', message: tooLargeMessage(width, height, maxPixels) }
	try {
		// rotate() without an angle applies the EXIF orientation; no withMetadata(): none is kept.
		const { data, info } = await encode(sharp(bytes, options).rotate(), mime).toBuffer({
			resolveWithObject: true,
		})
		const pageHeight = info.pageHeight ?? info.height
		return { ok: true, bytes: new Uint8Array(data), width: info.width, height: pageHeight }
	} catch {
		return { ok: false, reason: 'unreadable', message: unreadableMessage }
	}
}
