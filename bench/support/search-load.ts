// The search benchmark's readers: CLIENTS loops, each sending its next /search as soon as the
// last was answered, every request from another address (X-Forwarded-For, the server trusting
// loopback as its proxy) so the limit per address measures nothing; a warm-up, then the measured
// run. One JSON line on stdout. Run as its own process, on its own core.
import { Agent, get } from 'node:http'
import { percentile } from './report.ts'

interface Options {
	url: string
	clients: number
	warmupSeconds: number
	seconds: number
	/** More headers: a cookie that bypasses the page cache, for the article page beside. */
	headers?: Record<string, string>
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options
// Kept-alive connections, one per client, as browsers keep theirs.
const agent = new Agent({ keepAlive: true, maxSockets: options.clients })
let address = 0

async function run(seconds: number, latencies: number[] | undefined) {
	const until = performance.now() + seconds * 1000
	let failed = 0
	await Promise.all(
		Array.from({ length: options.clients }, async () => {
			while (performance.now() < until) {
				address = (address + 1) % 60_000
				const forwarded = `10.${address >> 8}.${address & 255}.1`
				const started = performance.now()
				const status = await new Promise<number>((resolve, reject) => {
					get(
						options.url,
						{ agent, headers: { ...options.headers, 'x-forwarded-for': forwarded } },
						(answer) => {
							answer.resume()
							answer.on('end', () => resolve(answer.statusCode ?? 0))
							answer.on('error', reject)
						},
					).on('error', reject)
				})
				if (status !== 200) failed++
				latencies?.push(performance.now() - started)
			}
		}),
	)
	return failed
}

await run(options.warmupSeconds, undefined)
const latencies: number[] = []
const started = performance.now()
const failed = await run(options.seconds, latencies)
const elapsed = (performance.now() - started) / 1000
latencies.sort((a, b) => a - b)
const at = (p: number) => percentile(latencies, p)
process.stdout.write(
	`${JSON.stringify({ requests: latencies.length, perSecond: latencies.length / elapsed, p50: at(50), p99: at(99), failed })}\n`,
)
agent.destroy()
