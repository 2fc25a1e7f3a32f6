// A plain node:http server holding, in memory, a copy of one page and every file of the client
// build, gzip-compressed ahead of time like compress() would (zlib's default level, bodies of
// 1 KB and more). Anything else the page asks for (React Router's /__manifest) is fetched from
// Canopy once and then served from memory too; a POST (the page's screen view) is answered 202.
// What the same page costs with no server work.
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { extname, join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { getRaw } from './http-get.ts'

interface File {
	status: number
	type: string
	cache: string
	identity: Buffer
	gzip?: Buffer
}

const types: Record<string, string> = {
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.ico': 'image/x-icon',
	'.json': 'application/json',
	'.txt': 'text/plain; charset=utf-8',
}

function file(type: string, cache: string, identity: Buffer, status = 200): File {
	const compressible =
		/^(text\/|application\/json|image\/svg)/.test(type) && identity.length >= 1024
	return { status, type, cache, identity, gzip: compressible ? gzipSync(identity) : undefined }
}

function* walk(dir: string): Generator<string> {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name)
		if (entry.isDirectory()) yield* walk(path)
		else yield path
	}
}

export interface StaticMirror {
	url: string
	close(): Promise<void>
}

export async function startStaticMirror(options: {
	clientDir: string
	pagePath: string
	html: Buffer
	origin: string
}): Promise<StaticMirror> {
	const files = new Map<string, File>()
	for (const path of walk(options.clientDir)) {
		const url = `/${relative(options.clientDir, path).split('\\').join('/')}`
		const cache = url.startsWith('/assets/')
			? 'public, max-age=31536000, immutable'
			: 'public, max-age=3600'
		files.set(
			url,
			file(types[extname(path)] ?? 'application/octet-stream', cache, readFileSync(path)),
		)
	}
	files.set(options.pagePath, file('text/html; charset=utf-8', 'no-cache', options.html))

	const mirror = async (url: string): Promise<File> => {
		const known = files.get(url)
		if (known) return known
		const fetched = await getRaw(new URL(url, options.origin).href)
		const type = String(fetched.headers['content-type'] ?? 'application/octet-stream')
		const copy = file(type, 'no-cache', fetched.body, fetched.status)
		if (fetched.status === 200) files.set(url, copy)
		return copy
	}

	const server: Server = createServer((req, res) => {
		// The page's screen view (POST /api/collect): taken and dropped. Canopy answers it with a
		// bare 202 too, and nothing on the page waits for that answer.
		if (req.method === 'POST') {
			req.resume()
			req.on('end', () => res.writeHead(202).end())
			return
		}
		mirror(req.url ?? '/').then(
			(found) => {
				const gzip = found.gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
				const body = gzip ? (found.gzip as Buffer) : found.identity
				res.writeHead(found.status, {
					'content-type': found.type,
					'cache-control': found.cache,
					'content-length': String(body.length),
					vary: 'Accept-Encoding',
					...(gzip ? { 'content-encoding': 'gzip' } : {}),
				})
				res.end(body)
			},
			() => res.writeHead(502).end(),
		)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const address = server.address()
	const port = typeof address === 'object' && address ? address.port : 0
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections()
				server.close(() => resolve())
			}),
	}
}
