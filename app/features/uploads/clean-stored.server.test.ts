// Images stored before uploads were cleaned are made again without their metadata, under the
// same address, on both databases; one that cannot be stored safely is deleted.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { sql } from 'kysely'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { startJob } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { cameraMarks, photoWithMetadata, pngDeclaring, pngImage } from '#tests/fixtures/images.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import { cleanStoredImages, uploadCleaningJob } from './clean-stored.server.ts'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** An image as Canopy stored uploads before they were cleaned: the bytes as they came. */
async function storedAsUploaded(storage: Storage, bytes: Uint8Array, mime: string) {
	const hash = sha256(bytes)
	await storage.uploads.put({
		hash,
		mime,
		size: bytes.byteLength,
		width: null,
		height: null,
		bytes,
		createdBy: null,
	})
	return hash
}

describe.each(databases)('cleaning older images: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	it('has nothing to clean in a new database', async () => {
		const settings = await storage.settings.all()
		expect([settings['uploads.cleaning.next'], settings['uploads.cleaning.before']]).toEqual([
			undefined,
			undefined,
		])
		expect(await cleanStoredImages(storage)).toEqual({ cleaned: 0, deleted: [], left: 0 })
	})

	it('is told by migration 0012 which images came before it', async () => {
		for (let n = 0; n < 3; n++)
			await storedAsUploaded(storage, pngImage(2, 2, { rgb: [n, 0, 0] }), 'image/png')
		// The migration's statements, as they ran on a database that held these three.
		const file = new URL(
			`../../../storage/migrations/${storage.dialect}/0012_upload_cleaning.sql`,
			import.meta.url,
		)
		const statements = readFileSync(file, 'utf8')
			.replace(/^--.*$/gm, '')
			.split(';')
			.map((statement) => statement.trim())
			.filter(Boolean)
		for (const statement of statements) await sql.raw(statement).execute(storage.authDatabase.db)
		const settings = await storage.settings.all()
		expect([settings['uploads.cleaning.next'], settings['uploads.cleaning.before']]).toEqual([
			'1',
			'4',
		])
		expect(await cleanStoredImages(storage)).toEqual({ cleaned: 3, deleted: [], left: 0 })
	})

	it('makes each older image again without metadata at its address, deletes a bomb, and then stops', async () => {
		const photo = await storedAsUploaded(storage, await photoWithMetadata('jpeg'), 'image/jpeg')
		const bomb = await storedAsUploaded(storage, pngDeclaring(60_000, 60_000), 'image/png')
		const plain = await storedAsUploaded(storage, pngImage(4, 3), 'image/png')
		// What migration 0012 records on a database that holds these three.
		await storage.settings.set({ 'uploads.cleaning.next': '1', 'uploads.cleaning.before': '4' })
		// Stored after the migration: already clean, and not touched.
		const later = await storedAsUploaded(storage, await photoWithMetadata('webp'), 'image/webp')

		// The job runs a pass as the server starts.
		const logs: Record<string, unknown>[] = []
		const logger = createLogger('info', (line) => logs.push(JSON.parse(line)))
		const job = startJob(uploadCleaningJob, storage, logger, { intervalMs: 60_000 })
		await expect
			.poll(() => logs.find((entry) => String(entry.msg).startsWith('uploads: older')))
			.toMatchObject({ cleaned: 2, left: 0 })
		expect(logs.filter((entry) => entry.level === 'warn')).toMatchObject([
			{ msg: 'uploads: an image that cannot be stored safely was deleted', hash: bomb },
		])
		// Once done, a pass finds nothing.
		const done = await job.runOnce()
		await job.stop()
		expect(done).toEqual({ cleaned: 0, deleted: [], left: 0 })

		const cleaned = (await storage.uploads.get(photo))?.bytes ?? new Uint8Array()
		expect((await sharp(cleaned).metadata()).exif).toBeUndefined()
		for (const mark of [...cameraMarks, 'GPS'])
			expect(Buffer.from(cleaned).toString('latin1')).not.toContain(mark)
		expect((await storage.uploads.get(photo))?.meta.size).toBe(cleaned.byteLength)
		expect(await storage.uploads.get(bomb)).toBeUndefined()
		expect((await storage.uploads.get(plain))?.meta).toMatchObject({ width: 4, height: 3 })
		const untouched = (await storage.uploads.get(later))?.bytes ?? new Uint8Array()
		expect(sha256(untouched)).toBe(later)

		expect((await storage.settings.all())['uploads.cleaning.next']).toBe('4')
		expect(await cleanStoredImages(storage)).toEqual({ cleaned: 0, deleted: [], left: 0 })
	})

	it('records how far it got after each batch of ten, and the next pass carries on from there', async () => {
		for (let n = 0; n < 12; n++)
			await storedAsUploaded(storage, pngImage(2, 2, { rgb: [n, n, n] }), 'image/png')
		await storage.settings.set({ 'uploads.cleaning.next': '1', 'uploads.cleaning.before': '13' })
		// A pass asked to stop after one image stops after its batch: as a pass cut off would.
		expect(await cleanStoredImages(storage, 1)).toEqual({ cleaned: 10, deleted: [], left: 2 })
		expect((await storage.settings.all())['uploads.cleaning.next']).toBe('11')
		expect(await cleanStoredImages(storage)).toEqual({ cleaned: 2, deleted: [], left: 0 })
	})
})
