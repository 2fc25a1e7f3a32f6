// The ingest baseline: a plain node:http server that reads each POST body to its end, discards
// it and answers 202. What Node itself costs per screen view, with no parsing, checks or storage.
import { createServer } from 'node:http'

const server = createServer((req, res) => {
	req.on('data', () => {})
	req.on('end', () => {
		res.writeHead(202, { 'content-length': '0' })
		res.end()
	})
})
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
