// The framework's own cost, as a baseline: bench/minimal-router-app, the smallest React Router 8
// app rendering a page like Canopy's article, built with as many routes as Canopy's build has
// and served on core `cpu`.
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startNode, stopProcess, waitForOutput } from './processes.ts'
import { runNode } from './run-node.ts'
import type { Target } from './target.ts'

export interface MinimalApp {
	/** Its article page. */
	url: string
	/** "63 routes". */
	routes: string
	child: ChildProcess
	stop(): Promise<void>
}

export async function startMinimalApp(target: Target, cpu: number): Promise<MinimalApp> {
	const canopyBuild = (await import(
		pathToFileURL(join(target.root, 'build/server/index.js')).href
	)) as { routes: Record<string, unknown> }
	const count = Object.keys(canopyBuild.routes).length
	const dir = join(target.root, 'bench/minimal-router-app')
	await runNode(
		target,
		[join(target.root, 'node_modules/@react-router/dev/bin.cjs'), 'build'],
		{ NODE_ENV: 'production', MINIMAL_APP_ROUTES: String(count) },
		'',
		dir,
	)
	const child = startNode([join(dir, 'server.ts'), join(dir, 'build')], {
		cpu,
		stdio: ['ignore', 'pipe', 'inherit'],
		env: { ...process.env, NODE_ENV: 'production' },
	})
	try {
		const port = (
			await waitForOutput(child, /listening on (\d+)/, 15_000, 'the minimal React Router app')
		)[1]
		return {
			url: `http://127.0.0.1:${port}/articles/the-living-ground`,
			routes: `${count} routes`,
			child,
			stop: () => stopProcess(child),
		}
	} catch (error) {
		await stopProcess(child)
		throw error
	}
}
