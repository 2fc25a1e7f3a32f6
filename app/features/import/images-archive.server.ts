// The images of an export, uploaded as a .zip of Ghost's content/images or WordPress's
// wp-content/uploads folder, unpacked for the importer by yauzl (streaming, entry by entry),
// within limits: images only (by their extension), no entry outside the folder (absolute paths,
// `..`, links), a bounded number of entries and bytes. Runs in the import's own process, never on
// the server's event loop.
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, realpath } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import yauzl from 'yauzl'

export interface ArchiveLimits {
	/** Entries in the archive, images or not. */
	maxEntries: number
	/** Bytes of images unpacked, in all. */
	maxBytes: number
}

export class ArchiveRefused extends Error {}

const imageNames = /\.(?:jpe?g|png|gif|webp|avif|svg|tiff?|bmp|heic)$/i

/** Whether a zip entry's mode says it is a symbolic link (Unix modes in the high bits). */
const isLink = (entry: yauzl.Entry) =>
	((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000

function openZip(path: string): Promise<yauzl.ZipFile> {
	return new Promise((done, fail) =>
		yauzl.open(
			path,
			{ lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false },
			(error, zip) => (error || !zip ? fail(error) : done(zip)),
		),
	)
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry) {
	return new Promise<NodeJS.ReadableStream>((done, fail) =>
		zip.openReadStream(entry, (error, stream) => (error || !stream ? fail(error) : done(stream))),
	)
}

/**
 * Unpacks the archive's images into `into` and returns the folder the importer should look in:
 * the archive's content/images or wp-content/uploads where it has one, else the folder its
 * entries share.
 */
export async function unpackImages(
	archive: string,
	into: string,
	limits: ArchiveLimits,
): Promise<{ folder: string; images: number; skipped: number }> {
	let zip: yauzl.ZipFile
	try {
		zip = await openZip(archive)
	} catch {
		throw new ArchiveRefused('The images file is not a .zip archive that can be read.')
	}
	await mkdir(into, { recursive: true })
	const root = await realpath(into)
	let entries = 0
	let bytes = 0
	let images = 0
	let skipped = 0
	try {
		await new Promise<void>((done, fail) => {
			zip.on('error', fail)
			zip.on('end', done)
			zip.on('entry', (entry: yauzl.Entry) => {
				const next = async () => {
					entries++
					if (entries > limits.maxEntries)
						throw new ArchiveRefused(
							`The images archive holds more than ${limits.maxEntries.toLocaleString('en')} files.`,
						)
					const name = entry.fileName.replaceAll('\\', '/')
					const target = resolve(root, name)
					const inside = target.startsWith(`${root}${sep}`)
					if (name.endsWith('/') || !imageNames.test(name) || isLink(entry) || !inside) {
						if (!name.endsWith('/')) skipped++
						return
					}
					bytes += entry.uncompressedSize
					if (bytes > limits.maxBytes)
						throw new ArchiveRefused(
							`The images unpack to more than ${Math.round(limits.maxBytes / 1_000_000).toLocaleString('en')} MB.`,
						)
					await mkdir(dirname(target), { recursive: true })
					try {
						await pipeline(
							await entryStream(zip, entry),
							createWriteStream(target, { flags: 'wx' }),
						)
						images++
					} catch (error) {
						// The same name twice in one archive: the first one is kept.
						if ((error as { code?: string }).code !== 'EEXIST') throw error
						skipped++
					}
				}
				next().then(
					() => zip.readEntry(),
					(error: unknown) => fail(error),
				)
			})
			zip.readEntry()
		})
	} catch (error) {
		if (error instanceof ArchiveRefused) throw error
		throw new ArchiveRefused(
			`The images archive is damaged: ${(error as Error).message ?? 'it could not be read'}.`,
		)
	} finally {
		zip.close()
	}
	return { folder: await imagesFolder(root), images, skipped }
}

/** Where the year folders are: content/images, wp-content/uploads, or the one folder all share. */
async function imagesFolder(root: string): Promise<string> {
	for (const known of ['content/images', 'wp-content/uploads'])
		for (const prefix of ['', '*/']) {
			const found = await findPath(root, `${prefix}${known}`)
			if (found) return found
		}
	let folder = root
	for (let depth = 0; depth < 4; depth++) {
		const children = await readdir(folder, { withFileTypes: true })
		const [only] = children
		if (children.length !== 1 || !only?.isDirectory() || /^\d{4}$/.test(only.name)) break
		folder = join(folder, only.name)
	}
	return folder
}

/** `pattern`'s folder under root, `*` standing for any one folder. */
async function findPath(root: string, pattern: string): Promise<string | undefined> {
	let candidates = [root]
	for (const part of pattern.split('/')) {
		const next: string[] = []
		for (const folder of candidates) {
			const children = await readdir(folder, { withFileTypes: true }).catch(() => [])
			for (const child of children)
				if (child.isDirectory() && (part === '*' || child.name === part))
					next.push(join(folder, child.name))
		}
		candidates = next
	}
	return candidates[0]
}
