// Serves the minimal app's build (argv[2]) the way Canopy serves its own: Hono on
// @hono/node-server, React Router's request handler, production builds.

import { createServer } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { getRequestListener } from '@hono/node-server'
import { Hono } from 'hono'
import { createRequestHandler, type ServerBuild } from 'react-router'
import { serveUntilStopped } from '../support/serve-until-stopped.ts'

const build = (await import(
	pathToFileURL(join(process.argv[2] ?? '', 'server/index.js')).href
)) as ServerBuild
const handler = createRequestHandler(build, 'production')
const app = new Hono()
app.all('*', (c) => handler(c.req.raw))
const server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: true }))
serveUntilStopped(server)
