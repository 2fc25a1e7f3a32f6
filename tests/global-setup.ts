// The HTTP integration tests serve the real production build: make a fresh one first, unless
// `npm test` has just made it for every part (tests/run.ts).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export default function setup() {
	if (process.env.CANOPY_TEST_BUILD === 'made') return
	const cli = fileURLToPath(new URL('../node_modules/@react-router/dev/bin.cjs', import.meta.url))
	// Vitest sets NODE_ENV=test, which would make a development React build in the shared build/.
	const result = spawnSync(process.execPath, [cli, 'build'], {
		stdio: 'pipe',
		encoding: 'utf8',
		env: { ...process.env, NODE_ENV: 'production' },
	})
	if (result.status !== 0)
		throw new Error(`react-router build failed:\n${result.stdout}\n${result.stderr}`)
}
