// A response that starts while the request's body is still arriving refuses that body: a 413 for
// a body over its cap (server/app.ts), a 403 for a cross-site write, a 404 under /api. The rest of
// the body is still on its way, so the connection cannot carry another request: the answer says
// `Connection: close` (RFC 9110 §15.5.14), so a proxy never reuses the connection.
//
// Closing it is the delicate part. Node closes such a socket as soon as the response is written,
// and @hono/node-server, for a keep-alive answer, reads the body for 500 ms and then does the
// same. Either way the bytes the client is still sending reach a closed socket, which the kernel
// answers with a reset: nginx, still sending the body, reports "upstream prematurely closed
// connection" (or a reset) and answers 502 instead of the 413, and counts the instance as failed.
// So the close is staged, as RFC 9112 §9.6 asks: the write side is shut after the response (the
// client reads it, then end of stream), what the client still sends is read and thrown away, and
// the socket closes when the client closes its side, or after a bound of time or bytes.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

export interface LingerLimits {
	/** How long the rest of a refused body is read and thrown away, at most. */
	timeoutMs: number
	/** How many bytes of it, at most (a client sending more is cut off). */
	maxBytes: number
}

/**
 * Long enough for a proxy on the same network to finish sending any body it accepted (nginx
 * refuses above 6 MB, deploy/nginx-canopy.conf) at a fraction of its usual speed.
 */
export const lingerLimits: LingerLimits = { timeoutMs: 10_000, maxBytes: 64 * 1024 * 1024 }

const lingering = new WeakSet<Socket>()

/**
 * True once the socket has answered a request whose body it refused: anything the client sends
 * after that is the rest of that body, never a request to run.
 */
export function isLingering(socket: Socket): boolean {
	return lingering.has(socket)
}

/**
 * Makes `res`, should it start before `req`'s body has fully arrived, close its connection
 * cleanly once written (see above). Called for every request, before anything answers it.
 */
export function closeIfBodyRefused(
	req: IncomingMessage,
	res: ServerResponse,
	limits: LingerLimits = lingerLimits,
): void {
	const declaresBody =
		req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0
	if (!declaresBody || req.complete) return
	const writeHead = res.writeHead
	res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
		if (!req.complete && !this.headersSent) {
			this.setHeader('Connection', 'close')
			lingerOnClose(req, limits)
		}
		return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, args)
	} as ServerResponse['writeHead']
}

function lingerOnClose(req: IncomingMessage, limits: LingerLimits): void {
	const socket = req.socket
	if (lingering.has(socket)) return
	lingering.add(socket)
	// Node calls destroySoon once a `Connection: close` response is written; so does
	// @hono/node-server when its own read of the body times out.
	socket.destroySoon = () => linger(req, limits)
}

function linger(req: IncomingMessage, limits: LingerLimits): void {
	const socket = req.socket
	if (socket.destroyed || socket.writableEnded) return
	socket.end()
	const started = Date.now()
	const startBytes = socket.bytesRead
	// Node's request parser keeps reading the socket and discards the body (the request was
	// answered); this only bounds how long and how much.
	const check = setInterval(() => {
		if (Date.now() - started > limits.timeoutMs || socket.bytesRead - startBytes > limits.maxBytes)
			socket.destroy()
	}, 100)
	check.unref()
	// Whatever the app left reading the body (a stream that stops at its high-water mark) no
	// longer gets it: the rest flows and is thrown away.
	req.removeAllListeners('data')
	// The client has closed its side: close once the response has left (it has, unless the client
	// stopped reading).
	socket.once('end', () =>
		socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()),
	)
	socket.once('close', () => clearInterval(check))
	req.resume()
}
