// A PostgreSQL database of its own for the scale-out benchmark, made on the server that
// TEST_DATABASE_URL names and dropped afterwards. A database rather than a schema: NOTIFY
// channels are per database, so no other user of that server wakes our instances, or we theirs.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import pg from 'pg'

export interface BenchDatabase {
	/** What DATABASE_URL is set to for every process of the benchmark. */
	url: string
	name: string
	/** Whether a process is a PostgreSQL backend serving this database (its title names it). */
	serves(pid: number): boolean
	drop(): Promise<void>
}

/** Why the server cannot be used, or undefined when it answers. */
export async function postgresProblem(url: string | undefined): Promise<string | undefined> {
	if (!url) return 'TEST_DATABASE_URL is not set (postgres://user@host:port/database)'
	const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 })
	try {
		await client.connect()
		await client.query('SELECT 1')
		return undefined
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error)
		return `PostgreSQL at ${redacted(url)} did not answer: ${reason}`
	} finally {
		await client.end().catch(() => {})
	}
}

/** The URL without its password, for messages. */
export function redacted(url: string): string {
	const parsed = new URL(url)
	if (parsed.password) parsed.password = '***'
	return parsed.toString()
}

export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
	const name = `canopy_bench_${randomBytes(5).toString('hex')}`
	const admin = new pg.Client({ connectionString: serverUrl })
	await admin.connect()
	try {
		await admin.query(`CREATE DATABASE ${name}`)
	} finally {
		await admin.end()
	}
	const url = new URL(serverUrl)
	url.pathname = `/${name}`
	return {
		url: url.toString(),
		name,
		serves(pid) {
			try {
				return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${name} `)
			} catch {
				return false
			}
		},
		async drop() {
			const client = new pg.Client({ connectionString: serverUrl })
			await client.connect()
			try {
				// FORCE ends the connections of an instance that did not shut down cleanly.
				await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
			} finally {
				await client.end()
			}
		},
	}
}
