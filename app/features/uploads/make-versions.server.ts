// Making an image's versions (decision 023) with sharp: decoded once at the widest planned width
// (a JPEG shrinks on load), each narrower one resized from that, each encoded without metadata
// (sharp keeps none unless told). Run in the versions process (versions-process.server.ts).
import { createHash } from 'node:crypto'
import sharp, { type Sharp } from 'sharp'
import type { ImageVersion } from '#storage/port/uploads.ts'
import { ceilingImagePixels, type ImageMime } from './image-types.ts'
import { plannedVersions, plannedWidths } from './responsive-image.ts'

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

/** Every planned version of an image. An animated image gets none: it is served as it is. */
export async function makeVersions(
	bytes: Uint8Array,
	mime: ImageMime,
	timeoutSeconds = 60,
): Promise<MadeVersion[]> {
	// Held to the limit when it was stored; an image stored under a higher limit still gets its versions.
	const input = { limitInputPixels: ceilingImagePixels, failOn: 'error' } as const
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
