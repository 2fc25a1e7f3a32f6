// npm run test:e2e [-- <playwright args>]: builds the site once, then runs the browser tests
// against that production build, on SQLite and on PostgreSQL (a Playwright project each; see
// databases.ts). Plain `node` runs this file, so it uses only erasable TypeScript.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromePath, pageBrowserPath } from './chrome.ts'
import { e2eDatabases, postgresSkipped } from './databases.ts'

// Not server.ts's: that one brings the storage fixtures (and PostgreSQL's driver) with it.
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

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
	let onPostgres: boolean
	try {
		onPostgres = e2eDatabases().includes('postgres')
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`)
		return 1
	}
	// The tests are of what visitors get: a production build, whatever NODE_ENV the caller has
	// (under NODE_ENV=test or development React ships its development build).
	// `npm test` has made the build already (tests/run.ts); alone, this makes its own.
	if (process.env.CANOPY_TEST_BUILD !== 'made') {
		const built = run('node_modules/@react-router/dev/bin.cjs', ['build'], {
			NODE_ENV: 'production',
		})
		if (built !== 0) return built
	}
	process.stdout.write(`Pages open in ${pageBrowserPath}; push and Lighthouse in ${chromePath}.\n`)
	const tested = run('node_modules/@playwright/test/cli.js', ['test', ...process.argv.slice(2)])
	// Last, where it is seen: a green run on SQLite alone must not pass for a run on both.
	if (!onPostgres) process.stdout.write(`${postgresSkipped}\n`)
	return tested
}

process.exitCode = main()
