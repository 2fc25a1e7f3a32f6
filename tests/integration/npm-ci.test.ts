// `npm ci` installs exactly what package-lock.json records, and refuses a lockfile that lacks an
// entry for any dependency, optional ones included ("Missing: @biomejs/cli-android-arm64@ from
// lock file"). Biome's binaries for other platforms are not on every registry; npm 11.13 records
// such an unavailable optional package as a placeholder entry, while npm 11.16 and later leave
// it out when they rewrite the lockfile (any `npm install`) and then refuse their own lockfile
// (npm/cli#9846). This checks the lockfile as committed, which is what a clone installs from.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'

it('npm ci accepts the committed package.json and package-lock.json', () => {
	const dir = mkdtempSync(join(tmpdir(), 'canopy-npm-ci-'))
	try {
		for (const file of ['package.json', 'package-lock.json'])
			writeFileSync(join(dir, file), execFileSync('git', ['show', `HEAD:${file}`]))
		const result = spawnSync(
			'npm',
			['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
			{ cwd: dir, encoding: 'utf8', timeout: 120_000 },
		)
		const errors = result.stderr
			.split('\n')
			.filter((line) => line.startsWith('npm error'))
			.join('\n')
		expect(errors).toBe('')
		expect(result.status).toBe(0)
	} finally {
		rmSync(dir, { recursive: true, force: true })
	}
})
