// Runs the production server the way an operator does (node server/index.ts on a fresh data
// directory), so every figure includes the real middleware, page cache and compression.
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startNode, stopProcess, waitForOutput } from './processes.ts'
import type { Target } from './target.ts'

export interface RunningServer {
	url: string
	child: ChildProcess
	stop(): Promise<void>
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer()
		probe.once('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address()
			const port = typeof address === 'object' && address ? address.port : 0
			probe.close(() => resolve(port))
		})
	})
}

export interface CanopyOptions {
	cpu?: number
	logLevel?: string
	/** Unset by default, as in the documented start command. */
	nodeEnv?: string
	/** More environment (TRUST_PROXY, say). */
	env?: Record<string, string>
	/** The data directory to use and to leave in place (read after the server stops). */
	dataDir?: string
}

export async function startCanopy(
	target: Target,
	options: CanopyOptions = {},
): Promise<RunningServer> {
	const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'canopy-bench-'))
	const port = await freePort()
	const url = `http://127.0.0.1:${port}`
	const { NODE_ENV: _, ...inherited } = process.env
	const child = startNode(['server/index.ts'], {
		cpu: options.cpu,
		cwd: target.root,
		env: {
			...inherited,
			...(options.nodeEnv ? { NODE_ENV: options.nodeEnv } : {}),
			DATA_DIR: dataDir,
			PORT: String(port),
			HOST: '127.0.0.1',
			SITE_URL: url,
			LOG_LEVEL: options.logLevel ?? 'warn',
			...options.env,
		},
		stdio: ['ignore', 'pipe', 'inherit'],
	})
	const stop = async () => {
		await stopProcess(child)
		if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
	}
	try {
		await waitForOutput(child, /Canopy is running at/, 60_000, 'the Canopy server')
	} catch (error) {
		await stop()
		throw error
	}
	return { url, child, stop }
}
