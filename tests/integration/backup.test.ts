// `npm run cli -- backup` as an operator runs it beside a serving site: on SQLite a copy made
// while contact messages are being written, which opens, is whole, and holds every message
// acknowledged before the backup began; on PostgreSQL, the way to do it with pg_dump.
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { contactFields, postContactJson } from '#tests/fixtures/contact.ts'
import { freePort, runCli, startServer } from '#tests/fixtures/process.ts'
import { databases, postgresDatabase } from '#tests/fixtures/storage.ts'

/** Requests in flight at once, as visitors would send them. */
const inFlight = 6
/**
 * Forms to send: at the pace below (at most 120 a second), enough to go on well past a backup
 * that takes 5 s on a busy machine. Each is fetched first, so more would cost the run time.
 */
const submissions = 1_200
const pauseMs = 50

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('backup on SQLite', () => {
	let dataDir: string
	let env: Record<string, string>

	beforeEach(() => {
		dataDir = mkdtempSync(join(tmpdir(), 'canopy-backup-'))
		// No minimum time: none of the messages is to be taken for a robot's.
		env = {
			DATA_DIR: dataDir,
			DATABASE_URL: '',
			TRUST_PROXY: '127.0.0.1',
			LOG_LEVEL: 'warn',
			CONTACT_FORM_MIN_SECONDS: '0',
		}
	})
	afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

	it('copies the database while messages are written: whole, and with every one acknowledged before it', async () => {
		const server = await startServer(env, await freePort())
		try {
			const forms: Record<string, string>[] = []
			const fetchForms = async () => {
				while (forms.length < submissions)
					forms.push(
						(await (await fetch(`${server.url}/api/contact`)).json()) as Record<string, string>,
					)
			}
			await Promise.all(Array.from({ length: inFlight }, fetchForms))

			const acknowledged: string[] = []
			let next = 0
			let stop = false
			const sender = async () => {
				while (!stop && next < forms.length) {
					const index = next++
					const form = forms[index] as Record<string, string>
					const response = await postContactJson(
						server.url,
						{ ...contactFields, subject: `Backup ${index}`, ...form },
						{ 'X-Forwarded-For': `10.8.${index >> 8}.${index & 255}` },
					)
					if (response.status === 201) acknowledged.push(form.idempotencyKey as string)
					await response.body?.cancel()
					await sleep(pauseMs)
				}
			}
			const sending = Promise.all(Array.from({ length: inFlight }, sender))
			while (acknowledged.length < 40) await sleep(10)

			const file = join(dataDir, 'copies', 'during-writes.db')
			const before = [...acknowledged]
			const backup = await runCli(['backup', file], env)
			const during = acknowledged.length - before.length
			// Writes go on after it too: the backup ran in the middle of them.
			const atEnd = acknowledged.length
			while (acknowledged.length < atEnd + 20 && next < forms.length) await sleep(10)
			stop = true
			await sending
			expect(acknowledged.length).toBeGreaterThanOrEqual(atEnd + 20)

			expect(backup.stderr).toBe('')
			expect(backup.stdout).toMatch(
				new RegExp(
					`^Backed up the database to ${file} \\(\\d+\\.\\d MB\\)\\. To restore it, stop Canopy, move canopy\\.db, canopy\\.db-wal and canopy\\.db-shm out of ${dataDir}, and copy the backup there as canopy\\.db\\.\\n$`,
				),
			)
			// The site went on taking messages while the copy was made.
			expect(during).toBeGreaterThan(0)

			const copy = new DatabaseSync(file, { readOnly: true })
			try {
				expect(copy.prepare('PRAGMA integrity_check').all()).toEqual([
					expect.objectContaining({ integrity_check: 'ok' }),
				])
				const keys = new Set(
					copy
						.prepare('SELECT idempotency_key AS key FROM contact_messages')
						.all()
						.map((row) => String(row.key)),
				)
				const missing = before.filter((key) => !keys.has(key))
				expect(missing, 'acknowledged before the backup, yet not in it').toEqual([])
				// Nothing in the copy that the site never stored.
				expect([...keys].every((key) => acknowledged.includes(key))).toBe(true)
				expect(copy.prepare('SELECT COUNT(*) AS n FROM articles').get()).toEqual(
					expect.objectContaining({ n: 6 }),
				)
			} finally {
				copy.close()
			}

			// An existing file is never replaced.
			const hash = () => createHash('sha256').update(readFileSync(file)).digest('hex')
			const kept = hash()
			expect(await runCli(['backup', file], env)).toEqual({
				code: 1,
				stdout: '',
				stderr: `${file} already exists: choose another name, or move that file away first.\n`,
			})
			expect(hash()).toBe(kept)

			const named = await runCli(['backup'], env)
			const made = /to (\S+\/backups\/canopy-\d{8}T\d{6}Z\.db) /.exec(named.stdout)?.[1]
			expect(made?.startsWith(join(dataDir, 'backups'))).toBe(true)
			expect(existsSync(made ?? '')).toBe(true)
		} finally {
			server.child.kill('SIGTERM')
			await server.exited
		}
	}, 90_000)
})

for (const { name } of databases.filter((database) => database.name === 'postgres')) {
	describe(`backup on ${name}`, () => {
		it('says to use pg_dump, with a command line that leaves the password out, and fails', async () => {
			const database = await postgresDatabase()
			try {
				const url = new URL(database.env.DATABASE_URL ?? '')
				url.password = 'hunter2-secret'
				const schema = /search_path=(\w+)/.exec(url.searchParams.get('options') ?? '')?.[1]
				url.password = ''
				const shown = `'${url.toString()}'`
				url.password = 'hunter2-secret'
				const result = await runCli(['backup'], { DATABASE_URL: url.toString() })
				expect(result.code).toBe(1)
				expect(result.stdout).toBe('')
				expect(result.stderr).toMatch(
					new RegExp(
						`^Canopy is on PostgreSQL here: back it up with PostgreSQL's own tool, pg_dump, which makes a consistent copy while the site serves\\. For example:\\n\\n  pg_dump --format=custom --file=canopy-\\d{8}T\\d{6}Z\\.dump --schema=${schema} `,
					),
				)
				expect(result.stderr).toContain(shown)
				expect(result.stderr).toContain(
					'pg_dump asks for the password, or reads it from PGPASSWORD',
				)
				expect(result.stderr).not.toContain('hunter2')
			} finally {
				await database.drop()
			}
		}, 30_000)
	})
}
