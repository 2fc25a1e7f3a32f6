// The scale-out benchmark's throughput part: the article page from one instance, then from two
// on the same PostgreSQL database, with the page cache and without it (a Cookie header, which
// the page cache skips, so every request is rendered). Through nginx, as deployed; when nginx is
// not installed, autocannon shares its connections between the instances' ports instead.

import { describeCpu, watchCpu } from './cpu-use.ts'
import { describeInterference, disturbedAbove, watchInterference } from './interference.ts'
import type { LoadResult } from './load-client.ts'
import { runLoad } from './load-run.ts'
import { type Balancer, nginxVersion, startNginx } from './nginx-balancer.ts'
import { articlePath, renderEveryTime } from './pages.ts'
import { kb, type Row, row, times } from './report.ts'
import type { Target } from './target.ts'

const connections = 50
const warmupSeconds = 1
const seconds = 3
/** autocannon records whole milliseconds; 0 means under one. */
const wholeMs = (value: number) => (value < 1 ? '< 1 ms' : `${Math.round(value)} ms`)

interface Measured extends LoadResult {
	disturbed: boolean
}

const modes = [
	{ name: 'page cache', headers: {} },
	{ name: 'rendered (no cache)', headers: renderEveryTime },
] as const

/** Two runs of one side, as one figure: their mean rate, the worse p99. */
function combined(runs: Measured[]): Measured {
	const [first = runs[0] as Measured] = runs
	return {
		...first,
		requestsPerSecond: runs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / runs.length,
		p99: Math.max(...runs.map((r) => r.p99)),
		requests: runs.reduce((sum, r) => sum + r.requests, 0),
		disturbed: runs.some((r) => r.disturbed),
	}
}

export interface Instance {
	url: string
	pid: number
}

export async function measureThroughput(
	target: Target,
	instances: [Instance, Instance],
	note: (line: string) => void,
	/** The database server's backends serving the benchmark's database. */
	database: (pid: number) => boolean,
): Promise<Row[]> {
	const balancerPids = new Set<number>()
	const measure = async (
		label: string,
		url: string | string[],
		headers: Record<string, string>,
	) => {
		const window = watchInterference(database)
		const cpu = watchCpu({
			'instance A': (pid) => pid === instances[0].pid,
			'instance B': (pid) => pid === instances[1].pid,
			PostgreSQL: database,
			nginx: (pid) => balancerPids.has(pid),
		})
		const result = await runLoad(target, { url, connections, warmupSeconds, seconds, headers })
		const cores = cpu.stop()
		const interference = window.stop()
		if (balancerPids.size === 0) delete cores.nginx
		note(
			`${label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${wholeMs(result.p50)}, p99 ${wholeMs(result.p99)}, ` +
				`max ${wholeMs(result.max)}, ${result.requests} requests, ${kb(result.bytesPerRequest)} per response; ` +
				`CPU in cores: ${describeCpu({ ...cores, autocannon: result.cores })}; ${describeInterference(interference)}`,
		)
		return { ...result, disturbed: interference.foreignCores > disturbedAbove } satisfies Measured
	}
	/**
	 * One, two, two, one: a machine that gets busier or quieter during the four runs weighs on
	 * both sides alike, which one run each would not give.
	 */
	const compare = async (
		figure: string,
		one: { label: string; url: string | string[] },
		two: { label: string; url: string | string[] },
		headers: Record<string, string>,
	): Promise<Row> => {
		const ones: Measured[] = []
		const twos: Measured[] = []
		ones.push(await measure(one.label, one.url, headers))
		twos.push(await measure(two.label, two.url, headers))
		twos.push(await measure(two.label, two.url, headers))
		ones.push(await measure(one.label, one.url, headers))
		const [a, b] = [combined(ones), combined(twos)]
		return row({
			bench: 'scale-out',
			figure,
			value: `${Math.round(b.requestsPerSecond)} req/s · p99 ${wholeMs(b.p99)}`,
			baseline: `${Math.round(a.requestsPerSecond)} req/s · p99 ${wholeMs(a.p99)}, one instance`,
			ratio: times(b.requestsPerSecond, a.requestsPerSecond),
			disturbed: a.disturbed || b.disturbed,
		})
	}
	const pages = instances.map(({ url }) => new URL(articlePath, url).href)
	note(
		`autocannon: ${connections} connections, not pipelined, ${warmupSeconds} s warm-up + ${seconds} s a run, runs in the order one, two, two, one; ` +
			`not pinned (no core is left for it); page ${articlePath}`,
	)
	const rows: Row[] = []
	const ports = instances.map(({ url }) => Number(new URL(url).port))
	const balancers = await startBalancers(ports, note)
	if (!balancers) {
		for (const mode of modes) {
			rows.push(
				await compare(
					`SSR req/s, two instances vs one (no balancer: see the notes), ${mode.name}`,
					{ label: `one instance, ${mode.name}`, url: pages[0] as string },
					{
						label: `two instances (connections split between their ports), ${mode.name}`,
						url: pages,
					},
					mode.headers,
				),
			)
		}
		return rows
	}
	const [toOne, toTwo] = balancers
	try {
		for (const balancer of balancers) balancerPids.add(balancer.pid)
		for (const mode of modes) {
			rows.push(
				await compare(
					`SSR req/s behind nginx, two instances vs one, ${mode.name}`,
					{
						label: `nginx → one instance, ${mode.name}`,
						url: new URL(articlePath, toOne.url).href,
					},
					{
						label: `nginx → two instances, ${mode.name}`,
						url: new URL(articlePath, toTwo.url).href,
					},
					mode.headers,
				),
			)
		}
	} finally {
		for (const balancer of balancers) await balancer.stop()
	}
	return rows
}

/**
 * nginx in front of the first instance, and in front of both; undefined, with a note saying why,
 * when nginx is missing or does not start: the throughput is then measured without a balancer.
 */
async function startBalancers(
	ports: number[],
	note: (line: string) => void,
): Promise<[Balancer, Balancer] | undefined> {
	const version = nginxVersion()
	const instead =
		'autocannon shares its connections between the two ports instead, so no balancer is measured'
	if (!version) {
		note(`nginx is not installed (apt-get install nginx): ${instead}`)
		return undefined
	}
	const started: Balancer[] = []
	try {
		started.push(await startNginx([ports[0] as number]))
		started.push(await startNginx(ports))
	} catch (error) {
		for (const balancer of started) await balancer.stop()
		note(`${error instanceof Error ? error.message : error} (${version}); ${instead}`)
		return undefined
	}
	note(
		`nginx ${version} in front in both cases (one process, round robin, keep-alive to the instances), so the balancer's cost is on both sides`,
	)
	return started as [Balancer, Balancer]
}
