// How much CPU other processes (a test run, a build, an editor) took while we measured. Linux
// only: it adds up, from /proc/<pid>/stat, the CPU time of every process that is not this one or
// one of its descendants, between the start and the end of a window. Counting the others
// directly, rather than subtracting ours from the machine's total, stays right when a browser
// we started is torn down and its processes, reparented to init, are no longer ours.
import { readdirSync, readFileSync } from 'node:fs'

// USER_HZ: 100 on every mainstream Linux build.
const ticksPerSecond = 100

interface Entry {
	pid: number
	ppid: number
	/**
	 * Own CPU time only: a reaped child's whole lifetime lands in its parent's at once, which
	 * would count time from before the window. A process that starts and ends inside the
	 * window is missed; the wait for a quiet machine before each measurement covers most.
	 */
	ticks: number
}

/** Processes keyed by pid and start time, so a reused pid is a new process. */
function processTable(): Map<string, Entry> {
	const table = new Map<string, Entry>()
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
			// Fields after the command name, which may itself contain spaces and parentheses.
			const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
			const ticks = Number(rest[11]) + Number(rest[12])
			table.set(`${name}:${rest[19]}`, { pid: Number(name), ppid: Number(rest[1]), ticks })
		} catch {
			// The process ended while we read the table.
		}
	}
	return table
}

/** Keys of this process and its descendants in `table`. */
function oursIn(table: Map<string, Entry>): Set<string> {
	const parentOf = new Map<number, number>()
	for (const entry of table.values()) parentOf.set(entry.pid, entry.ppid)
	const ours = new Set<string>()
	for (const [key, entry] of table) {
		for (
			let at: number | undefined = entry.pid, depth = 0;
			at && depth < 64;
			at = parentOf.get(at), depth++
		) {
			if (at === process.pid) {
				ours.add(key)
				break
			}
		}
	}
	return ours
}

export interface Interference {
	/** Cores' worth of CPU that other processes used, on average, over the window. */
	foreignCores: number
	seconds: number
}

/**
 * Starts a measurement window; stop() says how busy everything else kept the machine.
 * `alsoOurs` names processes that work for us without being our children (the database
 * server's backends serving our connections, say).
 */
export function watchInterference(alsoOurs?: (pid: number) => boolean): {
	stop(): Interference
} {
	let start: Map<string, Entry>
	try {
		start = processTable()
	} catch {
		return { stop: () => ({ foreignCores: Number.NaN, seconds: 0 }) }
	}
	const started = performance.now()
	// A process once seen as ours stays ours: a browser we started and tore down leaves its
	// children to init for their last moments.
	const ours = oursIn(start)
	const adopt = (table: Map<string, Entry>) => {
		for (const key of oursIn(table)) ours.add(key)
		if (!alsoOurs) return
		for (const [key, entry] of table) if (!ours.has(key) && alsoOurs(entry.pid)) ours.add(key)
	}
	adopt(start)
	const remember = () => adopt(processTable())
	const timer = setInterval(remember, 1_000)
	timer.unref()
	return {
		stop() {
			clearInterval(timer)
			const seconds = (performance.now() - started) / 1000
			const end = processTable()
			adopt(end)
			let foreign = 0
			for (const [key, entry] of end) {
				// Kernel threads mostly do the network work our own load causes.
				if (ours.has(key) || entry.pid === 2 || entry.ppid === 2) continue
				foreign += entry.ticks - (start.get(key)?.ticks ?? 0)
			}
			return { foreignCores: Math.max(0, foreign / ticksPerSecond / seconds), seconds }
		},
	}
}

/** Above this, a figure is marked disturbed. */
export const disturbedAbove = 0.1

export function describeInterference(value: Interference): string {
	if (Number.isNaN(value.foreignCores)) return 'interference unknown (no /proc)'
	return `other processes used ${value.foreignCores.toFixed(2)} cores on average`
}

/**
 * Runs `measure` and repeats it (at most `attempts` times in all) while other processes
 * disturbed it; returns the least disturbed result with its interference.
 */
export async function leastDisturbed<T>(
	measure: () => Promise<T>,
	options: {
		attempts?: number
		before?: () => Promise<unknown>
		note?: (line: string) => void
		label?: string
		/** Processes that are part of what is measured (the PostgreSQL backends serving it). */
		alsoOurs?: (pid: number) => boolean
	} = {},
): Promise<{ result: T; interference: Interference }> {
	const attempts = options.attempts ?? 3
	let best: { result: T; interference: Interference } | undefined
	for (let attempt = 1; attempt <= attempts; attempt++) {
		await options.before?.()
		const window = watchInterference(options.alsoOurs)
		const result = await measure()
		const interference = window.stop()
		if (!best || interference.foreignCores < best.interference.foreignCores) {
			best = { result, interference }
		}
		if (!(interference.foreignCores > disturbedAbove)) break
		if (attempt < attempts) {
			options.note?.(
				`${options.label ?? 'measurement'} disturbed (${describeInterference(interference)}): again`,
			)
		}
	}
	return best as { result: T; interference: Interference }
}
