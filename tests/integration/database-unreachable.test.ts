// The server and the command line started on a database they cannot use: a message for the
// operator naming the database (never its password) and what to check, no stack trace, and a
// non-zero exit, so systemd tries again later.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { freePort, runCli, runServerToExit } from '#tests/fixtures/process.ts'

const stackTrace = /^\s+at /m

describe('a PostgreSQL database that cannot be reached', () => {
	let env: Record<string, string>
	let redacted: string
	beforeEach(async () => {
		// A port nothing listens on: connections to it are refused at once.
		const port = await freePort()
		env = { DATABASE_URL: `postgres://canopy:Secret-pw-41@127.0.0.1:${port}/canopy` }
		redacted = `postgres://canopy@127.0.0.1:${port}/canopy`
	})

	it('stops the server with a message saying which database and what to check', async () => {
		const result = await runServerToExit(env, await freePort())
		expect(result.code).toBe(1)
		expect(result.stderr).toBe(
			`Canopy cannot start: the database at ${redacted} cannot be reached: nothing accepts connections at 127.0.0.1 port ${new URL(redacted).port}. Check that PostgreSQL is running and listening there (listen_addresses and port in postgresql.conf), and that DATABASE_URL names the right host and port.\n`,
		)
		expect(result.stdout).not.toContain('Canopy is running')
		expect(result.stderr + result.stdout).not.toContain('Secret-pw-41')
	})

	it('stops a command the same way', async () => {
		const result = await runCli(['config:show'], env)
		expect(result.code).toBe(1)
		expect(result.stderr).toMatch(
			new RegExp(`^Canopy cannot run config:show: the database at ${redacted} cannot be reached`),
		)
		expect(result.stderr).toContain('Check that PostgreSQL is running')
		expect(result.stderr).not.toMatch(stackTrace)
		expect(result.stderr).not.toContain('Secret-pw-41')
	})
})

describe('a DATA_DIR that cannot hold the SQLite database', () => {
	let dir: string
	let env: Record<string, string>
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'canopy-data-dir-'))
		// A file where the folder should be: refused for every user, root included.
		const file = join(dir, 'not-a-folder')
		writeFileSync(file, 'x')
		env = { DATABASE_URL: '', DATA_DIR: join(file, 'data') }
	})
	afterEach(() => rmSync(dir, { recursive: true, force: true }))

	it('stops the server with a message naming DATA_DIR', async () => {
		const result = await runServerToExit(env, await freePort())
		expect(result.code).toBe(1)
		expect(result.stderr).toBe(
			`Canopy cannot start: the database folder DATA_DIR=${env.DATA_DIR} cannot be used: part of the path is a file, not a folder. DATA_DIR must be a folder that the user running Canopy can write to (Canopy makes it when missing); check the path and its permissions, or set DATA_DIR to another folder.\n`,
		)
	})

	it('stops a command the same way', async () => {
		const result = await runCli(['db:migrate'], env)
		expect(result.code).toBe(1)
		expect(result.stderr).toMatch(/^Canopy cannot run db:migrate: the database folder DATA_DIR=/)
		expect(result.stderr).not.toMatch(stackTrace)
	})

	it('names a file that is not a database', async () => {
		writeFileSync(
			join(dir, 'canopy.db'),
			'not a database, but quite long enough to be read'.repeat(99),
		)
		const result = await runCli(['db:migrate'], { ...env, DATA_DIR: dir })
		expect(result.code).toBe(1)
		expect(result.stderr).toBe(
			`Canopy cannot run db:migrate: ${join(dir, 'canopy.db')} is not a usable SQLite database (file is not a database). Move it aside and restore a backup (README, Backups), or point DATA_DIR at the right folder.\n`,
		)
	})
})
