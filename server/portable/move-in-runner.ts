// Starts each import begun on the admin page in a process of its own (move-in-run.ts), so its
// minutes of CPU never hold up a request, and stops them with the server. Files wait in
// DATA_DIR/move-in/<run id>/; a dry run's are kept a day for an import of the same files, then
// deleted here.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { MoveInStarter } from '#app/features/import/move-in-starter.ts'
import type { Logger } from '#app/lib/logger.ts'
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
): MoveInRunner {
	const root = join(config.dataDir, 'move-in')
	const children = new Set<ChildProcess>()

	/** Folders left by dry runs a day ago, or by a server stopped mid-import. */
	function sweep() {
		let names: string[] = []
		try {
			names = readdirSync(root)
		} catch {
			return
		}
		for (const name of names) {
			const path = join(root, name)
			try {
				if (Date.now() - statSync(path).mtimeMs > keptMs)
					rmSync(path, { recursive: true, force: true })
			} catch {
				// Gone meanwhile.
			}
		}
	}

	return {
		maxBytes: config.moveInMaxBytes,
		folder(id) {
			sweep()
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
			child.on('exit', (code, signal) => {
				children.delete(child)
				if (code !== 0)
					logger.warn('move-in: the import process ended with an error', {
						run: id,
						code,
						signal,
						error: errors.trim(),
					})
			})
			child.on('error', (error) =>
				logger.error('move-in: could not start the import', { run: id, error }),
			)
		},
		stop() {
			for (const child of children) child.kill('SIGTERM')
		},
	}
}
