// Live fan-out: how long after an article is published the 1,000th or 10,000th open stream has
// it, beside a plain node:http SSE server that writes one event of the same size to the same
// number of streams. The server under test runs on core 0, every subscriber in one client
// process on core 1; T0 is taken in the server process, arrival in the client, both on the wall
// clock (performance.timeOrigin + now()), with the small offset between them measured and removed.
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { describeInterference, disturbedAbove, leastDisturbed } from './support/interference.ts'
import { callsTo, clock, type ServerMemory } from './support/ipc.ts'
import {
	pinningNote,
	pollUntil,
	sleep,
	startNode,
	stopProcess,
	withDeadline,
} from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { kb, met, ms, percentile, type Row, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const sizes = [1_000, 10_000]
const publishes = 5
const connectBatch = 250
const serverCpu = 0
const clientCpu = 1
const maxBytesPerConnection = 20_000
const deadlineMs = 300_000

type Calls = ReturnType<typeof callsTo>

interface Publish {
	id: number
	t0: number
	saveMs: number
}

interface Fanout {
	n: number
	connectMs: number
	rssPerConnection: number
	heapPerConnection: number
	latencies: Float64Array
	lost: number
	dropped: number
	resets: number
	saveMs: number[]
	frameBytes: number
	skewMs: number
	/** How busy the subscriber process's event loop was from publish to the last arrival. */
	clientBusy: number[]
	disturbed: boolean
}

const sides = {
	canopy: { name: 'Canopy', script: 'bench/support/fanout-canopy-server.ts' },
	plain: { name: 'plain Node SSE', script: 'bench/support/fanout-plain-server.ts' },
} as const

/** Offset of a process's clock from ours, from the call that came back fastest. */
async function offsetOf(calls: Calls): Promise<number> {
	let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 }
	for (let i = 0; i < 7; i++) {
		const sent = clock()
		const theirs = await calls.call<number>('clock')
		const back = clock()
		if (back - sent < best.rtt) best = { rtt: back - sent, offset: theirs - (sent + back) / 2 }
	}
	return best.offset
}

async function fanout(
	target: Target,
	side: (typeof sides)[keyof typeof sides],
	n: number,
	client: Calls,
	frameBytes: number,
	note: (line: string) => void,
	children: Set<ChildProcess>,
): Promise<Fanout> {
	const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-fanout-'))
	const child = startNode(['--expose-gc', join(target.root, side.script)], {
		cpu: serverCpu,
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		serialization: 'advanced',
		env: {
			...process.env,
			DATA_DIR: dataDir,
			HOST: '127.0.0.1',
			SITE_URL: 'http://127.0.0.1',
			LOG_LEVEL: 'error',
		},
	})
	children.add(child)
	const server = callsTo(child, side.name)
	try {
		await server.ready()
		const { port, path } = await server.call<{ port: number; path: string }>('ready')
		if (frameBytes) await server.call('frameSize', { bytes: frameBytes })
		const size = () => server.call<number>('size')

		// Warm-up: the first publish compiles the code paths; measure from a steady state.
		await client.call('connect', { port, path, count: 20, batch: 20 })
		const warm = await server.call<Publish>('publish')
		await client.call('waitFor', { id: warm.id, count: 20, timeoutMs: 5_000 })
		await client.call('closeAll')
		if (!(await pollUntil(async () => (await size()) === 0, 10_000)))
			throw new Error(`${side.name} kept closed streams`)

		const before = await server.call<ServerMemory>('memory')
		const connected = await client.call<{ open: number; ms: number }>(
			'connect',
			{ port, path, count: n, batch: connectBatch },
			180_000,
		)
		if (!(await pollUntil(async () => (await size()) === n, 30_000, 100))) {
			throw new Error(`${side.name} registered ${await size()} of ${n} streams`)
		}
		const after = await server.call<ServerMemory>('memory')
		const skewMs = (await offsetOf(client)) - (await offsetOf(server))
		await sleep(300)

		const latencies = new Float64Array(n * publishes)
		let filled = 0
		let lost = 0
		const saveMs: number[] = []
		const clientBusy: number[] = []
		for (let i = 0; i < publishes; i++) {
			await client.call('mark')
			const published = await server.call<Publish>('publish')
			const { count: got, busy } = await client.call<{ count: number; busy: number }>(
				'waitFor',
				{ id: published.id, count: n, timeoutMs: 10_000 },
				20_000,
			)
			clientBusy.push(busy)
			const arrivals = await client.call<Float64Array>('arrivals', { id: published.id })
			lost += Math.max(0, n - got)
			// Arrival on the client's clock minus T0 moved onto the client's clock.
			for (const at of arrivals) latencies[filled++] = at - (published.t0 + skewMs)
			saveMs.push(published.saveMs)
			await sleep(200)
		}
		const counts = await client.call<{
			open: number
			frameBytes: number
			resets: number
			droppedByServer: number
		}>('counts')
		await client.call('closeAll')
		const result: Fanout = {
			n,
			connectMs: connected.ms,
			rssPerConnection: (after.rss - before.rss) / n,
			heapPerConnection: (after.heapUsed - before.heapUsed) / n,
			latencies: latencies.slice(0, filled).sort(),
			lost,
			dropped: counts.droppedByServer,
			resets: counts.resets,
			saveMs,
			frameBytes: counts.frameBytes,
			skewMs,
			clientBusy,
			disturbed: false,
		}
		const l = result.latencies
		note(
			`${side.name}, ${n} streams: connected in ${ms(connected.ms)}; latency min ${ms(l[0] ?? Number.NaN)}, p50 ${ms(percentile(l, 50))}, ` +
				`p99 ${ms(percentile(l, 99))}, max ${ms(l.at(-1) ?? Number.NaN)} over ${publishes} publishes; lost ${lost}, dropped ${counts.droppedByServer}, ` +
				`resets ${counts.resets}; ${kb(result.rssPerConnection)} RSS and ${kb(result.heapPerConnection)} heap per stream; ` +
				`event ${counts.frameBytes} bytes; clock offset ${skewMs.toFixed(3)} ms; ` +
				`subscriber process busy ${clientBusy.map((b) => `${Math.round(b * 100)}%`).join(', ')} from publish to last arrival` +
				(side === sides.canopy
					? `; saveArticle took ${saveMs.map((v) => v.toFixed(1)).join(', ')} ms`
					: ''),
		)
		return result
	} finally {
		await server.call('stop', {}, 5_000).catch(() => {})
		await stopProcess(child, 5_000)
		rmSync(dataDir, { recursive: true, force: true })
	}
}

function rows(canopy: Fanout, plain: Fanout): Row[] {
	const disturbed = canopy.disturbed || plain.disturbed
	const p99 = percentile(canopy.latencies, 99)
	const baseP99 = percentile(plain.latencies, 99)
	const limit = 1.25 * baseP99 + 5
	const stat = (f: Fanout) =>
		`p50 ${ms(percentile(f.latencies, 50))} · p99 ${ms(percentile(f.latencies, 99))} · max ${ms(f.latencies.at(-1) ?? Number.NaN)}`
	const total = canopy.n * publishes
	return [
		row({
			bench: 'live-fanout',
			figure: `${canopy.n} streams, publish → received`,
			value: stat(canopy),
			baseline: stat(plain),
			ratio: times(p99, baseP99),
			target: `p99 ≤ 1.25×base + 5 = ${ms(limit)}`,
			status: met(p99 <= limit),
			disturbed,
		}),
		row({
			bench: 'live-fanout',
			figure: `${canopy.n} streams, events lost`,
			value: `${canopy.lost} of ${total} (dropped ${canopy.dropped})`,
			baseline: `${plain.lost} of ${total}`,
			target: '0',
			status: met(canopy.lost === 0 && canopy.dropped === 0 && canopy.resets === 0),
		}),
		row({
			bench: 'live-fanout',
			figure: `${canopy.n} streams, memory per stream`,
			value: `RSS ${kb(canopy.rssPerConnection)} · heap ${kb(canopy.heapPerConnection)}`,
			baseline: `RSS ${kb(plain.rssPerConnection)} · heap ${kb(plain.heapPerConnection)}`,
			ratio: times(canopy.rssPerConnection, plain.rssPerConnection),
			target: `≤ ${kb(maxBytesPerConnection)}`,
			status: met(
				Math.max(canopy.rssPerConnection, canopy.heapPerConnection) <= maxBytesPerConnection,
			),
		}),
	]
}

async function measureAll(
	target: Target,
	note: (line: string) => void,
	children: Set<ChildProcess>,
): Promise<Row[]> {
	const clientProcess = startNode([join(target.root, 'bench/support/fanout-client.ts')], {
		cpu: clientCpu,
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		serialization: 'advanced',
	})
	children.add(clientProcess)
	const client = callsTo(clientProcess, 'the subscriber process')
	try {
		await client.ready()
		note(
			`${pinningNote()}: server on core ${serverCpu}, subscribers on core ${clientCpu}; ${publishes} publishes per size, connections opened ${connectBatch} at a time`,
		)
		const all: Row[] = []
		const measure = async (
			side: (typeof sides)[keyof typeof sides],
			n: number,
			frameBytes: number,
		) => {
			const label = `${side.name}, ${n} streams`
			const { result, interference } = await leastDisturbed(
				() => fanout(target, side, n, client, frameBytes, note, children),
				{
					attempts: 2,
					before: () => waitForQuiet(note, 30_000),
					note,
					label,
				},
			)
			note(`${label}: ${describeInterference(interference)}`)
			return { ...result, disturbed: interference.foreignCores > disturbedAbove }
		}
		for (const n of sizes) {
			const canopy = await measure(sides.canopy, n, 0)
			// The baseline writes an event exactly as large as the one Canopy sent.
			const plain = await measure(sides.plain, n, canopy.frameBytes)
			all.push(...rows(canopy, plain))
		}
		return all
	} finally {
		await stopProcess(clientProcess, 5_000)
	}
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('live-fanout')
	const children = new Set<ChildProcess>()
	try {
		const rows = await withDeadline(
			measureAll(target, note, children),
			deadlineMs,
			'the live fan-out benchmark',
		)
		return { rows, notes }
	} finally {
		// Past the deadline the measurement is still running: ending its processes stops it.
		for (const child of children) child.kill('SIGKILL')
	}
}

if (import.meta.main) await runAlone(run)
