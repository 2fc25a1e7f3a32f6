// Child processes for the benchmarks: pinned to a core when taskset is there, tracked so that
// none outlives the run (even when the run crashes), and every wait has a deadline.
import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from 'node:child_process'

const children = new Set<ChildProcess>()
let hooked = false

function killAll() {
	for (const child of children) child.kill('SIGKILL')
	children.clear()
}

function hookExit() {
	if (hooked) return
	hooked = true
	process.on('exit', killAll)
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => {
			killAll()
			process.exit(130)
		})
	}
}

let taskset: boolean | undefined

/** taskset (util-linux) pins a process to a core; without it the figures are noisier, not wrong. */
export function hasTaskset(): boolean {
	taskset ??= spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0
	return taskset
}

export function pinningNote(): string {
	return hasTaskset()
		? 'pinned with taskset'
		: 'NOT pinned: taskset is missing (apt-get install util-linux)'
}

/** Starts `node ...args`, on core `cpu` when given and taskset exists. */
export function startNode(
	args: string[],
	options: SpawnOptions & { cpu?: number } = {},
): ChildProcess {
	const { cpu, ...spawnOptions } = options
	return trackChild(
		cpu !== undefined && hasTaskset()
			? spawn('taskset', ['-c', String(cpu), process.execPath, ...args], spawnOptions)
			: spawn(process.execPath, args, spawnOptions),
	)
}

/** Tracks a child started some other way, so that it cannot outlive the run either. */
export function trackChild(child: ChildProcess): ChildProcess {
	hookExit()
	children.add(child)
	child.once('exit', () => children.delete(child))
	return child
}

export function exited(child: ChildProcess): Promise<number | null> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
	return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

/** Asks the process to stop, then kills it when it has not within graceMs. */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return
	child.kill('SIGTERM')
	const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
	await exited(child)
	clearTimeout(timer)
}

/**
 * Runs `node ...args` to its end (killed past `ms`) and gives back the last line it printed,
 * parsed as JSON: how the benchmarks' helper processes (load clients, data scripts) report.
 */
export async function jsonFromNode<T>(
	args: string[],
	options: SpawnOptions & { cpu?: number },
	ms: number,
	what: string,
): Promise<T> {
	const child = startNode(args, { ...options, stdio: ['ignore', 'pipe', 'inherit'] })
	let out = ''
	child.stdout?.setEncoding('utf8')
	child.stdout?.on('data', (chunk: string) => {
		out += chunk
	})
	const code = await exitedWithin(child, ms, what)
	if (code !== 0) throw new Error(`${what} exited with code ${code}`)
	return JSON.parse(out.trim().split('\n').at(-1) ?? '') as T
}

/** Waits for the child to exit; kills it when it runs past `ms`. */
export async function exitedWithin(
	child: ChildProcess,
	ms: number,
	what: string,
): Promise<number | null> {
	try {
		return await withDeadline(exited(child), ms, what)
	} catch (error) {
		child.kill('SIGKILL')
		throw error
	}
}

export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms)
	})
	return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}

/** Resolves with the first match of `pattern` in the child's stdout; rejects when it exits first. */
export function waitForOutput(
	child: ChildProcess,
	pattern: RegExp,
	ms: number,
	what: string,
): Promise<RegExpMatchArray> {
	let seen = ''
	const found = new Promise<RegExpMatchArray>((resolve, reject) => {
		child.stdout?.setEncoding('utf8')
		child.stdout?.on('data', (chunk: string) => {
			seen = (seen + chunk).slice(-8_192)
			const match = seen.match(pattern)
			if (match) resolve(match)
		})
		child.once('exit', (code) =>
			reject(new Error(`${what} exited (code ${code}) before it was ready:\n${seen}`)),
		)
	})
	return withDeadline(found, ms, what)
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Polls `check` every `everyMs` until it is true or `ms` passes; returns whether it became true. */
export async function pollUntil(
	check: () => boolean | Promise<boolean>,
	ms: number,
	everyMs = 50,
): Promise<boolean> {
	const until = performance.now() + ms
	while (performance.now() < until) {
		if (await check()) return true
		await sleep(everyMs)
	}
	return check()
}
