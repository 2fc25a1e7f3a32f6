// Scale-out on PostgreSQL: two Canopy instances on one database, on this 2-core machine.
//  1. Publish-to-visible across instances: live streams on both instances, articles published
//     through instance A's admin API; the time to instance B's streams beside the time to A's own.
//  2. The publish transaction through the Storage port, as the editor's Publish button runs it
//     (create: the article, its push deliveries, the change row and its pg_notify), beside a bare
//     BEGIN; INSERT; pg_notify; COMMIT on the same server; the CLI's saveBySlug in the notes.
//  3. SSR throughput of two instances against one (bench/support/scale-throughput.ts).
// Runs on a database of its own on the server TEST_DATABASE_URL names, dropped at the end; it
// is skipped, saying why, when that server does not answer.
import { join } from 'node:path'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { type RunningServer, startCanopy } from './support/canopy-server.ts'
import { describeInterference, disturbedAbove, watchInterference } from './support/interference.ts'
import { callsTo } from './support/ipc.ts'
import { pinningNote, startNode, stopProcess, withDeadline } from './support/processes.ts'
import { waitForQuiet } from './support/quiet.ts'
import { met, ms, percentile, type Row, row, times } from './support/report.ts'
import {
	type BenchDatabase,
	createBenchDatabase,
	postgresProblem,
	redacted,
} from './support/scale-database.ts'
import { measureThroughput } from './support/scale-throughput.ts'
import { runAlone, type Target } from './support/target.ts'

const bench = 'scale-out'
const cpuA = 0
const cpuB = 1
const storageCpu = 1
const streamsPerInstance = 50
const warmupPublishes = 20
const publishes = 200
const publishEveryMs = 50
const maxExtraP99Ms = 5
/** Issue: the publish transaction's p99 at most this many times a bare INSERT + NOTIFY's, same run. */
const maxTransactionRatio = 1.5
const transactionRounds = 10
const transactionsPerRound = 100
const deadlineMs = 240_000

type Note = (line: string) => void

const sorted = (values: Float64Array) => Float64Array.from(values).sort()
const stat = (values: Float64Array) =>
	`p50 ${ms(percentile(values, 50))} · p99 ${ms(percentile(values, 99))} · max ${ms(values.at(-1) ?? Number.NaN)}`
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`
const statSigned = (values: Float64Array) =>
	`p1 ${signed(percentile(values, 1))} · p50 ${signed(percentile(values, 50))} · p99 ${signed(percentile(values, 99))}`

function startChild(target: Target, script: string, env: Record<string, string>, cpu?: number) {
	return startNode([join(target.root, script)], {
		cpu,
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		serialization: 'advanced',
		env: { ...process.env, ...env },
	})
}

/** Part 2, and the account and key part 1 publishes with. */
async function transactions(target: Target, database: BenchDatabase, note: Note) {
	const child = startChild(
		target,
		'bench/support/scale-storage.ts',
		{ DATABASE_URL: database.url, LOG_LEVEL: 'error' },
		storageCpu,
	)
	const storage = callsTo(child, 'the storage process')
	try {
		await storage.ready()
		const key = await storage.call<string>('prepare', {}, 60_000)
		const window = watchInterference(database.serves)
		const timed = await storage.call<{
			canopy: Float64Array
			cli: Float64Array
			bare: Float64Array
			busy: number
		}>(
			'transactions',
			{ rounds: transactionRounds, perRound: transactionsPerRound, warmup: 50 },
			60_000,
		)
		const interference = window.stop()
		const canopy = sorted(timed.canopy)
		const bare = sorted(timed.bare)
		const cli = sorted(timed.cli)
		note(
			`publish transaction, ${canopy.length} each through the Storage port's create (the editor's Publish) and saveBySlug (the CLI's), and bare, in ${transactionRounds} alternating rounds, ` +
				`one process on core ${storageCpu} (PostgreSQL not pinned): create ${stat(canopy)}; saveBySlug ${stat(cli)}; bare ${stat(bare)}; ` +
				`that process busy ${Math.round(timed.busy * 100)}%; ${describeInterference(interference)}`,
		)
		const p99 = percentile(canopy, 99)
		const bareP99 = percentile(bare, 99)
		const row2 = row({
			bench,
			figure:
				'publish transaction, editor (article, terms, revision, search, deliveries, change, pg_notify)',
			value: stat(canopy),
			baseline: `${stat(bare)}, bare INSERT + pg_notify`,
			ratio: times(p99, bareP99),
			target: `p99 ≤ ${maxTransactionRatio}× bare`,
			status: met(p99 <= maxTransactionRatio * bareP99),
			disturbed: interference.foreignCores > disturbedAbove,
		})
		return { key, row: row2 }
	} finally {
		await storage.call('stop', {}, 5_000).catch(() => {})
		await stopProcess(child, 5_000)
	}
}

interface Published {
	a: Float64Array
	b: Float64Array
	lost: { a: number; b: number }
	spread: { a: number[]; b: number[] }
	paired: Float64Array
	answered: Float64Array
	streams: { a: number; b: number }
	busy: number
	dropped: number
}

/** Part 1. */
async function acrossInstances(
	target: Target,
	database: BenchDatabase,
	[a, b]: [RunningServer, RunningServer],
	key: string,
	note: Note,
): Promise<Row[]> {
	const child = startChild(target, 'bench/support/cross-instance-client.ts', {})
	const client = callsTo(child, 'the stream client')
	try {
		await client.ready()
		const portA = Number(new URL(a.url).port)
		await client.call('connect', { group: 'a', port: portA, count: streamsPerInstance })
		await client.call('connect', {
			group: 'b',
			port: Number(new URL(b.url).port),
			count: streamsPerInstance,
		})
		const args = { port: portA, key, intervalMs: 25 }
		await client.call('publish', { ...args, first: 0, count: warmupPublishes }, 30_000)
		const window = watchInterference(database.serves)
		const run = await client.call<Published>(
			'publish',
			{ ...args, first: warmupPublishes, count: publishes, intervalMs: publishEveryMs },
			publishes * publishEveryMs + 30_000,
		)
		const interference = window.stop()
		const onA = sorted(run.a)
		const onB = sorted(run.b)
		const answered = sorted(run.answered)
		const spread = (values: number[]) => ms(percentile(sorted(Float64Array.from(values)), 50))
		note(
			`${publishes} publishes through A's admin API, one every ${publishEveryMs} ms, after ${warmupPublishes} unmeasured; ` +
				`${run.streams.a} streams on A, ${run.streams.b} on B, all in one client process (not pinned) that also sends the publishes: ` +
				`send → event on A ${stat(onA)}; on B ${stat(onB)}; send → 201 answer ${stat(answered)}; ` +
				`median spread from a publish's first to last stream: A ${spread(run.spread.a)}, B ${spread(run.spread.b)}; ` +
				`per publish, B's median arrival minus A's: ${statSigned(sorted(run.paired))}; ` +
				`client process busy ${Math.round(run.busy * 100)}%; lost A ${run.lost.a}, B ${run.lost.b}; streams dropped ${run.dropped}; ` +
				describeInterference(interference),
		)
		const disturbed = interference.foreignCores > disturbedAbove
		const extraP99 = percentile(onB, 99) - percentile(onA, 99)
		const extraP50 = percentile(onB, 50) - percentile(onA, 50)
		const expected = publishes * streamsPerInstance
		return [
			row({
				bench,
				figure: 'publish on A → event on B (other instance)',
				value: stat(onB),
				baseline: `${stat(onA)} on A (same instance)`,
				ratio: times(percentile(onB, 99), percentile(onA, 99)),
				target: `extra p99 ≤ ${maxExtraP99Ms} ms (was ${signed(extraP99)}, p50 ${signed(extraP50)})`,
				status: met(extraP99 <= maxExtraP99Ms),
				disturbed,
			}),
			row({
				bench,
				figure: 'events lost across instances',
				value: `${run.lost.b} of ${expected} on B (streams dropped ${run.dropped})`,
				baseline: `${run.lost.a} of ${expected} on A`,
				target: '0',
				status: met(run.lost.a === 0 && run.lost.b === 0 && run.dropped === 0),
			}),
		]
	} finally {
		await client.call('closeAll', {}, 5_000).catch(() => {})
		await stopProcess(child, 5_000)
	}
}

async function measureAll(
	target: Target,
	database: BenchDatabase,
	note: Note,
	running: RunningServer[],
): Promise<Row[]> {
	await waitForQuiet(note, 5_000)
	let began = performance.now()
	const took = (what: string) => {
		note(`${what} took ${((performance.now() - began) / 1000).toFixed(0)} s`)
		began = performance.now()
	}
	const { key, row: transactionRow } = await transactions(target, database, note)
	took('preparing the database and timing the transactions')
	const env = { DATABASE_URL: database.url }
	// One after the other: the second finds the database migrated and seeded.
	const a = await startCanopy(target, { cpu: cpuA, logLevel: 'error', env })
	running.push(a)
	const b = await startCanopy(target, { cpu: cpuB, logLevel: 'error', env })
	running.push(b)
	note(
		`${pinningNote()}: instance A on core ${cpuA}, instance B on core ${cpuB}; PostgreSQL not pinned`,
	)
	took('starting the two instances')
	const visible = await acrossInstances(target, database, [a, b], key, note)
	took('publish-to-visible')
	const throughput = await measureThroughput(
		target,
		[
			{ url: a.url, pid: a.child.pid ?? 0 },
			{ url: b.url, pid: b.child.pid ?? 0 },
		],
		note,
		database.serves,
	)
	took('throughput')
	return [...visible, transactionRow, ...throughput]
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes(bench)
	const serverUrl = process.env.TEST_DATABASE_URL
	const problem = await postgresProblem(serverUrl)
	if (problem || !serverUrl) {
		note(`skipped: ${problem}`)
		return { rows: [row({ bench, figure: 'skipped', value: problem ?? '' })], notes }
	}
	const database = await createBenchDatabase(serverUrl)
	note(
		`database ${database.name} made on ${redacted(serverUrl)}, dropped at the end; its PostgreSQL backends count as the benchmark's own processes, not as interference`,
	)
	const running: RunningServer[] = []
	try {
		const rows = await withDeadline(
			measureAll(target, database, note, running),
			deadlineMs,
			'the scale-out benchmark',
		)
		return { rows, notes }
	} finally {
		for (const server of running.reverse()) await server.stop()
		await database.drop()
	}
}

if (import.meta.main) await runAlone(run)
