// The lockfile as a new user's npm reads it. Runs first in `npm test` (npm run test:install), so
// a broken lockfile fails in seconds. `npm ci --dry-run` resolves the whole tree from the
// lockfile and package.json without downloading a package: it refuses exactly what a real
// `npm ci` or `npm install` on a fresh clone would refuse.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Lockfile, lockfileProblems, runNpm } from './lockfile.ts'

const root = new URL('../../', import.meta.url)
const files = ['package.json', 'package-lock.json', '.npmrc']

// The npms a new user plausibly has besides the machine's own: npm 10 (what Node 20 and 22
// ship), the newest npm 11 and the newest npm 12 (Node 24's and 26's), fetched from the
// registry. Pinned so a run is repeatable; move them on when new ones come out.
const otherNpms = ['10.9.9', '11.21.2', '12.2.1']

// Under `npm test`, npm_execpath is the npm running the script: the machine's own.
const machineNpm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm']
const dryCi = ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund']

function cleanCopy(lock: string): string {
	const dir = mkdtempSync(join(tmpdir(), 'canopy-lockfile-'))
	for (const file of files)
		writeFileSync(
			join(dir, file),
			file === 'package-lock.json' ? lock : readFileSync(new URL(file, root)),
		)
	return dir
}

const committed = readFileSync(new URL('package-lock.json', root), 'utf8')
const dirs: string[] = []
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

it('every entry of the lockfile has a version, a download address and an integrity hash', () => {
	expect(lockfileProblems(JSON.parse(committed) as Lockfile)).toEqual([])
})

describe('npm ci on a clean copy of package.json and the lockfile', () => {
	let dir = ''
	beforeAll(() => {
		dir = cleanCopy(committed)
		dirs.push(dir)
	})

	it('succeeds with the machine’s own npm', async () => {
		const version = await runNpm(machineNpm, ['--version'], dir)
		process.stdout.write(`lockfile: the machine's npm is ${version.output.trim()}\n`)
		const run = await runNpm(machineNpm, dryCi, dir)
		expect(run.errors).toBe('')
		expect(run.status).toBe(0)
	})

	it.each(otherNpms)('succeeds with npm %s', async (version) => {
		const run = await runNpm(
			machineNpm,
			['exec', '--yes', `--package=npm@${version}`, '--', 'npm', ...dryCi],
			dir,
		)
		expect(run.errors).toBe('')
		expect(run.status).toBe(0)
		expect(run.output).toMatch(/added \d+ packages/)
	})
})

describe('a lockfile with a placeholder entry, as an older npm wrote for Biome’s other platforms', () => {
	const broken = JSON.parse(committed) as Required<Lockfile>
	broken.packages['node_modules/@biomejs/biome/node_modules/@biomejs/cli-win32-x64'] = {
		dev: true,
		optional: true,
	} as never
	const text = `${JSON.stringify(broken, null, 2)}\n`

	it('is found by the check', () => {
		expect(lockfileProblems(broken)).toEqual([
			'node_modules/@biomejs/biome/node_modules/@biomejs/cli-win32-x64 has no version, resolved, integrity',
		])
	})

	it('is refused by npm ci, as it would be on a new user’s machine', async () => {
		const dir = cleanCopy(text)
		dirs.push(dir)
		const run = await runNpm(machineNpm, dryCi, dir)
		expect(run.status).not.toBe(0)
		expect(run.errors).toMatch(/Invalid Version/)
	})
})
