// How the bench's own servers (the plain baselines, the minimal React Router app) run: on a free
// loopback port printed as "listening on <port>" for the bench to read, keep-alive as Canopy's,
// and closed with their connections on SIGTERM.
import type { Server } from 'node:http'

export function serveUntilStopped(server: Server): void {
	server.keepAliveTimeout = 5_000
	server.listen(0, '127.0.0.1', () => {
		const address = server.address()
		process.stdout.write(
			`listening on ${typeof address === 'object' && address ? address.port : 0}\n`,
		)
	})
	process.on('SIGTERM', () => {
		server.close()
		server.closeAllConnections()
	})
}
