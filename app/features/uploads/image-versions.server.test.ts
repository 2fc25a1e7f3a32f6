// The image-versions job on both databases: every planned version made once, from the cleaned
// image, with nothing of the camera's metadata; leased to one worker; failures retried, then the
// image served as it is.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { cameraMarks, photoWithMetadata, pngImage } from '#tests/fixtures/images.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import { imageVersionSteps } from './image-versions.server.ts'
import { storeImage } from './uploads.server.ts'

describe.each(databases)('image versions: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	function worker(options: Parameters<typeof imageVersionSteps>[2] = {}) {
		const logs: { msg: string }[] = []
		const logger = createLogger('info', (line) => logs.push(JSON.parse(line)))
		return { ...imageVersionSteps(storage, logger, options), logs }
	}

	async function stored(bytes: Uint8Array) {
		const result = await storeImage(storage, bytes, null, { name: 'field/photo 1.jpg' })
		if (!result.ok) throw new Error(result.message)
		return result.upload
	}

	it('makes a camera photo 480, 960 and 1600 px wide in AVIF, WebP and JPEG, with no metadata', async () => {
		const photo = await photoWithMetadata('jpeg', { width: 2400, height: 1600 })
		const upload = await stored(photo)
		expect(upload.name).toBe('photo 1.jpg')
		const outcome = await worker().step()
		expect(outcome).toEqual({ claimed: 1, made: 9, retried: 0, failed: 0 })
		const versions = await storage.uploads.versionsOf(upload.hash)
		expect(versions.map((v) => `${v.width}x${v.height} ${v.mime}`).sort()).toEqual(
			[480, 960, 1600]
				.flatMap((w) =>
					['image/avif', 'image/jpeg', 'image/webp'].map(
						(m) => `${w}x${Math.round((w * 2) / 3)} ${m}`,
					),
				)
				.sort(),
		)
		for (const version of versions) {
			const made = await storage.uploads.getVersion(upload.hash, version.width, version.mime)
			const bytes = made?.bytes ?? new Uint8Array()
			expect(bytes.byteLength).toBe(version.size)
			const meta = await sharp(bytes).metadata()
			expect(meta.format).toBe(
				{ 'image/jpeg': 'jpeg', 'image/webp': 'webp' }[version.mime] ?? 'heif',
			)
			expect([meta.exif, meta.xmp, meta.iptc, meta.width], version.mime).toEqual([
				undefined,
				undefined,
				undefined,
				version.width,
			])
			const text = Buffer.from(bytes).toString('latin1')
			for (const mark of [...cameraMarks, 'GPS', 'Exif', 'xmpmeta'])
				expect(text, `${version.width} ${version.mime} holds "${mark}"`).not.toContain(mark)
		}
		// Each smaller and lighter than the image; the 960 px photo fits a phone's budget.
		const size = (w: number, m: string) =>
			versions.find((v) => v.width === w && v.mime === m)?.size ?? Number.NaN
		expect(size(960, 'image/avif')).toBeLessThan(size(960, 'image/jpeg'))
		expect(size(1600, 'image/jpeg')).toBeLessThan(upload.size)
		// Done: the next step finds nothing.
		expect((await worker().step()).claimed).toBe(0)
	})

	it.each(['png', 'webp', 'avif'] as const)(
		'makes a %s with EXIF, GPS and XMP into versions that hold none of it',
		async (format) => {
			const upload = await stored(await photoWithMetadata(format, { width: 1000, height: 600 }))
			await worker().step()
			const versions = await storage.uploads.versionsOf(upload.hash)
			expect(versions.length).toBeGreaterThanOrEqual(4)
			for (const version of versions) {
				const bytes =
					(await storage.uploads.getVersion(upload.hash, version.width, version.mime))?.bytes ??
					new Uint8Array()
				const meta = await sharp(bytes).metadata()
				expect([meta.exif, meta.xmp, meta.iptc, meta.comments]).toEqual([
					undefined,
					undefined,
					undefined,
					undefined,
				])
				const text = Buffer.from(bytes).toString('latin1')
				for (const mark of [...cameraMarks, 'GPS', 'Exif', 'xmpmeta', 'tEXt'])
					expect(text, `${version.width} ${version.mime} holds "${mark}"`).not.toContain(mark)
			}
		},
	)

	it('never makes an image larger: a small one gets AVIF and WebP at its own width only', async () => {
		const upload = await stored(pngImage(300, 200))
		await worker().step()
		const versions = await storage.uploads.versionsOf(upload.hash)
		expect(versions.map((v) => `${v.width} ${v.mime}`)).toEqual([
			'300 image/avif',
			'300 image/webp',
		])
	})

	it('leases an image to one worker; one taken over after its lease keeps the versions first stored', async () => {
		const upload = await stored(pngImage(600, 400))
		const now = new Date()
		const first = await storage.uploads.claimVersionTasks(now, 60_000, 5)
		expect(first.map((task) => task.hash)).toEqual([upload.hash])
		// Another instance, while the lease lasts: nothing.
		expect(await storage.uploads.claimVersionTasks(now, 60_000, 5)).toEqual([])
		// The first worker died; after its lease the image is taken again.
		const later = new Date(now.getTime() + 61_000)
		const second = await storage.uploads.claimVersionTasks(later, 60_000, 5)
		expect(second.map((task) => [task.hash, task.attempts])).toEqual([[upload.hash, 2]])
		const version = (bytes: number[]) => ({
			width: 480,
			height: 320,
			mime: 'image/webp',
			size: bytes.length,
			hash: 'a'.repeat(64),
			bytes: new Uint8Array(bytes),
		})
		await storage.uploads.finishVersions(
			second[0]?.taskId ?? 0,
			upload.hash,
			[version([1, 2])],
			later,
		)
		// The first worker wakes up and stores its own: the address keeps the bytes it had.
		await storage.uploads.finishVersions(first[0]?.taskId ?? 0, upload.hash, [version([3])], later)
		const kept = await storage.uploads.getVersion(upload.hash, 480, 'image/webp')
		expect([...(kept?.bytes ?? [])]).toEqual([1, 2])
		expect(await storage.uploads.claimVersionTasks(later, 60_000, 5)).toEqual([])
	})

	it('tries an image that cannot be made again later, then serves it as it is', async () => {
		// Stored without the upload checks: bytes no decoder reads.
		await storage.uploads.put({
			hash: 'b'.repeat(64),
			mime: 'image/png',
			size: 3,
			width: 900,
			height: 600,
			bytes: new Uint8Array([1, 2, 3]),
			createdBy: null,
		})
		let now = new Date()
		const { step, logs } = worker({ maxAttempts: 2, clock: () => now })
		expect(await step()).toMatchObject({ claimed: 1, retried: 1, failed: 0 })
		expect(await step()).toMatchObject({ claimed: 0 })
		now = new Date(now.getTime() + 61_000)
		expect(await step()).toMatchObject({ claimed: 1, retried: 0, failed: 1 })
		now = new Date(now.getTime() + 3_600_000)
		expect(await step()).toMatchObject({ claimed: 0 })
		expect(logs.map((line) => line.msg)).toContain(
			'images: no versions could be made; the image is served as it is',
		)
		const { images } = await storage.uploads.library({ limit: 10, offset: 0 })
		expect(images[0]).toMatchObject({ versions: 0, versionsDone: true })
	})

	it('deletes an image’s versions with it', async () => {
		const upload = await stored(pngImage(600, 400))
		await worker().step()
		expect((await storage.uploads.versionsOf(upload.hash)).length).toBeGreaterThan(0)
		expect(await storage.uploads.delete(upload.hash)).toBe(true)
		expect(await storage.uploads.versionsOf(upload.hash)).toEqual([])
		expect(await storage.uploads.claimVersionTasks(new Date(), 60_000, 5)).toEqual([])
	})
})
