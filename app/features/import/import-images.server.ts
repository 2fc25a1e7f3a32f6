// An export's images, found in the folder the person importing gives (Ghost's content/images,
// WordPress's wp-content/uploads) and stored as any upload is: typed by their bytes, made again
// without their metadata (GPS position included), addressed by the hash of what is stored, so an
// image imported twice is stored once. Nothing is fetched from the network.
import { readFile, realpath, stat } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { defaultMaxImageBytes, imageTooLargeMessage } from '#app/features/uploads/image-types.ts'
import { storeImage } from '#app/features/uploads/uploads.server.ts'
import type { Storage } from '#storage/port/storage.ts'

export type ImageOutcome =
	| { ok: true; url: string; stored: boolean }
	| { ok: false; reason: string; keep: string | null }

export interface ImportImages {
	/** The address an image of the export has here; the same answer for the same address. */
	place(address: string): Promise<ImageOutcome>
	/** Different images stored (or, in a dry run, files found) so far. */
	readonly count: number
}

/** Where an export's image lives below its folder: Ghost's and WordPress's own layouts. */
const layouts: { marker: string; original(path: string): string[] }[] = [
	{
		marker: '/content/images/',
		// Ghost's resized copies (/content/images/size/w600/2024/01/x.jpg) are of the original.
		original: (path) => [path.replace(/^size\/w\d+(h\d+)?\//, ''), path],
	},
	{
		marker: '/wp-content/uploads/',
		// WordPress's resized copies carry their size: x-1024x768.jpg is of x.jpg. The original
		// first (a copy is only used when the original is not there).
		original: (path) => [path.replace(/-\d+x\d+(\.\w+)$/, '$1'), path],
	},
]

function folderPaths(address: string): string[] | undefined {
	let path = address
	try {
		path = new URL(address, 'http://export.invalid').pathname
	} catch {
		return undefined
	}
	for (const layout of layouts) {
		const at = path.indexOf(layout.marker)
		if (at === -1) continue
		const below = path.slice(at + layout.marker.length)
		try {
			return [...new Set(layout.original(decodeURIComponent(below)))]
		} catch {
			return undefined
		}
	}
	return undefined
}

async function isFile(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isFile()
	} catch {
		return false
	}
}

export function importImages(
	storage: Storage,
	options: {
		folder: string | null
		dryRun: boolean
		createdBy: string | null
		maxBytes?: number
		maxPixels?: number
	},
): ImportImages {
	const placed = new Map<string, Promise<ImageOutcome>>()
	const root = options.folder ? resolve(options.folder) : null
	const stored = new Set<string>()

	let realRoot: Promise<string> | undefined
	async function find(address: string): Promise<string | undefined> {
		if (!root) return undefined
		realRoot ??= realpath(root).catch(() => root)
		for (const path of folderPaths(address) ?? []) {
			const file = resolve(join(root, path))
			// An address of ../../etc/passwd stays out of the folder, and so does a link in it
			// that points out of it.
			if (!file.startsWith(root + sep)) return undefined
			if (!(await isFile(file))) continue
			const real = await realpath(file).catch(() => '')
			return real.startsWith((await realRoot) + sep) ? file : undefined
		}
		return undefined
	}

	async function placeOnce(address: string): Promise<ImageOutcome> {
		const absolute = /^https?:\/\//.test(address) ? address : null
		const file = await find(address)
		if (!file) {
			const where = root
				? 'is not in the images folder given'
				: 'was not looked for (no images folder given)'
			return {
				ok: false,
				reason: absolute
					? `the image ${address} ${where}: it still links to the old site`
					: `the image ${address} ${where}: left out`,
				keep: absolute,
			}
		}
		if (options.dryRun) {
			stored.add(file)
			return { ok: true, url: address, stored: false }
		}
		// Refused by its size before it is read: an export's folder may hold anything.
		const limit = options.maxBytes ?? defaultMaxImageBytes
		if ((await stat(file)).size > limit)
			return {
				ok: false,
				reason: `the image ${address} was not stored: ${imageTooLargeMessage(limit)}`,
				keep: null,
			}
		const result = await storeImage(storage, await readFile(file), options.createdBy, {
			maxBytes: options.maxBytes,
			maxPixels: options.maxPixels,
			name: file.split(sep).pop() ?? null,
		})
		if (!result.ok)
			return {
				ok: false,
				reason: `the image ${address} was not stored: ${result.message}`,
				keep: null,
			}
		stored.add(result.upload.url)
		return { ok: true, url: result.upload.url, stored: true }
	}

	return {
		place(address) {
			let outcome = placed.get(address)
			if (!outcome) {
				outcome = placeOnce(address)
				placed.set(address, outcome)
			}
			return outcome
		},
		get count() {
			return stored.size
		},
	}
}
