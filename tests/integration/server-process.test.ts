// The server and CLI as an operator runs them.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, get, type IncomingMessage, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { authSecret, openAuth } from '#app/features/auth/auth.server.ts'
import { createLogger } from '#server/logger.ts'
import { storageRules } from '#server/storage-rules.ts'
import { loadMigrations } from '#storage/migrations.ts'
import { openSqliteStorage } from '#storage/sqlite/open-sqlite.ts'
import { articleFile } from '#tests/fixtures/factories.ts'
import { freePort, runCli, startServer } from '#tests/fixtures/process.ts'

const execFileAsync = promisify(execFile)

/** A GET through `agent`, read to its end. */
function send(agent: Agent, url: string): Promise<IncomingMessage> {
	return new Promise((resolve, reject) => {
		get(url, { agent }, (response) => {
			response.resume()
			response.on('end', () => resolve(response))
		}).on('error', reject)
	})
}

describe('the server process', () => {
	let dataDir: string
	let env: Record<string, string>

	beforeEach(() => {
		dataDir = mkdtempSync(join(tmpdir(), 'canopy-process-'))
		env = { DATA_DIR: dataDir, DATABASE_URL: '' }
	})
	afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

	it('refuses an invalid variable with one line naming it', async () => {
		const failure = await execFileAsync(process.execPath, ['server/index.ts'], {
			env: { ...process.env, ...env, PORT: 'eighty' },
		}).catch((error: { code: number; stderr: string }) => error)
		expect('code' in failure && failure.code).toBe(1)
		expect(failure.stderr).toBe(
			'Canopy cannot start: PORT must be a whole number from 1 to 65535 (got "eighty").\n',
		)
	})

	it('starts as npm start does (no NODE_ENV) with sample content, serves pages, then stops cleanly on SIGTERM with a stream open', async () => {
		// Without NODE_ENV, as the README's `npm start` runs it: React's production build must be
		// the one every module gets (a development React beside a production React DOM answers 500).
		const server = await startServer({ ...env, NODE_ENV: undefined }, await freePort())
		expect(server.output()).toContain(`Canopy is running at ${server.url}`)
		expect(server.output()).toContain('"msg":"sample content added","articles":6')
		expect(server.output()).toMatch(
			new RegExp(
				`Make the first admin account \\(link valid for one hour\\):\\n${server.url}/admin/setup\\?token=[\\w-]{43}\\n`,
			),
		)
		const home = await fetch(`${server.url}/home`)
		expect(home.status).toBe(200)
		expect(await home.text()).toContain('Latest articles')
		const article = await fetch(`${server.url}/articles/the-living-ground`)
		expect(article.status).toBe(200)
		expect(server.output()).not.toContain('"level":"error"')

		const stream = await fetch(`${server.url}/api/articles/stream`)
		const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
		await reader.read()
		server.child.kill('SIGTERM')
		// The stream is closed by the server, not left hanging, and the process exits 0.
		for (;;) if ((await reader.read()).done) break
		expect(await server.exited).toBe(0)
		expect(server.output()).toContain('"msg":"stopped"')
	})

	it('as it stops, answers what is in flight and closes kept-alive connections after it', async () => {
		const server = await startServer(env, await freePort())
		try {
			const agent = new Agent({ keepAlive: true, maxSockets: 1 })
			const first = await send(agent, `${server.url}/home`)
			expect(first.headers.connection).toBe('keep-alive')

			// A request on the kept connection, its body still coming when the server is told to stop.
			const body = JSON.stringify({
				path: '/articles',
				referrer: '',
				language: 'en',
				screen: 'desktop',
			})
			const inFlight = request(`${server.url}/api/collect`, {
				agent,
				method: 'POST',
				headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
			})
			const answered = new Promise<IncomingMessage>((resolve, reject) => {
				inFlight.on('response', resolve).on('error', reject)
			})
			inFlight.write(body.slice(0, 10))
			await new Promise((resolve) => setTimeout(resolve, 200))
			const stopAsked = Date.now()
			server.child.kill('SIGTERM')
			await expect.poll(() => server.output()).toContain('"msg":"shutting down"')
			inFlight.end(body.slice(10))
			const last = await answered
			last.resume()
			expect(inFlight.reusedSocket, 'the same kept-alive connection').toBe(true)
			expect(last.statusCode).toBeLessThan(500)
			// A load balancer reading this sends its next request elsewhere, not to a stopping instance,
			// and the instance does not wait on an idle client before it exits.
			expect(last.headers.connection).toBe('close')
			expect(await server.exited).toBe(0)
			expect(Date.now() - stopAsked).toBeLessThan(3_000)
			agent.destroy()
		} finally {
			if (server.child.exitCode === null) server.child.kill('SIGKILL')
		}
	})

	it('keeps an acknowledged publication through a crash of the server', async () => {
		const port = await freePort()
		const first = await startServer(env, port)
		const file = join(dataDir, 'crash.md')
		writeFileSync(file, articleFile({ title: 'Survives a crash', slug: 'survives-a-crash' }))
		const published = await runCli(['article:publish', file], env)
		expect(published).toMatchObject({
			code: 0,
			stdout: expect.stringContaining('Published: "Survives a crash"'),
		})
		first.child.kill('SIGKILL')
		await first.exited
		const second = await startServer(env, port)
		try {
			expect((await fetch(`${second.url}/articles/survives-a-crash`)).status).toBe(200)
			expect(second.output()).not.toContain('sample content added')
		} finally {
			second.child.kill('SIGTERM')
			await second.exited
		}
	})
})

// Each test runs the CLI as a process several times: about 1 s each on a quiet machine, five times
// that when the suite's other files keep both cores busy.
describe('the CLI', { timeout: 60_000 }, () => {
	const dataDir = mkdtempSync(join(tmpdir(), 'canopy-cli-'))
	const env = { DATA_DIR: dataDir, DATABASE_URL: '' }

	it('migrates, and explains what it cannot do', async () => {
		expect(await runCli(['db:migrate'], env)).toMatchObject({
			code: 0,
			stdout: `Applied ${loadMigrations('sqlite')
				.map((migration) => migration.name)
				.join(', ')}.\n`,
		})
		expect(await runCli(['db:migrate'], env)).toMatchObject({
			code: 0,
			stdout: 'The database is up to date.\n',
		})
		expect(await runCli(['article:unpublish', 'nope'], env)).toMatchObject({
			code: 1,
			stderr: 'There is no article with the slug "nope".\n',
		})
		expect(await runCli(['article:publish', join(dataDir, 'missing.md')], env)).toMatchObject({
			code: 1,
		})
		expect((await runCli(['fly'], env)).stderr).toContain('Unknown command "fly"')
	})

	it('creates accounts that can sign in, with a piped or a generated password', async () => {
		const piped = await runCli(
			['user:create', '--email', 'Ana@Example.org', '--role', 'editor', '--name', 'Ana Costa'],
			env,
			'kelp forest canopy 9\n',
		)
		expect(piped).toMatchObject({ code: 0, stdout: 'Created editor ana@example.org.\n' })
		const generated = await runCli(
			['user:create', '--email', 'root@example.org', '--role', 'admin'],
			env,
		)
		expect(generated.code).toBe(0)
		// No --name: the address's first part, said, since readers will see it.
		expect(generated.stdout).toContain('Name: "root", from the address')
		const password =
			/Password \(shown once; keep it somewhere safe\): (\S+)\n$/.exec(generated.stdout)?.[1] ?? ''
		expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/)

		const refused = await runCli(
			['user:create', '--email', 'bad', '--role', 'owner'],
			env,
			'password1',
		)
		expect(refused.code).toBe(1)
		expect(refused.stderr).toBe(
			'The account was not created:\n  email: Enter an email address like name@example.org.\n  role: The role must be admin or editor.\n  password: This is one of the most common passwords, so it is easy to guess. Choose another.\n',
		)
		expect(
			(await runCli(['user:create', '--email', 'ana@example.org', '--role', 'admin'], env)).stderr,
		).toContain('There is already an account with this email address.')

		const storage = openSqliteStorage(join(dataDir, 'canopy.db'), { rules: storageRules })
		try {
			const auth = await openAuth({
				storage,
				database: storage.authDatabase,
				siteUrl: 'http://canopy.test',
				secret: await authSecret(storage),
				logger: createLogger('silent'),
			})
			for (const [email, secret, role] of [
				['ana@example.org', 'kelp forest canopy 9', 'editor'],
				['root@example.org', password, 'admin'],
			]) {
				const signedIn = await auth.api.signInEmail({
					body: { email: email ?? '', password: secret ?? '' },
				})
				expect(signedIn.user).toMatchObject({ email, role })
			}
		} finally {
			await storage.close()
		}
	})

	it('shows and sets how long contact messages are kept, refusing what is not a number of days', async () => {
		expect((await runCli(['contact:retention'], env)).stdout).toBe(
			'Contact messages are kept for 365 days.\n',
		)
		expect(await runCli(['contact:retention', 'a year'], env)).toMatchObject({
			code: 1,
			stderr: expect.stringContaining('whole number of days from 1 to 36500 (got "a year")'),
		})
		expect((await runCli(['contact:retention', '90'], env)).stdout).toContain(
			'now kept for 90 days',
		)
		expect((await runCli(['contact:retention'], env)).stdout).toBe(
			'Contact messages are kept for 90 days.\n',
		)
	})

	it('publishes, reports field errors, and unpublishes', async () => {
		const bad = join(dataDir, 'bad.md')
		writeFileSync(bad, '---\ntitle: ""\ncover: "https://img.example/a.jpg"\n---\n')
		const refused = await runCli(['article:publish', bad], env)
		expect(refused.code).toBe(1)
		expect(refused.stderr).toContain('title: Give the article a title.')
		expect(refused.stderr).toContain('body: The article has no text.')

		const good = join(dataDir, 'good.md')
		writeFileSync(good, articleFile({ title: 'Peatlands', slug: 'peatlands' }))
		expect((await runCli(['article:publish', good], env)).stdout).toMatch(
			/^Published: "Peatlands" at \/articles\/peatlands \(change \d+, added\)/,
		)
		expect((await runCli(['article:publish', good], env)).stdout).toContain(', modified)')
		expect((await runCli(['article:unpublish', 'peatlands'], env)).stdout).toMatch(
			/^Unpublished \/articles\/peatlands/,
		)
		expect((await runCli(['article:unpublish', 'peatlands'], env)).stdout).toBe(
			'/articles/peatlands was not published.\n',
		)
		rmSync(dataDir, { recursive: true, force: true })
	})
})
