// Figures taken while something else keeps the CPUs busy (a test run, a build) are noise.
// Before each measurement we wait, for a bounded time, until the machine is idle, and say so
// in the report when it never was.
import { cpus } from 'node:os'
import { sleep } from './processes.ts'

function totals() {
	let idle = 0
	let all = 0
	for (const cpu of cpus()) {
		const { user, nice, sys, idle: free, irq } = cpu.times
		idle += free
		all += user + nice + sys + free + irq
	}
	return { idle, all }
}

/** The fraction of CPU time spent idle, across all cores, over the next `ms`. */
export async function idleFraction(ms = 1_000): Promise<number> {
	const before = totals()
	await sleep(ms)
	const after = totals()
	const all = after.all - before.all
	return all > 0 ? (after.idle - before.idle) / all : 1
}

/** Waits until the CPUs are at least `minIdle` idle over a second, at most `maxWaitMs`. */
export async function waitForQuiet(
	note: (line: string) => void,
	maxWaitMs = 60_000,
	minIdle = 0.9,
): Promise<number> {
	const until = performance.now() + maxWaitMs
	let idle = await idleFraction()
	while (idle < minIdle && performance.now() < until) idle = await idleFraction()
	if (idle < minIdle) {
		note(
			`WARNING: the machine was busy (only ${Math.round(idle * 100)}% idle) when this started: other work disturbs these figures`,
		)
	}
	return idle
}
