// Starts Canopy: validate the environment, open and migrate the database, seed a new site, put
// the parts together (compose.ts), serve, and shut down cleanly on SIGTERM.
import { createServer } from 'node:http'
import type { ServerBuild } from 'react-router'
import { warmMarkdownPool } from '#app/features/articles/markdown.server.ts'
import { createSetupLink } from '#app/features/auth/setup.server.ts'
import { loadVapidKeys } from '#app/features/push/vapid-keys.server.ts'
import { describeOpenFailure } from '#storage/open-errors.ts'
import { openStorage } from '#storage/open-storage.ts'
import { storageOutage } from '#storage/port/unavailable.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { clientBuildDir, ensureBuild, loadBuild } from './build.ts'
import { composeCanopy } from './compose.ts'
import { ConfigError, loadConfig } from './env.ts'
import { joinInstances } from './instance-agreement.ts'
import { createLogger } from './logger.ts'
import { seedIfEmpty } from './seed.ts'
import { configuredStorageRules } from './storage-rules.ts'

let config: ReturnType<typeof loadConfig>
try {
	config = loadConfig(process.env)
} catch (error) {
	if (!(error instanceof ConfigError)) throw error
	process.stderr.write(`Canopy cannot start: ${error.message}\n`)
	process.exit(1)
}

const development = process.env.NODE_ENV === 'development'
const logger = createLogger(config.logLevel)
/**
 * A database that is down or misconfigured is the operator's to fix: say so, not with a stack
 * trace. systemd starts Canopy again a few seconds later (deploy/canopy.service).
 */
function cannotOpen(error: unknown): never {
	const problem = describeOpenFailure(error, config) ?? storageOutage(error)?.message
	if (!problem) throw error
	process.stderr.write(`Canopy cannot start: ${problem}\n`)
	process.exit(1)
}

let storage: Storage
try {
	// A SQLite file held by another process (a long CLI command) makes a write wait, and with it,
	// node:sqlite being synchronous, every request: a quarter of a second, then a 503 (decision 016).
	storage = openStorage(config, configuredStorageRules(config), logger, { busyTimeoutMs: 250 })
	const applied = await storage.migrate()
	if (applied.length > 0) logger.info('database migrated', { applied, database: storage.dialect })
	// A new site's samples are rendered in a worker thread: it starts now, and loads the Markdown
	// pipeline while this thread loads the site's code below, instead of after.
	if ((await storage.articles.count()) === 0) warmMarkdownPool()
} catch (error) {
	cannotOpen(error)
}

let build: ServerBuild | (() => Promise<ServerBuild>)
let vite: import('vite').ViteDevServer | undefined
if (development) {
	const { createServer } = await import('vite')
	vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' })
	const devServer = vite
	build = () => devServer.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
} else {
	ensureBuild((msg) => logger.info(msg))
	build = await loadBuild()
}
try {
	const seeded = await seedIfEmpty(storage)
	if (seeded > 0) logger.info('sample content added', { articles: seeded })
} catch (error) {
	cannotOpen(error)
}

// Made at first start when not configured; loaded once here and handed on to composeCanopy.
const vapidKeys = await loadVapidKeys(storage, config.vapidKeys)
// Before the jobs start: an instance that must not run leaves before it takes any work.
const agreement = await joinInstances(storage, config, vapidKeys.publicKey, logger)
if (!agreement.ok) {
	process.stderr.write(`Canopy cannot start: ${agreement.problem}\n`)
	process.exit(1)
}
const leaveInstances = agreement.stop

// After the migrations: better-auth checks its tables once, when it starts.
const canopy = await composeCanopy({
	config: { ...config, vapidKeys },
	storage,
	logger,
	build,
	mode: development ? 'development' : 'production',
	clientDir: development ? undefined : clientBuildDir,
	pageCache: !development,
})
const { listener } = canopy
const setupLink = await createSetupLink(canopy.auth, config.siteUrl)
const devServer = vite
const server = createServer(
	devServer ? (req, res) => devServer.middlewares(req, res, () => listener(req, res)) : listener,
)
server.listen(config.port, config.host, () => {
	logger.info('listening', {
		url: config.siteUrl,
		host: config.host,
		port: config.port,
		database: storage.dialect,
	})
	process.stdout.write(`\nCanopy is running at ${config.siteUrl}\n\n`)
	if (setupLink) {
		logger.info('no account yet: first-admin setup link printed')
		process.stdout.write(
			`Make the first admin account (link valid for one hour):\n${setupLink}\n\n`,
		)
	}
})
server.on('error', (error: NodeJS.ErrnoException) => {
	if (error.code === 'EADDRINUSE' || error.code === 'EACCES') {
		process.stderr.write(
			`Canopy cannot start: port ${config.port} on ${config.host} is ${error.code === 'EADDRINUSE' ? 'already in use' : 'not allowed'}; stop the other program or set PORT.\n`,
		)
		process.exit(1)
	}
	throw error
})
let stopping = false
// Once stopping, every answer closes its connection. Node's server.close() closes only the
// connections idle at that moment: one busy then (a balancer's kept-alive connection, under load
// always busy) would go on carrying new requests here until it rested for the keep-alive timeout.
server.prependListener('request', (_request, response) => {
	if (stopping) response.shouldKeepAlive = false
})
async function shutdown(signal: string) {
	if (stopping) return
	stopping = true
	logger.info('shutting down', { signal })
	// Streams first (they never finish on their own), then let in-flight requests complete; each
	// connection is closed as soon as it has finished its request.
	canopy.broker.close()
	const closeRested = setInterval(() => server.closeIdleConnections(), 50)
	closeRested.unref()
	const forced = setTimeout(() => {
		logger.warn('requests still open after 10 s; closing them')
		server.closeAllConnections()
	}, 10_000)
	forced.unref()
	await new Promise<void>((resolve) => server.close(() => resolve()))
	clearInterval(closeRested)
	await vite?.close()
	// The jobs finish the step they are in; then the database can close.
	await canopy.close()
	await leaveInstances()
	await storage.close()
	logger.info('stopped')
	process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
