// Images are typed by their bytes and stored under their hash, on both databases.
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import {
	avifImage,
	cameraMarks,
	gifImage,
	jpegImage,
	photoWithMetadata,
	pngDeclaring,
	pngImage,
	svgImage,
	webpImage,
} from '#tests/fixtures/images.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import { defaultMaxImageBytes } from './image-types.ts'
import {
	emptyImageMessage,
	imageSize,
	readImage,
	storeImage,
	svgRefusedMessage,
	unreadableImageMessage,
	wrongTypeMessage,
} from './uploads.server.ts'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe.each(databases)('images: $name', ({ create }) => {
	let storage: Storage

	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	it.each([
		['PNG', pngImage(4, 3), 'image/png', 'png', 4, 3],
		['JPEG', jpegImage(10, 9), 'image/jpeg', 'jpg', 10, 9],
		['WebP', webpImage(), 'image/webp', 'webp', 1, 1],
		['AVIF', avifImage(), 'image/avif', 'avif', 2, 2],
	])(
		'stores a %s made again from its pixels, with its type, size and dimensions, at the hash of what is stored',
		async (_name, bytes, mime, extension, width, height) => {
			const result = await storeImage(storage, bytes, null)
			if (!result.ok) throw new Error(result.message)
			const read = await readImage(storage, `${result.upload.hash}.${extension}`)
			const stored = read?.bytes ?? new Uint8Array()
			const hash = sha256(stored)
			expect(result).toEqual({
				ok: true,
				upload: {
					url: `/media/${hash}.${extension}`,
					hash,
					mime,
					size: stored.byteLength,
					width,
					height,
					name: null,
					alt: null,
				},
				existed: false,
			})
			expect(read?.meta.mime).toBe(mime)
			const decoded = await sharp(stored).metadata()
			expect([decoded.format, decoded.width, decoded.height]).toEqual([
				{ png: 'png', jpg: 'jpeg', webp: 'webp', avif: 'heif' }[extension],
				width,
				height,
			])
		},
	)

	it('types a PNG named .jpg by its bytes (the name never reaches it)', async () => {
		const file = new File([pngImage()], 'photo.jpg', { type: 'image/jpeg' })
		const result = await storeImage(storage, new Uint8Array(await file.arrayBuffer()), null)
		expect(result.ok && result.upload.mime).toBe('image/png')
		expect(result.ok && result.upload.url).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)
	})

	it('keeps one copy of the same bytes uploaded twice', async () => {
		const first = await storeImage(storage, pngImage(), null)
		const second = await storeImage(storage, pngImage(), null)
		expect(first.ok && second.ok && first.upload).toEqual(second.ok && second.upload)
		// The second is told the image was there already (the media library says so).
		expect(second.ok && second.existed).toBe(true)
	})

	it('refuses an SVG with its own reason, and stores nothing', async () => {
		const svg = svgImage()
		expect(await storeImage(storage, svg, null)).toEqual({
			ok: false,
			status: 415,
			message: svgRefusedMessage,
		})
		expect(svgRefusedMessage).toMatch(/scripts/)
		expect(await storage.uploads.get(sha256(svg))).toBeUndefined()
		// Without the XML declaration, too.
		const bare = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>')
		expect(await storeImage(storage, bare, null)).toMatchObject({ message: svgRefusedMessage })
	})

	it('refuses text and other image types, naming the accepted ones', async () => {
		for (const bytes of [new TextEncoder().encode('just some text, not an image'), gifImage()]) {
			expect(await storeImage(storage, bytes, null)).toEqual({
				ok: false,
				status: 415,
				message: wrongTypeMessage,
			})
		}
		expect(wrongTypeMessage).toContain('PNG, JPEG, WebP or AVIF')
	})

	it('refuses an empty file with 400 and one over the limit (20 MB by default, or as given) with 413', async () => {
		expect(await storeImage(storage, new Uint8Array(), null)).toEqual({
			ok: false,
			status: 400,
			message: emptyImageMessage,
		})
		const atLimit = pngImage(1, 1, {
			padding: defaultMaxImageBytes - pngImage(1, 1).byteLength - 12,
		})
		expect(atLimit.byteLength).toBe(defaultMaxImageBytes)
		expect((await storeImage(storage, atLimit, null)).ok).toBe(true)
		const over = pngImage(1, 1, { padding: defaultMaxImageBytes - pngImage(1, 1).byteLength - 11 })
		expect(await storeImage(storage, over, null)).toMatchObject({
			ok: false,
			status: 413,
			message: expect.stringContaining('larger than 20 MB'),
		})
		// UPLOAD_MAX_MB=1: a 2 MB image is refused, and the message says the limit in force.
		const twoMegabytes = pngImage(1, 1, { padding: 2 * 1024 * 1024 })
		expect(await storeImage(storage, twoMegabytes, null, { maxBytes: 1024 * 1024 })).toMatchObject({
			ok: false,
			status: 413,
			message: expect.stringContaining('larger than 1 MB'),
		})
	})

	it('refuses a JPEG signature followed by no image', async () => {
		const cut = jpegImage().slice(0, 8)
		expect(await storeImage(storage, cut, null)).toEqual({
			ok: false,
			status: 400,
			message: unreadableImageMessage,
		})
	})

	it('finds nothing for unknown, malformed or mismatched names', async () => {
		const result = await storeImage(storage, pngImage(), null)
		if (!result.ok) throw new Error(result.message)
		const { hash } = result.upload
		expect(await readImage(storage, `${hash}.png`)).toBeDefined()
		for (const name of [
			`${hash}.jpg`,
			`${hash}.PNG`,
			`${hash}`,
			`${hash.toUpperCase()}.png`,
			`${'0'.repeat(64)}.png`,
			'../../etc/passwd',
			`${hash}.png.png`,
		]) {
			expect(await readImage(storage, name), name).toBeUndefined()
		}
	})

	it.each([
		['a camera JPEG', 'jpeg', 'image/jpeg'],
		['a PNG with EXIF, XMP and a text chunk', 'png', 'image/png'],
		['a WebP', 'webp', 'image/webp'],
		['an AVIF', 'avif', 'image/avif'],
	] as const)(
		'keeps nothing of the metadata of %s: no EXIF, GPS, XMP or text',
		async (_name, format, mime) => {
			const photo = await photoWithMetadata(format)
			const result = await storeImage(storage, photo, null)
			if (!result.ok) throw new Error(result.message)
			expect(result.upload.mime).toBe(mime)
			const stored = (await storage.uploads.get(result.upload.hash))?.bytes ?? new Uint8Array()
			const meta = await sharp(stored).metadata()
			expect([meta.exif, meta.xmp, meta.iptc, meta.comments]).toEqual([
				undefined,
				undefined,
				undefined,
				undefined,
			])
			const text = Buffer.from(stored).toString('latin1')
			for (const mark of [...cameraMarks, 'GPS', 'Exif', 'tEXt', 'xmpmeta'])
				expect(text, `the stored ${format} holds "${mark}"`).not.toContain(mark)
		},
	)

	it('tells a page the size of an image stored here from its address, and of no other', async () => {
		const stored = await storeImage(storage, pngImage(12, 7), null)
		if (!stored.ok) throw new Error(stored.message)
		expect(await imageSize(storage, stored.upload.url)).toEqual({ width: 12, height: 7 })
		for (const elsewhere of [
			null,
			'https://example.org/media/photo.png',
			`/media/${'c'.repeat(64)}.png`,
			'/media/../etc/passwd',
		])
			expect(await imageSize(storage, elsewhere), String(elsewhere)).toBeUndefined()
	})

	it('turns a photo upright as its EXIF orientation says, then drops the orientation', async () => {
		const turned = await photoWithMetadata('jpeg', { width: 40, height: 20, orientation: 6 })
		const result = await storeImage(storage, turned, null)
		expect(result.ok && [result.upload.width, result.upload.height]).toEqual([20, 40])
		const stored = (await storage.uploads.get(result.ok ? result.upload.hash : ''))?.bytes
		const meta = await sharp(stored).metadata()
		expect([meta.width, meta.height, meta.orientation]).toEqual([20, 40, undefined])
	})

	it.each([
		['60,000 × 60,000 pixels', 60_000, 60_000],
		['20,000 pixels wide', 20_000, 10],
		['more than 40 megapixels', 8_000, 5_001],
	])('refuses an image of %s, unread, and stores nothing', async (_name, width, height) => {
		const bomb = pngDeclaring(width, height)
		const result = await storeImage(storage, bomb, null)
		expect(result).toEqual({
			ok: false,
			status: 400,
			message: `This image is ${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels. Images can be at most 16,384 pixels on a side and 40 megapixels. Make it smaller and upload it again.`,
		})
		expect(await storage.uploads.get(sha256(bomb))).toBeUndefined()
	})
})
