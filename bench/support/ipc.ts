// Request/reply over Node's IPC channel between the benchmark and the processes it drives.
// Started with serialization 'advanced', so typed arrays of timings cross as they are.
import type { ChildProcess } from 'node:child_process'
import { withDeadline } from './processes.ts'

interface Call {
	id: number
	cmd: string
	args: unknown
}

interface Reply {
	id: number
	ok: boolean
	value?: unknown
	error?: string
}

export type Handlers = Record<string, (args: never) => unknown>

/** In the child: answers the parent's calls with `handlers`. */
export function answerCalls(handlers: Handlers): void {
	process.on('message', async (message: Call) => {
		const reply: Reply = { id: message.id, ok: true }
		try {
			const handler = handlers[message.cmd] as ((args: unknown) => unknown) | undefined
			if (!handler) throw new Error(`no such command: ${message.cmd}`)
			reply.value = await handler(message.args)
		} catch (error) {
			reply.ok = false
			reply.error = error instanceof Error ? (error.stack ?? error.message) : String(error)
		}
		process.send?.(reply)
	})
	// Messages sent before a listener exists are lost: the parent waits for this first.
	process.send?.({ ready: true })
}

/** In the parent: calls into a child started with an 'ipc' stdio entry. */
export function callsTo(child: ChildProcess, name: string) {
	let nextId = 0
	const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
	const ready = new Promise<void>((resolve, reject) => {
		child.on('message', (message: { ready?: boolean }) => {
			if (message.ready) resolve()
		})
		child.once('exit', (code) =>
			reject(new Error(`${name} exited (code ${code}) before it was ready`)),
		)
	})
	ready.catch(() => {})
	child.on('message', (message: Reply) => {
		const waiting = pending.get(message.id)
		if (!waiting) return
		pending.delete(message.id)
		if (message.ok) waiting.resolve(message.value)
		else waiting.reject(new Error(`${name}: ${message.error}`))
	})
	child.once('exit', (code) => {
		for (const waiting of pending.values())
			waiting.reject(new Error(`${name} exited (code ${code})`))
		pending.clear()
	})
	return {
		ready: (timeoutMs = 60_000) => withDeadline(ready, timeoutMs, `starting ${name}`),
		call<T>(cmd: string, args: object = {}, timeoutMs = 30_000): Promise<T> {
			const id = nextId++
			const reply = new Promise<T>((resolve, reject) => {
				pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
			})
			child.send({ id, cmd, args } satisfies Call)
			return withDeadline(reply, timeoutMs, `${name} ${cmd}`).finally(() => pending.delete(id))
		},
	}
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export function clock(): number {
	return performance.timeOrigin + performance.now()
}

export interface ServerMemory {
	rss: number
	heapUsed: number
	external: number
}

/** Memory after two full collections (the process runs with --expose-gc). */
export async function settledMemory(): Promise<ServerMemory> {
	if (!globalThis.gc) throw new Error('start this process with --expose-gc')
	for (let i = 0; i < 2; i++) {
		globalThis.gc()
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
	const { rss, heapUsed, external } = process.memoryUsage()
	return { rss, heapUsed, external }
}
