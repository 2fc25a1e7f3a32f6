// Images are typed by their bytes, never by the name or the type the browser claimed, made again
// without their metadata (clean-image.server.ts), and stored in the database under the SHA-256
// of what is stored: the same image always has the same URL, so it can be cached for good and
// served by any instance.
import { createHash } from 'node:crypto'
import type { AppServices } from '#app/lib/context.server.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { UploadMeta } from '#storage/port/uploads.ts'
import { cleanImage, unreadableMessage } from './clean-image.server.ts'
import {
	defaultMaxImageBytes,
	type ImageMime,
	imageExtensions,
	imageTooLargeMessage,
	isImageMime,
} from './image-types.ts'
import { parseMediaUrl } from './responsive-image.ts'

export interface StoredImage {
	url: string
	hash: string
	mime: string
	size: number
	width: number | null
	height: number | null
	name: string | null
	alt: string | null
}

export type StoreImageResult =
	/** `existed`: the same image was in the library already (kept as it was, its name too). */
	| { ok: true; upload: StoredImage; existed: boolean }
	| { ok: false; status: 400 | 413 | 415; message: string }

export const emptyImageMessage = 'The file is empty. Choose an image file to upload.'
export const svgRefusedMessage =
	'SVG images cannot be uploaded: an SVG can carry scripts that would run on this site. Save the image as PNG or WebP and upload that instead.'
export const wrongTypeMessage =
	'This file is not a PNG, JPEG, WebP or AVIF image, the only types that can be uploaded. Its contents are checked, not its name.'
export const unreadableImageMessage = unreadableMessage

export function imageUrl(hash: string, mime: ImageMime): string {
	return `/media/${hash}.${imageExtensions[mime]}`
}

export async function storeImage(
	storage: Storage,
	bytes: Uint8Array,
	createdBy: string | null,
	options: {
		/** UPLOAD_MAX_MB, as the server was started with. */
		maxBytes?: number
		/** UPLOAD_MAX_MEGAPIXELS, in pixels. */
		maxPixels?: number
		/** The file's name as uploaded: the media library finds images by it. */
		name?: string | null
	} = {},
): Promise<StoreImageResult> {
	const { maxBytes = defaultMaxImageBytes, maxPixels, name = null } = options
	if (bytes.byteLength === 0) return { ok: false, status: 400, message: emptyImageMessage }
	if (bytes.byteLength > maxBytes)
		return { ok: false, status: 413, message: imageTooLargeMessage(maxBytes) }
	// file-type is loaded with the first upload, not at the server's start.
	const { fileTypeFromBuffer } = await import('file-type')
	const detected = await fileTypeFromBuffer(bytes)
	if (!detected || !isImageMime(detected.mime)) {
		const svg = looksLikeSvg(bytes)
		return { ok: false, status: 415, message: svg ? svgRefusedMessage : wrongTypeMessage }
	}
	const mime = detected.mime
	const cleaned = await cleanImage(bytes, mime, maxPixels)
	if (!cleaned.ok) return { ok: false, status: 400, message: cleaned.message }
	const hash = createHash('sha256').update(cleaned.bytes).digest('hex')
	const meta = await storage.uploads.put({
		hash,
		mime,
		size: cleaned.bytes.byteLength,
		width: cleaned.width,
		height: cleaned.height,
		bytes: cleaned.bytes,
		createdBy,
		name: cleanName(name),
	})
	return { ok: true, upload: toStoredImage(meta), existed: !meta.added }
}

/**
 * storeImage for a request: the server's size limit, and the image-versions job woken so its
 * versions are ready in seconds.
 */
export async function storeUpload(
	services: Pick<
		AppServices,
		'storage' | 'uploadMaxBytes' | 'uploadMaxPixels' | 'wakeImageVersions'
	>,
	bytes: Uint8Array,
	by: { createdBy: string | null; name?: string | null },
): Promise<StoreImageResult> {
	const stored = await storeImage(services.storage, bytes, by.createdBy, {
		maxBytes: services.uploadMaxBytes,
		maxPixels: services.uploadMaxPixels,
		name: by.name ?? null,
	})
	if (stored.ok) services.wakeImageVersions()
	return stored
}

/** A file name as the library shows it: no path, no control characters, at most 200 characters. */
export function cleanName(name: string | null): string | null {
	const base = name?.split(/[\\/]/).pop() ?? ''
	const clean = base
		.replace(/\p{Cc}/gu, '')
		.trim()
		.slice(0, 200)
	return clean || null
}

const fileName = /^([0-9a-f]{64})\.([a-z]+)$/

/**
 * The stored image a /media file name stands for. The extension must be the one its type is
 * served under, so one image has exactly one address.
 */
export async function readImage(
	storage: Storage,
	file: string,
): Promise<{ meta: UploadMeta; bytes: Uint8Array } | undefined> {
	const match = fileName.exec(file)
	if (!match) return undefined
	const [, hash = '', extension] = match
	const found = await storage.uploads.get(hash)
	if (!found || !isImageMime(found.meta.mime)) return undefined
	return imageExtensions[found.meta.mime] === extension ? found : undefined
}

/**
 * The width and height of an image stored here, from its address (`/media/<hash>.<ext>`), so a
 * page can give them to its `<img>` and keep its layout still while the image loads. Undefined
 * for an address elsewhere, or an image unknown here.
 */
export async function imageSize(
	storage: Storage,
	url: string | null,
): Promise<{ width: number; height: number } | undefined> {
	const stored = parseMediaUrl(url)
	if (!stored) return undefined
	const meta = await storage.uploads.describe(stored.hash)
	return meta?.width && meta.height ? { width: meta.width, height: meta.height } : undefined
}

function toStoredImage(meta: UploadMeta): StoredImage {
	const { hash, mime, size, width, height, name, alt } = meta
	return { url: imageUrl(hash, mime as ImageMime), hash, mime, size, width, height, name, alt }
}

/**
 * SVG is text, so no signature finds it; it is refused like any other type, but its own message
 * tells the person why a logo that looks harmless is not accepted.
 */
function looksLikeSvg(bytes: Uint8Array): boolean {
	const head = new TextDecoder('utf-8', { fatal: false })
		.decode(bytes.subarray(0, 4096))
		.toLowerCase()
	return /<svg[\s>/]/.test(head) || head.includes('image/svg+xml')
}
