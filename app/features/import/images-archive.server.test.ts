// The images' archive unpacked as the moving-in page's import does: images only, nothing outside
// the folder whatever the archive says, limits kept, and the folder the importer looks in found.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { zipArchive } from '#tests/fixtures/zip.ts'
import { ArchiveRefused, unpackImages } from './images-archive.server.ts'

const limits = { maxEntries: 100, maxBytes: 1_000_000 }
const folders: string[] = []
afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function archive(entries: Parameters<typeof zipArchive>[0]) {
	const folder = mkdtempSync(join(tmpdir(), 'canopy-archive-'))
	folders.push(folder)
	const path = join(folder, 'images.zip')
	writeFileSync(path, zipArchive(entries))
	return { path, into: join(folder, 'images'), folder }
}

describe('unpackImages', () => {
	it('finds content/images in a Ghost archive, and keeps images only', async () => {
		const { path, into } = archive([
			{ name: 'content/' },
			{ name: 'content/images/' },
			{ name: 'content/images/2024/05/bog.jpg', data: 'jpeg bytes' },
			{ name: 'content/images/size/w600/2024/05/bog.jpg', data: 'small' },
			{ name: 'content/images/2024/05/notes.txt', data: 'not an image' },
		])
		const unpacked = await unpackImages(path, into, limits)
		expect(unpacked).toEqual({ folder: join(into, 'content/images'), images: 2, skipped: 1 })
		expect(existsSync(join(unpacked.folder, '2024/05/bog.jpg'))).toBe(true)
		expect(existsSync(join(unpacked.folder, '2024/05/notes.txt'))).toBe(false)
	})

	it('finds the year folders of an uploads folder zipped on its own', async () => {
		const { path, into } = archive([
			{ name: 'uploads/2023/01/river.png', data: 'png' },
			{ name: 'uploads/2024/02/marsh.webp', data: 'webp' },
		])
		expect((await unpackImages(path, into, limits)).folder).toBe(join(into, 'uploads'))
		const nested = archive([{ name: 'site/wp-content/uploads/2024/02/marsh.webp', data: 'webp' }])
		expect((await unpackImages(nested.path, nested.into, limits)).folder).toBe(
			join(nested.into, 'site/wp-content/uploads'),
		)
	})

	it('writes nothing outside its folder: no `..`, no absolute path, no link', async () => {
		const { path, into, folder } = archive([
			{ name: '../escaped.jpg', data: 'outside' },
			{ name: '2024/../../escaped2.jpg', data: 'outside' },
			{ name: '/tmp/canopy-absolute.jpg', data: 'outside' },
			{ name: '2024/link.jpg', data: '/etc/passwd', link: true },
			{ name: '2024/fine.jpg', data: 'inside' },
		])
		// yauzl refuses an archive naming a path outside itself, as a damaged one.
		await expect(unpackImages(path, into, limits)).rejects.toThrow(ArchiveRefused)
		expect(readdirSync(folder).sort()).toEqual(['images', 'images.zip'])
		expect(existsSync('/tmp/canopy-absolute.jpg')).toBe(false)
		expect(existsSync(join(into, '2024/link.jpg'))).toBe(false)
		// A link alone is skipped, the rest unpacked.
		const linked = archive([
			{ name: '2024/link.jpg', data: '/etc/passwd', link: true },
			{ name: '2024/fine.jpg', data: 'inside' },
		])
		expect(await unpackImages(linked.path, linked.into, limits)).toMatchObject({
			images: 1,
			skipped: 1,
		})
		expect(existsSync(join(linked.into, '2024/link.jpg'))).toBe(false)
	})

	it('refuses an archive over its limits, and one that is not a zip', async () => {
		const many = archive(Array.from({ length: 5 }, (_, i) => ({ name: `${i}.jpg`, data: 'x' })))
		await expect(unpackImages(many.path, many.into, { ...limits, maxEntries: 3 })).rejects.toThrow(
			'more than 3 files',
		)
		const big = archive([{ name: 'a.jpg', data: 'x'.repeat(2_000) }])
		await expect(unpackImages(big.path, big.into, { ...limits, maxBytes: 1_000 })).rejects.toThrow(
			ArchiveRefused,
		)
		const { folder } = archive([])
		const notZip = join(folder, 'not.zip')
		writeFileSync(notZip, 'hello')
		await expect(unpackImages(notZip, join(folder, 'out'), limits)).rejects.toThrow(
			'not a .zip archive',
		)
	})
})
