// What the benchmarks measure: a copy of the working tree taken when the run starts and built
// there with NODE_ENV=production. A test run or a rebuild in the working tree meanwhile (build/
// is shared) then cannot swap the files under a running server, and every figure in one run
// comes from the same code.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchResult } from './bench-result.ts'
import { formatTable } from './report.ts'

export const workingTree = fileURLToPath(new URL('../../', import.meta.url))

const copied = [
	'app',
	'server',
	'storage',
	'public',
	'bench',
	// Helpers the benchmarks share with the tests (tests/fixtures/api-key.ts).
	'tests/fixtures',
	'package.json',
	'react-router.config.ts',
	'vite.config.ts',
	'tsconfig.json',
	// The interface's catalogues' configuration, which the build's Lingui plugin reads.
	'lingui.config.ts',
]

export interface Target {
	/** The copy's root: run its server/index.ts, its bench/support scripts, read its app/. */
	root: string
	clientDir: string
	remove(): void
}

export function prepareTarget(log: (line: string) => void = console.log): Target {
	return buildCopy('the working tree', log, (root) => {
		for (const entry of copied) {
			const from = join(workingTree, entry)
			if (!existsSync(from)) continue
			cpSync(from, join(root, entry), {
				recursive: true,
				filter: (path) => !path.startsWith(join(workingTree, 'bench/out')),
			})
		}
	})
}

/**
 * The site as it was at an earlier commit, built the same way, for a benchmark's baseline (the
 * editor before a redesign); undefined when this checkout's history does not hold it (a shallow
 * clone). It runs on today's node_modules.
 */
export function prepareCommit(
	commit: string,
	log: (line: string) => void = console.log,
): Target | undefined {
	const known = spawnSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: workingTree })
	if (known.status !== 0) return undefined
	return buildCopy(`commit ${commit.slice(0, 7)}`, log, (root) => {
		// Only what the commit has: an older one may predate a file (lingui.config.ts).
		const entries = copied.filter(
			(entry) =>
				entry !== 'bench' &&
				entry !== 'tests/fixtures' &&
				spawnSync('git', ['cat-file', '-e', `${commit}:${entry}`], { cwd: workingTree }).status ===
					0,
		)
		const archive = spawnSync('git', ['archive', '--format=tar', commit, ...entries], {
			cwd: workingTree,
			maxBuffer: 512 * 1024 * 1024,
		})
		if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`)
		const unpack = spawnSync('tar', ['-x', '-C', root], { input: archive.stdout })
		if (unpack.status !== 0) throw new Error(`unpacking ${commit} failed: ${unpack.stderr}`)
	})
}

/** A temporary copy made by `fill`, given this checkout's node_modules and a production build. */
function buildCopy(
	what: string,
	log: (line: string) => void,
	fill: (root: string) => void,
): Target {
	const root = mkdtempSync(join(tmpdir(), 'canopy-bench-tree-'))
	const remove = () => rmSync(root, { recursive: true, force: true })
	try {
		fill(root)
		symlinkSync(join(workingTree, 'node_modules'), join(root, 'node_modules'), 'dir')
		const started = performance.now()
		const cli = join(workingTree, 'node_modules/@react-router/dev/bin.cjs')
		const build = spawnSync(process.execPath, [cli, 'build'], {
			cwd: root,
			env: { ...process.env, NODE_ENV: 'production' },
			encoding: 'utf8',
			timeout: 180_000,
		})
		if (build.status !== 0)
			throw new Error(`react-router build failed:\n${build.stdout}\n${build.stderr}`)
		log(
			`built a copy of ${what} with NODE_ENV=production in ${((performance.now() - started) / 1000).toFixed(1)} s: ${root}`,
		)
	} catch (error) {
		remove()
		throw error
	}
	return { root, clientDir: join(root, 'build/client'), remove }
}

/** For `node bench/<name>.ts`: one benchmark on its own, with its own built copy. */
export async function runAlone(run: (target: Target) => Promise<BenchResult>): Promise<void> {
	const target = prepareTarget()
	try {
		console.log(formatTable((await run(target)).rows))
	} finally {
		target.remove()
	}
}
