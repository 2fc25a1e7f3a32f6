// npm run bench: every benchmark in turn against one production build of the working tree, one
// summary table at the end, and a report in bench/out/. A missed target is a result, not a
// failure: the exit code is non-zero only when a benchmark could not run.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, freemem, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { run as collectIngest } from './collect-ingest.ts'
import { run as editorPublish } from './editor-publish.ts'
import { run as images } from './images.ts'
import { run as instanceKill } from './instance-kill.ts'
import { run as lighthouse } from './lighthouse.ts'
import { run as liveFanout } from './live-fanout.ts'
import { run as metrics } from './metrics.ts'
import { run as moveIn } from './move-in.ts'
import { run as newsletter } from './newsletter.ts'
import { run as pageWeight } from './page-weight.ts'
import { run as postgresFault } from './postgres-fault.ts'
import { run as pushDelivery } from './push-delivery.ts'
import { run as scaleOut } from './scale-out.ts'
import { run as search } from './search.ts'
import { run as siteStructure } from './site-structure.ts'
import { run as ssrThroughput } from './ssr-throughput.ts'
import type { BenchResult } from './support/bench-result.ts'
import { describeInterference, watchInterference } from './support/interference.ts'
import { waitForQuiet } from './support/quiet.ts'
import { formatTable, type Row, row } from './support/report.ts'
import { prepareTarget, type Target, workingTree } from './support/target.ts'
import { run as webhooks } from './webhooks.ts'

const benches: [string, (target: Target) => Promise<BenchResult>][] = [
	['page-weight', pageWeight],
	['ssr-throughput', ssrThroughput],
	['live-fanout', liveFanout],
	['collect-ingest', collectIngest],
	['push-delivery', pushDelivery],
	['scale-out', scaleOut],
	['instance-kill', instanceKill],
	['postgres-fault', postgresFault],
	['lighthouse', lighthouse],
	['images', images],
	['site-structure', siteStructure],
	['editor-publish', editorPublish],
	['search', search],
	['newsletter', newsletter],
	['move-in', moveIn],
	['metrics', metrics],
	['webhooks', webhooks],
]

function shell(command: string, args: string[]): string {
	try {
		return execFileSync(command, args, { cwd: workingTree, encoding: 'utf8' }).trimEnd()
	} catch {
		return `(${command} unavailable)`
	}
}

const only = process.argv
	.find((arg) => arg.startsWith('--only='))
	?.slice('--only='.length)
	.split(',')
const selected = benches.filter(([name]) => !only || only.includes(name))
if (selected.length === 0) {
	console.error(
		`Nothing to run: --only takes a comma-separated list of ${benches.map(([name]) => name).join(', ')}.`,
	)
	process.exit(2)
}

const started = new Date()
// Changes to the benchmarks themselves do not change what they measure.
const changed = shell('git', ['status', '--porcelain', '--', '.', ':!bench'])
	.split('\n')
	.filter(Boolean).length
const machine = [
	`date: ${started.toISOString()}`,
	`commit: ${shell('git', ['rev-parse', '--short', 'HEAD'])}${changed > 0 ? ` plus ${changed} changed files in the working tree` : ''}`,
	`node: ${process.version}; nproc: ${shell('nproc', [])}; CPU: ${cpus()[0]?.model ?? 'unknown'}`,
	`memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB total, ${(freemem() / 2 ** 30).toFixed(1)} GiB free; load average ${loadavg()
		.map((v) => v.toFixed(2))
		.join(' ')}`,
	'free -h:',
	shell('free', ['-h']),
]
console.log(machine.join('\n'))

const rows: Row[] = []
const notes: string[] = []
let crashed = false
const target = prepareTarget((line) => {
	console.log(line)
	notes.push(line)
})
try {
	for (const [name, bench] of selected) {
		console.log(`\n== ${name}`)
		const idle = await waitForQuiet((line) => {
			console.log(line)
			notes.push(`${name}: ${line}`)
		})
		const began = performance.now()
		const window = watchInterference()
		try {
			const result = await bench(target)
			rows.push(...result.rows)
			notes.push(...result.notes.map((line) => `${name}: ${line}`))
		} catch (error) {
			crashed = true
			console.error(error)
			const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
			rows.push(
				row({ bench: name, figure: 'could not run', value: message ?? '', status: 'crashed' }),
			)
		}
		const interference = describeInterference(window.stop())
		notes.push(`${name}: over the whole benchmark, ${interference}`)
		const seconds = ((performance.now() - began) / 1000).toFixed(0)
		console.log(
			`== ${name} took ${seconds} s; ${Math.round(idle * 100)}% idle before it; ${interference}`,
		)
	}
} finally {
	target.remove()
}

const table = formatTable(rows)
console.log(`\n${table}`)
const summary = rows.filter((r) => r.status === 'met' || r.status === 'missed')
console.log(
	`\ntargets: ${summary.filter((r) => r.status === 'met').length} met, ${summary.filter((r) => r.status === 'missed').length} missed`,
)

const outDir = join(workingTree, 'bench/out')
mkdirSync(outDir, { recursive: true })
const report = join(outDir, `report-${started.toISOString().replace(/[:.]/g, '-')}.md`)
writeFileSync(
	report,
	[
		'# Benchmark run',
		'',
		'```',
		...machine,
		'```',
		'',
		table,
		'',
		'## Details',
		'',
		...notes.map((line) => `- ${line}`),
		'',
	].join('\n'),
)
console.log(`report written to ${report}`)
process.exitCode = crashed ? 1 : 0
