// npm test: every check that can run on this machine, cheapest first, so the common failures
// come in seconds: the lockfile, lint, types, then one production build that the unit,
// integration and browser tests all use, then those tests. Stops at the first failure and ends
// with what each part took and how many tests it ran. Plain `node` runs this file, so it uses
// only erasable TypeScript.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))

interface Part {
	name: string
	script: string
	env?: Record<string, string>
}

const parts: Part[] = [
	{ name: 'lockfile', script: 'test:install' },
	{ name: 'lint', script: 'lint' },
	// Every message in the code is in the catalogues, and every catalogue translates it.
	{ name: 'catalogues', script: 'i18n:check' },
	{ name: 'typecheck', script: 'typecheck' },
	// Whatever NODE_ENV the caller has: the tests are of what visitors get.
	{ name: 'build', script: 'build', env: { NODE_ENV: 'production' } },
	{ name: 'unit and integration', script: 'test:unit' },
	{ name: 'timed (event loop)', script: 'test:timed' },
	{ name: 'browser', script: 'test:e2e' },
]

// Under npm, npm_execpath is the npm running this script; elsewhere, whichever is on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm']

/** The summary lines Vitest and Playwright end with, ANSI colours removed. */
function countsIn(output: string): string {
	const plain = stripVTControlCharacters(output)
	const vitest = /^\s*Tests\s+(.+)$/m.exec(plain)?.[1]
	const playwright = [...plain.matchAll(/^\s+(\d+ (?:passed|failed|flaky|skipped|did not run))/gm)]
		.map((match) => match[1])
		.join(', ')
	return vitest?.trim() ?? playwright
}

function run(part: Part): Promise<{ code: number; seconds: number; counts: string }> {
	const started = performance.now()
	return new Promise((resolve, reject) => {
		const [command, ...leading] = npm
		const child = spawn(command as string, [...leading, 'run', '--silent', part.script], {
			cwd: projectRoot,
			// The build made here is the one every later part tests (tests/global-setup.ts, e2e/run.ts).
			env: { ...process.env, CANOPY_TEST_BUILD: 'made', ...part.env },
			stdio: ['ignore', 'pipe', 'inherit'],
		})
		let tail = ''
		child.stdout.on('data', (chunk: Buffer) => {
			process.stdout.write(chunk)
			tail = (tail + chunk.toString()).slice(-4_000)
		})
		child.on('error', reject)
		child.on('close', (code) =>
			resolve({
				code: code ?? 1,
				seconds: (performance.now() - started) / 1000,
				counts: countsIn(tail),
			}),
		)
	})
}

const rows: string[] = []
let failed: string | undefined
const started = performance.now()
for (const part of parts) {
	process.stdout.write(`\n── ${part.name} (npm run ${part.script})\n`)
	const result = await run(part)
	rows.push(
		`${part.name.padEnd(22)}${`${result.seconds.toFixed(0)} s`.padStart(7)}  ${result.counts}`,
	)
	if (result.code !== 0) {
		failed = part.name
		break
	}
}
const total = (performance.now() - started) / 1000
process.stdout.write(
	`\n── npm test: ${failed ? `FAILED in ${failed}` : 'passed'}\n${rows.join('\n')}\n${'total'.padEnd(22)}${`${total.toFixed(0)} s`.padStart(7)}\n`,
)
process.exitCode = failed ? 1 : 0
