// What the server loads before its first page (decision 039): the libraries of occasional work
// (images, mail, the newsletter's templates, Markdown, which its worker threads render) wait
// for that work, so a start or a restart does not pay for them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { freePort, startServer } from '#tests/fixtures/process.ts'
import { sqliteDatabase } from '#tests/fixtures/storage.ts'

const hook = fileURLToPath(new URL('../fixtures/trace-packages.ts', import.meta.url))

describe('the server’s start', () => {
	it('serves its first pages without loading the libraries of uploads, mail and Markdown', async () => {
		const database = sqliteDatabase()
		const trace = join(database.env.DATA_DIR as string, 'packages.txt')
		const server = await startServer(
			{ ...database.env, NODE_OPTIONS: `--import ${JSON.stringify(hook)}`, TRACE_PACKAGES: trace },
			await freePort(),
		)
		try {
			for (const path of ['/articles/the-living-ground', '/home', '/articles', '/search?q=peat'])
				expect((await fetch(`${server.url}${path}`)).status).toBe(200)
			const loaded = readFileSync(trace, 'utf8').trim().split('\n')
			// The trace works: what every page needs is in it.
			expect(loaded).toEqual(expect.arrayContaining(['react-router', 'react-dom', 'kysely']))
			for (const later of [
				'sharp',
				'file-type',
				'nodemailer',
				'@react-email/render',
				'html-to-text',
				'unified',
				'micromark',
				'remark-parse',
			])
				expect(loaded, `${later} is loaded at start`).not.toContain(later)
		} finally {
			server.child.kill('SIGTERM')
			await server.exited
			await database.drop()
		}
	}, 60_000)
})
