// Publish-to-visible across instances, measured in one process on one clock: it holds the live
// streams of both instances, publishes through instance A's admin API at a steady pace, and
// notes for every stream when the article arrives, from the moment the POST was sent. Nothing
// crosses processes between the two timestamps, so no clock offset enters the figures.
// Driven over IPC by bench/scale-out.ts.
import { Agent, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import { answerCalls } from './ipc.ts'

type Group = 'a' | 'b'

interface Stream {
	group: Group
	socket: Socket
	buffer: string
	open: boolean
}

interface Sent {
	t0: number
	arrivals: Record<Group, number[]>
}

const streams = new Set<Stream>()
const sent = new Map<number, Sent>()
const slugPrefix = `bench-scale-${process.pid}-`
const slugPattern = new RegExp(`"slug":"${slugPrefix}(\\d+)"`)
let droppedByServer = 0
let closing = false

function onData(stream: Stream, chunk: string) {
	// First, before any parsing: the stamp then holds only what came before this callback.
	const now = performance.now()
	stream.buffer += chunk
	for (let end = stream.buffer.indexOf('\n\n'); end !== -1; end = stream.buffer.indexOf('\n\n')) {
		const frame = stream.buffer.slice(0, end)
		stream.buffer = stream.buffer.slice(end + 2)
		if (frame.includes('event: article')) {
			const index = Number(frame.match(slugPattern)?.[1] ?? Number.NaN)
			sent.get(index)?.arrivals[stream.group].push(now)
		} else if (!stream.open && frame.includes('retry:')) {
			stream.open = frame.startsWith('HTTP/1.1 200')
		}
	}
}

function openStream(group: Group, port: number, timeoutMs: number): Promise<void> {
	return new Promise((resolve, reject) => {
		const socket = connect({ host: '127.0.0.1', port, noDelay: true })
		const stream: Stream = { group, socket, buffer: '', open: false }
		streams.add(stream)
		const timer = setTimeout(() => {
			socket.destroy()
			reject(new Error(`no live stream from port ${port} within ${timeoutMs} ms`))
		}, timeoutMs)
		socket.setEncoding('utf8')
		socket.on('connect', () =>
			socket.write(
				`GET /api/articles/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`,
			),
		)
		socket.on('data', (chunk: string) => {
			const wasOpen = stream.open
			onData(stream, chunk)
			if (!wasOpen && stream.open) {
				clearTimeout(timer)
				resolve()
			}
		})
		socket.on('error', (error) => {
			clearTimeout(timer)
			reject(error)
		})
		socket.on('close', () => {
			if (!closing && stream.open) droppedByServer++
			streams.delete(stream)
		})
	})
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

function post(port: number, key: string, body: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = request(
			{
				host: '127.0.0.1',
				port,
				method: 'POST',
				path: '/api/admin/articles',
				agent,
				headers: {
					Authorization: `Bearer ${key}`,
					'Content-Type': 'application/json',
					'Content-Length': Buffer.byteLength(body),
				},
				timeout: 10_000,
			},
			(res) => {
				let text = ''
				res.setEncoding('utf8')
				res.on('data', (chunk: string) => {
					text += chunk
				})
				res.on('end', () =>
					res.statusCode === 201
						? resolve(performance.now())
						: reject(new Error(`the publish answered ${res.statusCode}: ${text.slice(0, 300)}`)),
				)
			},
		)
		req.on('timeout', () => req.destroy(new Error('the publish took longer than 10 s')))
		req.on('error', reject)
		req.end(body)
	})
}

const articleBody = Array.from(
	{ length: 6 },
	(_, i) =>
		`Paragraph ${i + 1}. Restoring wetlands stores carbon, holds back floods and gives birds a place to rest. ` +
		'Communities that look after them see cleaner water and more fish, and the work pays for itself within years.',
).join('\n\n')

function articleJson(index: number): string {
	return JSON.stringify({
		title: `Wetlands are carbon stores, report ${index}`,
		slug: `${slugPrefix}${index}`,
		summary:
			'A new survey counts what restored wetlands give back: carbon, clean water, fewer floods.',
		body: articleBody,
		tags: ['wetlands', 'climate'],
		status: 'published',
	})
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function expected(group: Group): number {
	let n = 0
	for (const stream of streams) if (stream.group === group && stream.open) n++
	return n
}

function complete(entry: Sent, counts: Record<Group, number>): boolean {
	return entry.arrivals.a.length >= counts.a && entry.arrivals.b.length >= counts.b
}

function middle(values: number[]): number | undefined {
	return [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]
}

interface PublishArgs {
	port: number
	key: string
	first: number
	count: number
	intervalMs: number
}

async function publishAll(args: PublishArgs) {
	const counts = { a: expected('a'), b: expected('b') }
	const answered: number[] = []
	const started = performance.now()
	const busy = performance.eventLoopUtilization()
	for (let i = 0; i < args.count; i++) {
		const index = args.first + i
		const due = started + i * args.intervalMs
		const wait = due - performance.now()
		if (wait > 0) await sleep(wait)
		const body = articleJson(index)
		const entry: Sent = { t0: performance.now(), arrivals: { a: [], b: [] } }
		sent.set(index, entry)
		answered.push((await post(args.port, args.key, body)) - entry.t0)
	}
	const until = performance.now() + 5_000
	const indexes = Array.from({ length: args.count }, (_, i) => args.first + i)
	while (performance.now() < until) {
		if (indexes.every((index) => complete(sent.get(index) as Sent, counts))) break
		await sleep(10)
	}
	const utilisation = performance.eventLoopUtilization(busy).utilization
	const result = {
		a: [] as number[],
		b: [] as number[],
		lost: { a: 0, b: 0 },
		/** Per publish: from the first of a group's streams to have it to the last. */
		spread: { a: [] as number[], b: [] as number[] },
		/** Per publish: B's median arrival minus A's, what B adds with the shared noise taken out. */
		paired: [] as number[],
		answered: Float64Array.from(answered),
		streams: counts,
		busy: utilisation,
		dropped: droppedByServer,
	}
	for (const index of indexes) {
		const entry = sent.get(index) as Sent
		for (const group of ['a', 'b'] as const) {
			const times = entry.arrivals[group]
			for (const at of times) result[group].push(at - entry.t0)
			result.lost[group] += Math.max(0, counts[group] - times.length)
			if (times.length > 0) result.spread[group].push(Math.max(...times) - Math.min(...times))
		}
		const [a, b] = [middle(entry.arrivals.a), middle(entry.arrivals.b)]
		if (a !== undefined && b !== undefined) result.paired.push(b - a)
		sent.delete(index)
	}
	return {
		...result,
		a: Float64Array.from(result.a),
		b: Float64Array.from(result.b),
		paired: Float64Array.from(result.paired),
	}
}

answerCalls({
	connect: async (args: { group: Group; port: number; count: number }) => {
		closing = false
		await Promise.all(
			Array.from({ length: args.count }, () => openStream(args.group, args.port, 15_000)),
		)
		return expected(args.group)
	},
	publish: (args: PublishArgs) => publishAll(args),
	closeAll: () => {
		closing = true
		for (const stream of streams) stream.socket.destroy()
		streams.clear()
		agent.destroy()
		return true
	},
})
