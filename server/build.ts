// Finds the production build, making it first when there is none (npm start on a fresh clone).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ServerBuild } from 'react-router'

export const projectRoot = fileURLToPath(new URL('..', import.meta.url))
export const serverBuildFile = fileURLToPath(new URL('../build/server/index.js', import.meta.url))
export const clientBuildDir = fileURLToPath(new URL('../build/client', import.meta.url))

export function ensureBuild(log: (msg: string) => void): void {
	if (existsSync(serverBuildFile)) return
	log('No build found: building the site once (a few seconds)…')
	const cli = fileURLToPath(new URL('../node_modules/@react-router/dev/bin.cjs', import.meta.url))
	const result = spawnSync(process.execPath, [cli, 'build'], {
		cwd: projectRoot,
		stdio: 'inherit',
		env: { ...process.env, NODE_ENV: 'production' },
	})
	if (result.status !== 0) throw new Error('The build failed; see the messages above.')
}

export async function loadBuild(): Promise<ServerBuild> {
	return (await import(pathToFileURL(serverBuildFile).href)) as ServerBuild
}
