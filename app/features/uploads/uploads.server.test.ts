// Images are typed by their bytes and stored under their hash, on both databases.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Storage } from '#server/storage/types.ts'
import {
	avifImage,
	gifImage,
	jpegImage,
	pngImage,
	svgImage,
	webpImage,
} from '#tests/fixtures/images.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import { maxImageBytes } from './image-types.ts'
import {
	emptyImageMessage,
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
		'stores a %s with its type, size and dimensions at its hash',
		async (_name, bytes, mime, extension, width, height) => {
			const result = await storeImage(storage, bytes, null)
			const hash = sha256(bytes)
			expect(result).toEqual({
				ok: true,
				upload: {
					url: `/media/${hash}.${extension}`,
					hash,
					mime,
					size: bytes.byteLength,
					width,
					height,
				},
			})
			const read = await readImage(storage, `${hash}.${extension}`)
			expect(read?.meta.mime).toBe(mime)
			expect(Buffer.from(read?.bytes ?? new Uint8Array()).equals(Buffer.from(bytes))).toBe(true)
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
		expect(first).toEqual(second)
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

	it('refuses an empty file with 400 and one over 5 MB with 413', async () => {
		expect(await storeImage(storage, new Uint8Array(), null)).toEqual({
			ok: false,
			status: 400,
			message: emptyImageMessage,
		})
		const atLimit = pngImage(1, 1, { padding: maxImageBytes - pngImage(1, 1).byteLength - 12 })
		expect(atLimit.byteLength).toBe(maxImageBytes)
		expect((await storeImage(storage, atLimit, null)).ok).toBe(true)
		const over = pngImage(1, 1, { padding: maxImageBytes - pngImage(1, 1).byteLength - 11 })
		expect(await storeImage(storage, over, null)).toMatchObject({ ok: false, status: 413 })
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
})
