// SQLite's counterpart of a database outage: the file's write lock held by another process (a
// long CLI command) past the serving process's short wait. Decision 016.
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { contactFields, pastForm, postContactJson } from '#tests/fixtures/contact.ts'
import { freePort, startServer } from '#tests/fixtures/process.ts'
import { sqliteDatabase } from '#tests/fixtures/storage.ts'

async function timed(request: Promise<Response>) {
	const started = performance.now()
	const response = await request
	const body = await response.text()
	return {
		status: response.status,
		retryAfter: response.headers.get('retry-after'),
		body,
		ms: performance.now() - started,
	}
}

describe('a SQLite database held by another process', () => {
	it('answers a write kept waiting past busy_timeout with 503 and Retry-After, keeps serving reads, and takes the write once the lock is gone', async () => {
		const database = sqliteDatabase()
		const server = await startServer({ ...database.env, LOG_LEVEL: 'warn' }, await freePort())
		const storage = database.open()
		// It waits its turn like any writer: the server may be writing (a job, the stems) as it begins.
		const holder = new DatabaseSync(join(database.env.DATA_DIR as string, 'canopy.db'), {
			timeout: 10_000,
		})
		try {
			const form = await pastForm(storage)
			// Another process (a long CLI import, say) holds the write lock.
			holder.exec('BEGIN IMMEDIATE')
			const blocked = await timed(postContactJson(server.url, { ...contactFields, ...form }))
			expect(blocked.status).toBe(503)
			// A quarter-second wait per write, not five seconds of a frozen process.
			expect(blocked.ms).toBeLessThan(2_000)
			expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1)
			expect(JSON.parse(blocked.body).error).toMatch(/same idempotencyKey/)
			// Readers are not held up (WAL): an article page is read meanwhile.
			const reading = await timed(fetch(`${server.url}/articles?locked`))
			expect(reading.status).toBe(200)
			expect(reading.ms).toBeLessThan(2_000)
			holder.exec('ROLLBACK')
			const sent = await postContactJson(server.url, { ...contactFields, ...form })
			expect(sent.status).toBe(201)
			expect(server.output()).not.toContain('"level":"error"')
		} finally {
			holder.close()
			server.child.kill('SIGTERM')
			await server.exited
			await storage.close()
			await database.drop()
		}
	}, 60_000)
})
