// Runs the production server the way an operator does (node server/index.ts on a built site),
// each on its own port, temp DATA_DIR and fresh database (a SQLite file in that folder, or a
// PostgreSQL schema of its own), so a spec can stop and restart it while a page is open.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { E2eDatabase } from './databases.ts'

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

const readyLine = 'Canopy is running at '
const startTimeoutMs = 20_000
const stopTimeoutMs = 15_000

export interface CanopyServer {
	readonly url: string
	readonly port: number
	readonly dataDir: string
	readonly database: E2eDatabase
	/** DATA_DIR and DATABASE_URL: what points a process (the server, the CLI) at this site. */
	readonly env: Record<string, string>
	/**
	 * Runs `use` with a handle on the server's database, opened from this process and closed
	 * after: tests write and read through the Storage port, as the server does, on either database.
	 */
	withStorage<T>(use: (storage: Storage) => Promise<T>): Promise<T>
	/** SIGTERM, then wait until the process has exited (it closes its streams and database first). */
	stop(): Promise<void>
	/** Starts it again on the same port and data dir. */
	start(): Promise<void>
	/** Stops it and deletes its data dir and its database. */
	dispose(): Promise<void>
	/** What the process wrote, for failure messages. */
	output(): string
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer()
		probe.unref()
		probe.on('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address()
			const port = typeof address === 'object' && address ? address.port : 0
			probe.close(() => (port ? resolve(port) : reject(new Error('No free port was found.'))))
		})
	})
}

/** A fresh, empty database of that kind; whoever made it drops it (a server: in its dispose()). */
export function createDatabase(database: E2eDatabase): Promise<TestDatabase> {
	return database === 'postgres' ? postgresDatabase() : Promise.resolve(sqliteDatabase())
}

/** The servers' CONTACT_FORM_MIN_SECONDS: a second (3 by default) keeps the contact specs quick. */
export const contactFormMinSeconds = 1

function serverEnv(site: Record<string, string>, port?: number): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		// The CLI must find the same database and nothing else from the parent's environment.
		DATABASE_URL: '',
		// A spec may ask for its own (serveCanopy's env).
		CONTACT_FORM_MIN_SECONDS: String(contactFormMinSeconds),
		...site,
		LOG_LEVEL: 'warn',
		NODE_ENV: 'production',
	}
	if (port !== undefined) {
		Object.assign(env, {
			PORT: String(port),
			HOST: '127.0.0.1',
			SITE_URL: `http://127.0.0.1:${port}`,
		})
	}
	return env
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
	return new Promise((resolve) => {
		const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
		child.once('exit', () => {
			clearTimeout(kill)
			resolve()
		})
	})
}

// A worker that dies mid-test (Ctrl-C, a crash) must not leave servers listening behind it.
const running = new Set<ChildProcess>()
process.once('exit', () => {
	for (const child of running) child.kill('SIGKILL')
})

export async function startServer(
	options: {
		database?: E2eDatabase
		/** More environment for the server (SMTP_URL of a local mail server). */
		env?: Record<string, string>
	} = {},
): Promise<CanopyServer> {
	const database = options.database ?? 'sqlite'
	const port = await freePort()
	const made = await createDatabase(database)
	// SQLite's database is the canopy.db in DATA_DIR; PostgreSQL's server needs a DATA_DIR too.
	const dataDir = made.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'canopy-e2e-'))
	const env = { DATA_DIR: dataDir, DATABASE_URL: made.env.DATABASE_URL ?? '' }
	const url = `http://127.0.0.1:${port}`
	let child: ChildProcess | undefined
	let log = ''

	const start = () =>
		new Promise<void>((resolve, reject) => {
			if (child) throw new Error(`The server on port ${port} is already running.`)
			const proc = spawn(process.execPath, ['server/index.ts'], {
				cwd: projectRoot,
				env: { ...serverEnv(env, port), ...options.env },
				stdio: ['ignore', 'pipe', 'pipe'],
			})
			child = proc
			running.add(proc)
			proc.once('exit', () => {
				running.delete(proc)
				if (child === proc) child = undefined
			})
			let stdout = ''
			const timer = setTimeout(() => {
				proc.kill('SIGKILL')
				reject(new Error(`The server did not start within ${startTimeoutMs} ms:\n${log}`))
			}, startTimeoutMs)
			const onExit = (code: number | null, signal: string | null) => {
				clearTimeout(timer)
				reject(
					new Error(
						`The server exited before it was ready (code ${code}, signal ${signal}):\n${log}`,
					),
				)
			}
			proc.once('exit', onExit)
			proc.stderr?.on('data', (chunk: Buffer) => {
				log += chunk.toString()
			})
			proc.stdout?.on('data', (chunk: Buffer) => {
				const text = chunk.toString()
				log += text
				if (!stdout.includes(readyLine)) {
					stdout += text
					if (stdout.includes(readyLine)) {
						clearTimeout(timer)
						proc.off('exit', onExit)
						resolve()
					}
				}
			})
		})

	const stop = async () => {
		const proc = child
		if (!proc) return
		child = undefined
		const exited = waitForExit(proc, stopTimeoutMs)
		proc.kill('SIGTERM')
		await exited
	}

	try {
		await start()
		// A run on PostgreSQL that quietly fell back to SQLite would prove nothing.
		if (database === 'postgres' && existsSync(join(dataDir, 'canopy.db')))
			throw new Error(`The server opened a SQLite file instead of its PostgreSQL schema:\n${log}`)
	} catch (error) {
		await stop()
		await made.drop()
		rmSync(dataDir, { recursive: true, force: true })
		throw error
	}
	return {
		url,
		port,
		dataDir,
		database,
		env,
		async withStorage(use) {
			const storage = made.open()
			try {
				return await use(storage)
			} finally {
				await storage.close()
			}
		},
		start,
		stop,
		async dispose() {
			await stop()
			await made.drop()
			rmSync(dataDir, { recursive: true, force: true })
		},
		output: () => log,
	}
}

export interface CliResult {
	code: number | null
	stdout: string
	stderr: string
	/** Date.now() when the process exited: the moment the write is certainly on disk. */
	exitedAt: number
}

/** Runs `node server/cli.ts <args>` against a server's database, as an editor would from a shell. */
export function runCli(server: Pick<CanopyServer, 'env'>, args: string[]): Promise<CliResult> {
	return new Promise((resolve, reject) => {
		const proc = spawn(process.execPath, ['server/cli.ts', ...args], {
			cwd: projectRoot,
			env: serverEnv(server.env),
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		let stdout = ''
		let stderr = ''
		proc.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString()
		})
		proc.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString()
		})
		let exitedAt = 0
		proc.on('error', reject)
		proc.on('exit', () => {
			exitedAt = Date.now()
		})
		// 'close' comes after 'exit' once the output pipes are drained.
		proc.on('close', (code) => resolve({ code, stdout, stderr, exitedAt: exitedAt || Date.now() }))
	})
}

export interface ArticleFile {
	title: string
	slug: string
	summary?: string
	body?: string
	/** ["testing"] unless given. */
	tags?: string[]
	/** A language tag; the site's unless given. */
	language?: string
	/** The address of the article this one translates. */
	translationOf?: string
}

/** Writes an article as a Markdown file with front matter, the format article:publish reads. */
export function writeArticleFile(article: ArticleFile): string {
	const dir = mkdtempSync(join(tmpdir(), 'canopy-article-'))
	const file = join(dir, `${article.slug}.md`)
	const frontMatter = [
		'---',
		`title: ${JSON.stringify(article.title)}`,
		`slug: ${JSON.stringify(article.slug)}`,
		`summary: ${JSON.stringify(article.summary ?? `A test article: ${article.title}.`)}`,
		'author: "E2E Test"',
		`tags: ${JSON.stringify(article.tags ?? ['testing'])}`,
		'---',
	]
	writeFileSync(
		file,
		`${frontMatter.join('\n')}\n\n${article.body ?? 'A short body written by the browser tests.'}\n`,
	)
	return file
}

export async function publishArticle(
	server: Pick<CanopyServer, 'env'>,
	article: ArticleFile,
): Promise<CliResult> {
	const file = writeArticleFile(article)
	try {
		return await runCli(server, ['article:publish', file])
	} finally {
		rmSync(join(file, '..'), { recursive: true, force: true })
	}
}

/**
 * Publishes articles through the Storage port with the function `article:publish` calls, for a
 * spec whose subject is not the CLI: one database handle for all of them instead of a process
 * each (about half a second of CPU apiece).
 */
export async function publishArticles(server: CanopyServer, articles: ArticleFile[]) {
	const { saveArticle } = await import('#app/features/articles/articles.server.ts')
	await server.withStorage(async (storage) => {
		for (const article of articles) {
			const saved = await saveArticle(
				storage,
				{
					title: article.title,
					// Empty: made from the title.
					slug: article.slug || undefined,
					summary: article.summary ?? `A test article: ${article.title}.`,
					author: 'E2E Test',
					tags: article.tags ?? ['testing'],
					body: article.body ?? 'A short body written by the browser tests.',
					language: article.language,
					translationOf: article.translationOf,
				},
				'published',
			)
			if (!saved.ok)
				throw new Error(`${article.slug} was not saved: ${JSON.stringify(saved.errors)}`)
		}
	})
}

export function unpublishArticle(
	server: Pick<CanopyServer, 'env'>,
	slug: string,
): Promise<CliResult> {
	return runCli(server, ['article:unpublish', slug])
}
