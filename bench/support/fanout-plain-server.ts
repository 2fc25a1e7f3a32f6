// The fan-out baseline: a plain node:http Server-Sent Events server holding every response and
// writing one event of the same size as Canopy's to all of them at T0. Nothing to read from a
// database, nothing to serialise per client: the least any Node SSE server can do.
import { createServer, type ServerResponse } from 'node:http'
import { answerCalls, clock, settledMemory } from './ipc.ts'

const open = new Set<ServerResponse>()
let frameBytes = 512
let lastId = 0

const server = createServer((req, res) => {
	if (!req.url?.startsWith('/stream')) {
		res.writeHead(404).end()
		return
	}
	res.writeHead(200, {
		'Content-Type': 'text/event-stream; charset=utf-8',
		'Cache-Control': 'no-cache, no-transform',
	})
	res.write('retry: 3000\n\n')
	open.add(res)
	res.on('close', () => open.delete(res))
})

function frame(id: number): string {
	const head = `id: ${id}\nevent: article\ndata: `
	const empty = JSON.stringify({ kind: 'added', article: { title: '' } })
	const pad = Math.max(0, frameBytes - Buffer.byteLength(head) - empty.length - 2)
	return `${head}${JSON.stringify({ kind: 'added', article: { title: 'x'.repeat(pad) } })}\n\n`
}

const port = await new Promise<number>((resolve) => {
	server.listen(0, '127.0.0.1', () => {
		const address = server.address()
		resolve(typeof address === 'object' && address ? address.port : 0)
	})
})

answerCalls({
	ready: () => ({ port, path: '/stream' }),
	size: () => open.size,
	memory: () => settledMemory(),
	clock: () => clock(),
	frameSize: (args: { bytes: number }) => {
		frameBytes = args.bytes
		return true
	},
	publish: () => {
		const id = ++lastId
		const t0 = clock()
		const text = frame(id)
		for (const res of open) res.write(text)
		return { id, t0, saveMs: 0 }
	},
	stop: () => {
		for (const res of open) res.end()
		server.close()
		setTimeout(() => process.exit(0), 20)
		return true
	},
})
