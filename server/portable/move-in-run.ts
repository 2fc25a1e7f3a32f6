// One import started on the admin page, in a process of its own (move-in-runner.ts starts it):
// `node server/portable/move-in-run.ts <run id> <folder>`. The folder holds what the admin
// uploaded: `export` (Ghost's JSON or WordPress's XML) and, when given, `images.zip`. Unpacking,
// reading, converting and storing take CPU for minutes on a large site: here they cannot hold up
// the server's requests. Progress goes to the run's row every second and at least every five (a
// heartbeat), the report or the error at the end. The folder is deleted after an import; after a
// dry run it is kept, so the admin can import the same files without sending them again.
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { readGhostExport } from '#app/features/import/ghost-export.server.ts'
import { ArchiveRefused, unpackImages } from '#app/features/import/images-archive.server.ts'
import { importContent } from '#app/features/import/import-content.server.ts'
import { SourceFileError } from '#app/features/import/import-source.ts'
import { readWordPressExport } from '#app/features/import/wordpress-export.server.ts'
import { openStorage } from '#storage/open-storage.ts'
import { type MoveInProgress, stoppedWithServer } from '#storage/port/move-in.ts'
import { loadConfig } from '../env.ts'
import { configuredStorageRules } from '../storage-rules.ts'

const readers = { ghost: readGhostExport, wordpress: readWordPressExport }

const [id, folder] = process.argv.slice(2)
if (!id || !folder) {
	process.stderr.write('Usage: node server/portable/move-in-run.ts <run id> <folder>\n')
	process.exit(2)
}

const config = loadConfig(process.env)
const storage = openStorage(config, configuredStorageRules(config))
let latest: MoveInProgress = { phase: 'starting', posts: 0, total: null }
let written = 0
const write = () => {
	written = Date.now()
	return storage.moveIns.progress(id, latest, new Date())
}
// Stopped with its server: the run says so at once, rather than after its heartbeat goes quiet.
process.once('SIGTERM', () => {
	void storage.moveIns
		.finish(id, { error: stoppedWithServer }, new Date())
		.finally(() => process.exit(1))
})
const heartbeat = setInterval(() => void write().catch(() => {}), 5_000)
const progress = (next: MoveInProgress) => {
	latest = next
	if (Date.now() - written >= 1_000) void write().catch(() => {})
}

// The files go before the end is recorded: a page that reads the end finds nothing left behind.
let outcome: { report: unknown } | { error: string }
let keep = false
try {
	const run = await storage.moveIns.find(id)
	if (!run) throw new Error(`There is no import ${id}.`)
	let imagesFolder: string | null = null
	const archive = join(folder, 'images.zip')
	if (existsSync(archive)) {
		progress({ phase: 'unpacking', posts: 0, total: null })
		await write()
		const unpacked = join(folder, 'images')
		// Unpacked once: an import after a dry run finds them there.
		imagesFolder = (
			await unpackImages(archive, unpacked, {
				maxEntries: 200_000,
				maxBytes: 2 * config.moveInMaxBytes,
			})
		).folder
	}
	const source = await readers[run.format](join(folder, 'export'))
	const report = await importContent(storage, source, {
		dryRun: run.dryRun,
		imagesFolder,
		createdBy: run.startedBy,
		maxImageBytes: config.uploadMaxBytes,
		maxImagePixels: config.uploadMaxPixels,
		progress,
	})
	await write()
	outcome = { report }
	keep = run.dryRun
} catch (error) {
	const known = error instanceof SourceFileError || error instanceof ArchiveRefused
	if (!known) process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`)
	outcome = {
		error: known
			? `Nothing was imported. ${(error as Error).message}`
			: `The import stopped: ${(error as Error)?.message ?? String(error)}. What came across before it stays; run it again to bring the rest (what is here already is left as it is).`,
	}
	process.exitCode = 1
}
clearInterval(heartbeat)
if (!keep) await rm(folder, { recursive: true, force: true }).catch(() => {})
await storage.moveIns.finish(id, outcome, new Date()).catch(() => {})
await storage.close()
