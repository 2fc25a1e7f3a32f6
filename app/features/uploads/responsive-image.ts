// Which versions an image has (decision 023) and how a page offers them: shared by the job that
// makes them, the route that serves them and the components that ask for them. A version's
// address is its image's, with its width: /media/<hash>-960.avif. The image's hash names what it
// is made from, so the bytes behind the address never change; until the job has made it, the
// address sends the browser to the image itself.
import { type ImageMime, imageExtensions, isImageMime } from './image-types.ts'

/** The widths versions are made at, narrowest first. */
export const versionWidths = [480, 960, 1600] as const

/** The formats every version is offered in, best first, before the image's own. */
export const versionFormats = ['image/avif', 'image/webp'] as const satisfies ImageMime[]

/**
 * The widths an image `width` pixels wide has versions at: the ones narrower than itself (never
 * made larger), and its own width when it is no wider than the widest.
 */
export function plannedWidths(width: number): number[] {
	const widths: number[] = versionWidths.filter((candidate) => candidate < width)
	const widest = versionWidths[versionWidths.length - 1] ?? 0
	if (width <= widest) widths.push(width)
	return widths
}

/** Every version an image gets: each planned width in AVIF, WebP and its own format. */
export function plannedVersions(
	width: number,
	mime: ImageMime,
): { width: number; mime: ImageMime }[] {
	const formats = [...new Set<ImageMime>([...versionFormats, mime])]
	return plannedWidths(width).flatMap((at) =>
		formats
			// Its own format at its own width is the image itself.
			.filter((format) => !(at === width && format === mime))
			.map((format) => ({ width: at, mime: format })),
	)
}

const mediaAddress = /^\/media\/([0-9a-f]{64})\.([a-z]+)$/
const versionFile = /^([0-9a-f]{64})-([1-9][0-9]{0,4})\.([a-z]+)$/

function mimeOf(extension: string): ImageMime | undefined {
	return (Object.keys(imageExtensions) as ImageMime[]).find(
		(mime) => imageExtensions[mime] === extension,
	)
}

/** The hash and type of an image stored here, from its address; undefined for any other. */
export function parseMediaUrl(url: string | null): { hash: string; mime: ImageMime } | undefined {
	const match = url ? mediaAddress.exec(url) : null
	const mime = match && mimeOf(match[2] ?? '')
	return match && mime ? { hash: match[1] ?? '', mime } : undefined
}

/** The version a /media file name asks for (`<hash>-<width>.<ext>`), if it is one. */
export function parseVersionFile(
	file: string,
): { hash: string; width: number; mime: ImageMime } | undefined {
	const match = versionFile.exec(file)
	const mime = match && mimeOf(match[3] ?? '')
	return match && mime ? { hash: match[1] ?? '', width: Number(match[2]), mime } : undefined
}

export function versionUrl(hash: string, width: number, mime: ImageMime): string {
	return `/media/${hash}-${width}.${imageExtensions[mime]}`
}

/** An image as a page shows it: where it is, its size, and what it shows. */
export interface ShownImage {
	url: string
	width: number | null
	height: number | null
}

export interface PictureSources {
	/** AVIF and WebP, best first: each a <source>'s type and srcset. */
	sources: { type: ImageMime; srcSet: string }[]
	/** The <img>'s own: its type's versions, and the image itself where it is no wider. */
	srcSet: string
	/** The <img>'s src for browsers without srcset: the widest version in its own type. */
	src: string
}

/**
 * What a <picture> offers for an image stored here whose size is known; undefined for any other
 * (an outside address, an image of unknown size), which is shown as it is.
 */
export function pictureSources(image: ShownImage): PictureSources | undefined {
	const stored = parseMediaUrl(image.url)
	if (!stored || !image.width || !image.height || !isImageMime(stored.mime)) return undefined
	const { hash, mime } = stored
	const { width } = image
	const widths = plannedWidths(width)
	const at = (format: ImageMime, w: number) =>
		w === width && format === mime ? image.url : versionUrl(hash, w, format)
	const srcSetOf = (format: ImageMime) => widths.map((w) => `${at(format, w)} ${w}w`).join(', ')
	const widest = widths[widths.length - 1] ?? width
	// The <img> is for every browser: an AVIF image's is its WebP versions.
	const fallback = mime === 'image/avif' ? 'image/webp' : mime
	return {
		sources: versionFormats
			.filter((format) => format !== fallback)
			.map((format) => ({ type: format, srcSet: srcSetOf(format) })),
		srcSet: srcSetOf(fallback),
		src: at(fallback, widest),
	}
}

/**
 * The address of an image's widest version no wider than `width`, in a type every reader
 * takes (feeds, mail): its own, or WebP for an AVIF image. The image itself when it is narrower.
 */
export function versionUpTo(image: ShownImage, width: number): { url: string; mime: ImageMime } {
	const stored = parseMediaUrl(image.url)
	if (!stored || !image.width) return { url: image.url, mime: stored?.mime ?? 'image/jpeg' }
	const mime = stored.mime === 'image/avif' ? 'image/webp' : stored.mime
	const fits = plannedWidths(image.width).filter((w) => w <= width)
	const chosen = fits[fits.length - 1]
	if (chosen === undefined || (chosen === image.width && mime === stored.mime))
		return { url: image.url, mime: stored.mime }
	return { url: versionUrl(stored.hash, chosen, mime), mime }
}
