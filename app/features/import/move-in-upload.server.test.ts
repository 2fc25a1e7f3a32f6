// The moving-in page's disk check, before a byte of an upload is read: room for the files, their
// images unpacked and stored, and a margin, on the disk the run's folder will be on.
import { mkdtempSync, rmSync } from 'node:fs'
import { statfs } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { diskRoom, roomNeeded } from './move-in-upload.server.ts'

const megabyte = 1024 * 1024
const folder = mkdtempSync(join(tmpdir(), 'canopy-room-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('the room an upload needs', () => {
	it('is three times the upload and a margin; the largest allowed when its size is not given', () => {
		expect(roomNeeded(10 * megabyte, 256 * megabyte)).toBe(130 * megabyte)
		expect(roomNeeded(undefined, 256 * megabyte)).toBe(3 * 512 * megabyte + 100 * megabyte)
		expect(roomNeeded(-1, 1 * megabyte)).toBe(6 * megabyte + 100 * megabyte)
	})

	it('is looked for on the disk of the run’s folder, made or not, and refused with both figures', async () => {
		const disk = await statfs(folder)
		const free = disk.bavail * disk.bsize
		// The run's folder does not exist yet: its parent's disk is asked.
		const run = join(folder, 'move-in', 'run-1')
		expect(await diskRoom(run, megabyte, 256 * megabyte)).toEqual({ ok: true })
		// An upload larger than the disk.
		const refused = await diskRoom(run, free, 256 * megabyte)
		expect(refused).toMatchObject({ ok: false, neededBytes: 3 * free + 100 * megabyte })
		expect(refused.ok ? 0 : refused.freeBytes).toBeGreaterThan(0)
		expect(refused.ok ? 0 : refused.freeBytes).toBeLessThanOrEqual(free + 64 * megabyte)
	})
})
