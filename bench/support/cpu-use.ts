// How much CPU named processes used over a window, read from /proc (Linux), to say what limited
// a throughput figure: the servers, the database, the balancer or the load generator.
import { readdirSync, readFileSync } from 'node:fs'

// USER_HZ: 100 on every mainstream Linux build.
const ticksPerSecond = 100

type Groups = Record<string, (pid: number) => boolean>

/** CPU ticks (all threads) of every process a group claims, keyed by group, pid and start time. */
function sample(groups: Groups): Map<string, number> {
	const ticks = new Map<string, number>()
	let names: string[]
	try {
		names = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
	} catch {
		return ticks
	}
	for (const name of names) {
		const pid = Number(name)
		const claimed = Object.keys(groups).filter((group) => groups[group]?.(pid))
		if (claimed.length === 0) continue
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
			const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
			const used = Number(rest[11]) + Number(rest[12])
			for (const group of claimed) ticks.set(`${group}\t${name}:${rest[19]}`, used)
		} catch {
			// The process ended while we read it.
		}
	}
	return ticks
}

/** Starts a window; stop() gives each group's average use in cores (NaN without /proc). */
export function watchCpu(groups: Groups): { stop(): Record<string, number> } {
	const before = sample(groups)
	const started = performance.now()
	return {
		stop() {
			const after = sample(groups)
			const seconds = (performance.now() - started) / 1000
			const cores: Record<string, number> = {}
			for (const group of Object.keys(groups)) cores[group] = after.size === 0 ? Number.NaN : 0
			for (const [key, used] of after) {
				const group = key.slice(0, key.indexOf('\t'))
				cores[group] =
					(cores[group] ?? 0) + (used - (before.get(key) ?? 0)) / ticksPerSecond / seconds
			}
			return cores
		},
	}
}

export function describeCpu(cores: Record<string, number>): string {
	return Object.entries(cores)
		.map(([group, value]) => `${group} ${value.toFixed(2)}`)
		.join(', ')
}
