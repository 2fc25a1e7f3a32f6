// The subscribers: thousands of Server-Sent Events streams on raw sockets in one process (on its
// own core), each noting when every article event arrives. Parsing is minimal on purpose, so
// the client adds as little as possible to what it measures. Driven over IPC.
import { connect, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import { answerCalls, clock } from './ipc.ts'

interface Stream {
	socket: Socket
	buffer: string
	open: boolean
	ready?: () => void
	fail?: (error: Error) => void
}

interface Arrivals {
	times: Float64Array
	count: number
}

const streams = new Set<Stream>()
const arrivals = new Map<number, Arrivals>()
let capacity = 0
let frameBytes = 0
let resets = 0
let droppedByServer = 0
let closing = false
let busySince = performance.eventLoopUtilization()

function arrived(id: number, now: number, frame: string) {
	let entry = arrivals.get(id)
	if (!entry) {
		entry = { times: new Float64Array(Math.max(capacity, 1)), count: 0 }
		arrivals.set(id, entry)
	}
	if (entry.count < entry.times.length) entry.times[entry.count] = now
	entry.count++
	// The frame as written: the chunked-encoding size line before it is not part of the event.
	if (!frameBytes) frameBytes = Buffer.byteLength(frame.slice(frame.indexOf('id: '))) + 2
}

function onData(stream: Stream, chunk: string) {
	const now = clock()
	stream.buffer += chunk
	for (let end = stream.buffer.indexOf('\n\n'); end !== -1; end = stream.buffer.indexOf('\n\n')) {
		const frame = stream.buffer.slice(0, end)
		stream.buffer = stream.buffer.slice(end + 2)
		if (frame.includes('event: article')) {
			arrived(Number(frame.match(/id: (\d+)/)?.[1]), now, frame)
		} else if (frame.includes('event: reset')) {
			resets++
		} else if (frame.includes('retry:') && !stream.open) {
			if (!frame.startsWith('HTTP/1.1 200')) {
				stream.fail?.(new Error(`stream refused: ${frame.split('\r\n')[0]}`))
				stream.socket.destroy()
				return
			}
			stream.open = true
			stream.ready?.()
		}
	}
}

function openStream(port: number, path: string, timeoutMs: number): Promise<void> {
	return new Promise((resolve, reject) => {
		const socket = connect({ host: '127.0.0.1', port, noDelay: true })
		const stream: Stream = { socket, buffer: '', open: false }
		const timer = setTimeout(() => {
			socket.destroy()
			reject(new Error(`no stream from port ${port} within ${timeoutMs} ms`))
		}, timeoutMs)
		stream.ready = () => {
			clearTimeout(timer)
			resolve()
		}
		stream.fail = (error) => {
			clearTimeout(timer)
			reject(error)
		}
		streams.add(stream)
		socket.setEncoding('utf8')
		socket.on('connect', () => {
			socket.write(
				`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`,
			)
		})
		socket.on('data', (chunk: string) => onData(stream, chunk))
		socket.on('error', (error) => stream.fail?.(error))
		socket.on('close', () => {
			if (!closing && stream.open) droppedByServer++
			streams.delete(stream)
		})
	})
}

answerCalls({
	connect: async (args: { port: number; path: string; count: number; batch: number }) => {
		closing = false
		capacity = Math.max(capacity, streams.size + args.count)
		const started = clock()
		for (let done = 0; done < args.count; done += args.batch) {
			const size = Math.min(args.batch, args.count - done)
			await Promise.all(
				Array.from({ length: size }, () => openStream(args.port, args.path, 15_000)),
			)
		}
		return { open: streams.size, ms: clock() - started }
	},
	/** Starts the window whose event-loop use `waitFor` reports: is the client the bottleneck? */
	mark: () => {
		busySince = performance.eventLoopUtilization()
		return true
	},
	/** Resolves once `count` subscribers have event `id`, or after `timeoutMs` with what came. */
	waitFor: async (args: { id: number; count: number; timeoutMs: number }) => {
		const until = clock() + args.timeoutMs
		while ((arrivals.get(args.id)?.count ?? 0) < args.count && clock() < until) {
			await new Promise((resolve) => setTimeout(resolve, 5))
		}
		// From mark() until the poll (every 5 ms) saw the last arrival.
		const busy = performance.eventLoopUtilization(busySince).utilization
		return { count: arrivals.get(args.id)?.count ?? 0, busy }
	},
	arrivals: (args: { id: number }) => {
		const entry = arrivals.get(args.id)
		return entry
			? entry.times.slice(0, Math.min(entry.count, entry.times.length))
			: new Float64Array(0)
	},
	counts: () => ({ open: streams.size, frameBytes, resets, droppedByServer }),
	clock: () => clock(),
	closeAll: () => {
		closing = true
		const count = streams.size
		for (const stream of streams) stream.socket.destroy()
		streams.clear()
		arrivals.clear()
		capacity = 0
		frameBytes = 0
		return count
	},
})
