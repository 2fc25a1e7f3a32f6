// Starts each import begun on the admin page in a process of its own (move-in-run.ts), so its
// minutes of CPU never hold up a request, and stops them with the server. Files wait in
// DATA_DIR/move-in/<run id>/; a dry run's are kept a day for an import of the same files, then
// deleted here.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { MoveInStarter } from '#app/features/import/move-in-starter.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Config } from '../env.ts'

const script = fileURLToPath(new URL('./move-in-run.ts', import.meta.url))
const keptMs = 24 * 60 * 60_000

export interface MoveInRunner extends MoveInStarter {
	/** Stops the runs this process started (their rows then show them stopped). */
	stop(): void
}

export function createMoveInRunner(
	config: Pick<Config, 'dataDir' | 'databaseUrl' | 'moveInMaxBytes'>,
	logger: Logger,
	storage: Storage,
): MoveInRunner {
	const root = join(config.dataDir, 'move-in')
	const children = new Set<ChildProcess>()

	/**
	 * Folders left by dry runs a day ago, or by a server stopped mid-import: deleted in the
	 * background (one can hold gigabytes of images), never on a request's way.
	 */
	async function sweep() {
		const names = await readdir(root).catch(() => [] as string[])
		for (const name of names) {
			const path = join(root, name)
			const changed = await stat(path).then(
				(found) => found.mtimeMs,
				() => Date.now(),
			)
			if (Date.now() - changed > keptMs) await rm(path, { recursive: true, force: true })
		}
	}

	return {
		maxBytes: config.moveInMaxBytes,
		folder(id) {
			void sweep().catch((error: unknown) =>
				logger.warn('move-in: could not delete old upload folders', { error }),
			)
			const path = join(root, id)
			mkdirSync(path, { recursive: true })
			return path
		},
		start(id) {
			const child = spawn(process.execPath, [script, id, join(root, id)], {
				env: { ...process.env, DATA_DIR: config.dataDir, DATABASE_URL: config.databaseUrl },
				stdio: ['ignore', 'ignore', 'pipe'],
			})
			children.add(child)
			let errors = ''
			child.stderr?.setEncoding('utf8').on('data', (text: string) => {
				errors = (errors + text).slice(-4_000)
			})
			// A process that ends without recording its end (killed, out of memory, never started)
			// leaves its run failed with a reason, not running until it looks stalled. finish()
			// changes nothing when the process did record its end.
			const ended = (reason: string) =>
				storage.moveIns
					.finish(id, { error: reason }, new Date())
					.catch((error: unknown) =>
						logger.warn('move-in: could not record the end of an import', { run: id, error }),
					)
			child.on('exit', (code, signal) => {
				children.delete(child)
				if (code === 0) return
				logger.warn('move-in: the import process ended with an error', {
					run: id,
					code,
					signal,
					error: errors.trim(),
				})
				void ended(
					signal
						? `The import was stopped (${signal}). What came across before stays: start it again, and it brings the rest.`
						: 'The import stopped with an error (the server’s log has it). What came across before stays: start it again, and it brings the rest.',
				)
			})
			child.on('error', (error) => {
				logger.error('move-in: could not start the import', { run: id, error })
				void ended('The import could not be started (the server’s log says why).')
			})
		},
		stop() {
			for (const child of children) child.kill('SIGTERM')
		},
	}
}
