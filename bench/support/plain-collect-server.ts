// The ingest baseline: a plain node:http server that reads each POST body to its end, discards
// it and answers 202. What Node itself costs per screen view, with no parsing, checks or storage.
import { createServer } from 'node:http'
import { serveUntilStopped } from './serve-until-stopped.ts'

const server = createServer((req, res) => {
	req.on('data', () => {})
	req.on('end', () => {
		res.writeHead(202, { 'content-length': '0' })
		res.end()
	})
})
serveUntilStopped(server)
