// An open-loop load generator for POST /api/collect: requests are due at an even pace (`rate` a
// second, scheduled every millisecond), whatever the server does, and each one's latency runs
// from when it was due, so a stall counts against every request it held up. autocannon's own
// pacing cannot say this: it lets each connection send its share for the second as fast as it
// can, then waits for the next second. Keep-alive connections on raw sockets, one request at a
// time on each; a request due while every connection is busy waits for one. Run as its own
// process (on its own core); one JSON line on stdout.
import { connect, type Socket } from 'node:net'
import type { CollectLoadResult } from './collect-client.ts'
import { percentile } from './report.ts'

export interface PacedLoadOptions {
	url: string
	connections: number
	/** Requests a second. */
	rate: number
	amount: number
	visitors: number
	firstVisitor: number
	body: string
	userAgent: string
}

interface Connection {
	socket: Socket
	received: string
	/** When the request in flight was due; undefined when idle. */
	due?: number
}

const options = JSON.parse(process.argv[2] ?? '{}') as PacedLoadOptions
const url = new URL(options.url)
const bodyBytes = Buffer.byteLength(options.body)
let visitor = 0
const request = () => {
	const n = options.firstVisitor + (visitor++ % options.visitors)
	return (
		`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` +
		`Content-Type: text/plain;charset=UTF-8\r\nUser-Agent: ${options.userAgent}\r\n` +
		`Origin: ${url.origin}\r\n` +
		`X-Forwarded-For: 10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}\r\n` +
		`Content-Length: ${bodyBytes}\r\n\r\n${options.body}`
	)
}

const latencies = new Float64Array(options.amount)
const statuses: Record<string, number> = {}
let answered = 0
let errors = 0
let issued = 0
const backlog: number[] = []
const idle: Connection[] = []
let start = 0
let lastAnswer = 0
let finish: () => void = () => {}

function send(connection: Connection, due: number) {
	connection.due = due
	connection.socket.write(request())
}

/** The length of the first complete response in `text`, or 0 while it is incomplete. */
function responseLength(text: string): number {
	const headEnd = text.indexOf('\r\n\r\n')
	if (headEnd === -1) return 0
	const head = text.slice(0, headEnd).toLowerCase()
	const length = /\r\ncontent-length: *(\d+)/.exec(head)
	if (length) {
		const total = headEnd + 4 + Number(length[1])
		return text.length >= total ? total : 0
	}
	if (head.includes('\r\ntransfer-encoding: chunked')) {
		const end = text.indexOf('0\r\n\r\n', headEnd + 4)
		return end === -1 ? 0 : end + 5
	}
	return headEnd + 4
}

function onData(connection: Connection, chunk: string) {
	connection.received += chunk
	for (let length = responseLength(connection.received); length > 0; ) {
		const status = connection.received.slice(9, 12)
		connection.received = connection.received.slice(length)
		const now = performance.now()
		statuses[status] = (statuses[status] ?? 0) + 1
		latencies[answered++] = now - (connection.due ?? now)
		lastAnswer = now
		connection.due = undefined
		const next = backlog.shift()
		if (next !== undefined) send(connection, next)
		else idle.push(connection)
		if (answered + errors >= options.amount) finish()
		length = responseLength(connection.received)
	}
}

function open(): Promise<Connection> {
	return new Promise((resolve, reject) => {
		const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true })
		const connection: Connection = { socket, received: '' }
		socket.setEncoding('latin1')
		socket.once('connect', () => resolve(connection))
		socket.once('error', reject)
		socket.on('data', (chunk: string) => onData(connection, chunk))
		socket.on('close', () => {
			if (connection.due !== undefined) errors++
		})
	})
}

const connections = await Promise.all(Array.from({ length: options.connections }, open))
idle.push(...connections)
await new Promise<void>((resolve) => {
	finish = resolve
	start = performance.now()
	const tick = () => {
		const now = performance.now()
		const due = Math.min(options.amount, Math.floor(((now - start) * options.rate) / 1000) + 1)
		for (; issued < due; issued++) {
			const at = start + (issued * 1000) / options.rate
			const connection = idle.pop()
			if (connection) send(connection, at)
			else backlog.push(at)
		}
		if (issued >= options.amount) clearInterval(timer)
	}
	const timer = setInterval(tick, 1)
	tick()
})
for (const connection of connections) connection.socket.destroy()

const sorted = latencies.slice(0, answered).sort()
const result: CollectLoadResult = {
	requests: answered,
	seconds: (lastAnswer - start) / 1000,
	statuses,
	p50: percentile(sorted, 50),
	p99: percentile(sorted, 99),
	max: sorted.at(-1) ?? 0,
	errors,
	timeouts: 0,
}
process.stdout.write(`${JSON.stringify(result)}\n`)
