// npm run test:e2e [-- <playwright args>]: builds the site, then runs the browser tests against
// that production build. Plain `node` runs this file, so it uses only erasable TypeScript.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromePath } from './chrome.ts'
import { projectRoot } from './server.ts'

function run(script: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
	// process.execPath: the Node 24 running this file, not whatever `node` is first on PATH.
	const result = spawnSync(process.execPath, [join(projectRoot, script), ...args], {
		cwd: projectRoot,
		stdio: 'inherit',
		env: { ...process.env, CHROME_PATH: chromePath, ...env },
	})
	if (result.error) throw result.error
	return result.status ?? 1
}

function main(): number {
	if (!existsSync(chromePath)) {
		if (process.env.CI) {
			process.stderr.write(
				`Browser tests need chromium, and there is none at ${chromePath}.\n` +
					'Install it with: apt-get install -y chromium (or set CHROME_PATH to a Chromium binary).\n',
			)
			return 1
		}
		process.stdout.write(
			`Browser tests skipped: no chromium at ${chromePath} (apt-get install -y chromium, or set CHROME_PATH).\n`,
		)
		return 0
	}
	// The tests are of what visitors get: a production build, whatever NODE_ENV the caller has
	// (under NODE_ENV=test or development React ships its development build).
	const built = run('node_modules/@react-router/dev/bin.cjs', ['build'], { NODE_ENV: 'production' })
	if (built !== 0) return built
	return run('node_modules/@playwright/test/cli.js', ['test', ...process.argv.slice(2)])
}

process.exitCode = main()
