// What a new user's first command depends on: package-lock.json as npm reads it. `npm ci` refuses
// a lockfile with an entry that has no version ("npm error Invalid Version:"), and so does
// `npm install`, so a single placeholder entry stops both README commands before anything runs.
import { spawn } from 'node:child_process'

interface LockEntry {
	version?: string
	resolved?: string
	integrity?: string
	link?: boolean
}

export interface Lockfile {
	lockfileVersion?: number
	packages?: Record<string, LockEntry>
}

/**
 * Entries a clean install cannot use: every installed package needs the version npm checks,
 * the address it downloads from and the hash it verifies. Links (workspaces) carry none of them.
 */
export function lockfileProblems(lock: Lockfile): string[] {
	const problems: string[] = []
	if (lock.lockfileVersion !== 3) problems.push(`lockfileVersion is ${lock.lockfileVersion}, not 3`)
	for (const [path, entry] of Object.entries(lock.packages ?? {})) {
		if (path === '' || entry.link) continue
		const missing = (['version', 'resolved', 'integrity'] as const).filter((key) => !entry[key])
		if (missing.length > 0) problems.push(`${path} has no ${missing.join(', ')}`)
	}
	return problems
}

export interface NpmRun {
	status: number | null
	/** The `npm error` lines, which say why npm refused. */
	errors: string
	output: string
}

/**
 * The environment of an npm a person runs: without the npm_config_* settings an outer
 * `npm run --silent` passes down (loglevel=silent would hide the very errors looked for). The
 * npmrc files still apply, as they do for that person.
 */
function freshNpmEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {}
	for (const [key, value] of Object.entries(process.env))
		if (!/^npm_(config|lifecycle|package)_/i.test(key)) env[key] = value
	return { ...env, npm_config_update_notifier: 'false' }
}

/** Runs an npm (its command and leading arguments) in `cwd`, never longer than `timeoutMs`. */
export function runNpm(npm: string[], args: string[], cwd: string, timeoutMs = 120_000) {
	return new Promise<NpmRun>((resolve, reject) => {
		const [command, ...leading] = npm
		if (!command) throw new Error('No npm command was given.')
		const child = spawn(command, [...leading, ...args], {
			cwd,
			env: freshNpmEnv(),
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: timeoutMs,
		})
		let output = ''
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString()
		})
		child.stderr.on('data', (chunk: Buffer) => {
			output += chunk.toString()
		})
		child.on('error', reject)
		child.on('close', (status) => {
			const errors = output
				.split('\n')
				.filter((line) => line.startsWith('npm error'))
				.join('\n')
			resolve({ status, errors, output })
		})
	})
}
