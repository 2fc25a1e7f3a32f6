// The moving-in page's upload: an export and, optionally, a .zip of its images, streamed to the
// run's folder as they arrive (busboy), never held in memory, each within MOVE_IN_MAX_MB. The
// export's format is told from its first bytes (JSON: Ghost; XML: WordPress), the archive's from
// its signature; what is neither is refused with a sentence for the admin, its files deleted.
import { createWriteStream } from 'node:fs'
import { open, rm, statfs } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import type { MoveInFormat } from '#storage/port/move-in.ts'

export interface MoveInUpload {
	format: MoveInFormat
	fileName: string
	withImages: boolean
	dryRun: boolean
}

export type MoveInUploadResult =
	| { ok: true; upload: MoveInUpload }
	| { ok: false; status: 400 | 413; errors: FieldErrors }

const fieldNames = new Set(['export', 'images'])

/** Room kept free beyond what an import itself needs: the database must never fill the disk. */
const headroomBytes = 100 * 1024 * 1024

/**
 * The disk room an upload of this size needs: the files, the images unpacked beside them, what
 * the import writes into the database (the cleaned images, their sizes), and a margin. Without a
 * Content-Length, the largest upload allowed (two files of `maxBytes`).
 */
export function roomNeeded(declaredBytes: number | undefined, maxBytes: number): number {
	const upload = declaredBytes !== undefined && declaredBytes >= 0 ? declaredBytes : 2 * maxBytes
	return 3 * upload + headroomBytes
}

/**
 * Whether the disk holding `folder` has room for an upload of this size, asked before a byte is
 * read: an import that fills the disk part way would leave the database unable to write anything
 * else (a contact message, a reader's subscription) until an operator makes room.
 */
export async function diskRoom(
	folder: string,
	declaredBytes: number | undefined,
	maxBytes: number,
): Promise<{ ok: true } | { ok: false; freeBytes: number; neededBytes: number }> {
	// The run's folder is made later: the nearest folder that exists is on the same disk.
	let path = folder
	for (;;) {
		try {
			const disk = await statfs(path)
			const freeBytes = disk.bavail * disk.bsize
			const neededBytes = roomNeeded(declaredBytes, maxBytes)
			return freeBytes >= neededBytes ? { ok: true } : { ok: false, freeBytes, neededBytes }
		} catch {
			const parent = dirname(path)
			// No folder of it exists at all (cannot be: DATA_DIR is made at start): let it through.
			if (parent === path) return { ok: true }
			path = parent
		}
	}
}

/** Streams the form's files into `folder`: `export` and `images.zip`. */
export async function receiveMoveIn(
	request: Request,
	folder: string,
	maxBytes: number,
): Promise<MoveInUploadResult> {
	const type = request.headers.get('content-type') ?? ''
	if (!type.toLowerCase().startsWith('multipart/form-data') || !request.body)
		return refused(folder, 400, { form: ['Choose an export file to import.'] })
	const fields: Record<string, string> = {}
	const files = new Map<string, { name: string; bytes: number; tooLarge: boolean }>()
	// Each file's write, settled whatever happens: a body cut off mid-file fails its write too,
	// and that failure is the upload's, answered below, never a rejection nobody waits for.
	const writes: Promise<unknown>[] = []
	try {
		const parser = busboy({
			headers: { 'content-type': type },
			limits: { fileSize: maxBytes, files: 2, fields: 10, fieldSize: 1_000, parts: 12 },
		})
		parser.on('field', (name, value) => {
			fields[name] = value
		})
		parser.on('file', (name, stream, info) => {
			if (!fieldNames.has(name) || !info.filename || files.has(name)) {
				stream.resume()
				return
			}
			const file = { name: info.filename, bytes: 0, tooLarge: false }
			files.set(name, file)
			stream.on('data', (chunk: Buffer) => {
				file.bytes += chunk.length
			})
			stream.on('limit', () => {
				file.tooLarge = true
			})
			const written = pipeline(
				stream,
				createWriteStream(join(folder, name === 'export' ? 'export' : 'images.zip')),
			)
			written.catch(() => {})
			writes.push(written)
		})
		await pipeline(
			Readable.fromWeb(request.body as import('node:stream/web').ReadableStream),
			parser,
		)
		await Promise.all(writes)
	} catch {
		await Promise.allSettled(writes)
		return refused(folder, 400, { form: ['The upload arrived incomplete. Please send it again.'] })
	}
	const megabytes = Math.round(maxBytes / 1024 / 1024).toLocaleString('en')
	for (const [name, file] of files)
		if (file.tooLarge)
			return refused(folder, 413, {
				[name]: [
					`The file is larger than ${megabytes} MB. Import it with the command line instead (docs/command-line.md).`,
				],
			})
	const exported = files.get('export')
	if (!exported || exported.bytes === 0)
		return refused(folder, 400, {
			export: ['Choose the export file: Ghost’s .json or WordPress’s .xml.'],
		})
	const format = await sniffFormat(join(folder, 'export'))
	if (!format)
		return refused(folder, 400, {
			export: [
				'This is not a Ghost export (.json) or a WordPress export (.xml). Export the site again and choose that file.',
			],
		})
	const images = files.get('images')
	if (images && images.bytes > 0 && !(await isZip(join(folder, 'images.zip'))))
		return refused(folder, 400, { images: ['The images must be a .zip archive of the folder.'] })
	if (images && images.bytes === 0) await rm(join(folder, 'images.zip'), { force: true })
	return {
		ok: true,
		upload: {
			format,
			fileName: exported.name.slice(0, 200),
			withImages: Boolean(images && images.bytes > 0),
			dryRun: fields.mode !== 'import',
		},
	}
}

async function refused(
	folder: string,
	status: 400 | 413,
	errors: FieldErrors,
): Promise<MoveInUploadResult> {
	await rm(folder, { recursive: true, force: true })
	return { ok: false, status, errors }
}

async function firstBytes(path: string, count: number): Promise<Buffer> {
	const file = await open(path, 'r')
	try {
		const buffer = Buffer.alloc(count)
		const { bytesRead } = await file.read(buffer, 0, count, 0)
		return buffer.subarray(0, bytesRead)
	} finally {
		await file.close()
	}
}

/** JSON starts with `{`, XML with `<`, after any byte-order mark and white space. */
async function sniffFormat(path: string): Promise<MoveInFormat | null> {
	const text = (await firstBytes(path, 1_024))
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.trimStart()
	if (text.startsWith('{')) return 'ghost'
	if (text.startsWith('<')) return 'wordpress'
	return null
}

async function isZip(path: string): Promise<boolean> {
	const head = await firstBytes(path, 4)
	return head.length === 4 && head.readUInt32LE(0) === 0x04034b50
}
