// PostgreSQL stopped with -m immediate (as `pg_ctlcluster … stop -m immediate` does) in the
// middle of a burst of contact submissions, page reads and publishes, with a live stream open,
// then started again, under one Canopy server process. What an operator would check afterwards:
// every acknowledged message is stored, the stream got every change once and in order, the
// requests during the outage were answered at once with 503 and Retry-After (or, for a page, from
// the public reads kept before it), and the same process serves again without a restart. On a
// private cluster: the shared one is never stopped.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storageRules } from '#server/storage-rules.ts'
import { openPostgresStorage } from '#storage/postgres/open-postgres.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { makeApiKey } from '#tests/fixtures/api-key.ts'
import { auditFaultRun, faultFigures } from '#tests/fixtures/fault-audit.ts'
import { runFaultScenario } from '#tests/fixtures/fault-scenario.ts'
import { type PrivatePostgres, startPrivatePostgres } from '#tests/fixtures/private-postgres.ts'
import { freePort, type ServerProcess, startServer } from '#tests/fixtures/process.ts'
import { postgresUrl } from '#tests/fixtures/storage.ts'

describe.runIf(postgresUrl)('PostgreSQL stopped and started under a running Canopy', () => {
	let cluster: PrivatePostgres
	let server: ServerProcess
	let storage: Storage
	let apiKey: string
	const dataDir = mkdtempSync(join(tmpdir(), 'canopy-fault-'))

	beforeAll(async () => {
		cluster = await startPrivatePostgres()
		server = await startServer(
			{ DATABASE_URL: cluster.url, DATA_DIR: dataDir, TRUST_PROXY: '127.0.0.1' },
			await freePort(),
		)
		storage = openPostgresStorage(cluster.url, { rules: storageRules })
		apiKey = await makeApiKey(storage, server.url)
	}, 60_000)

	afterAll(async () => {
		server?.child.kill('SIGTERM')
		await server?.exited
		await storage?.close()
		await cluster?.remove()
		rmSync(dataDir, { recursive: true, force: true })
	})

	it('loses no acknowledged message, misses no change on the stream, answers 503 at once meanwhile, and recovers without a restart', async () => {
		const pid = server.child.pid
		const run = await runFaultScenario({ url: server.url, cluster, storage, apiKey })
		const figures = faultFigures(run)
		try {
			// Every request was answered: success, or 503 with Retry-After; never a 500 or a hang.
			const odd = run.exchanges.filter(
				(e) => !(e.status >= 200 && e.status < 300) && !(e.status === 503 && e.retryAfter),
			)
			expect(odd).toEqual([])
			// The stop landed in the middle of the burst: answers before, during and after it.
			expect(run.exchanges.some((e) => e.answeredAt < run.stopAskedAt && e.status === 201)).toBe(
				true,
			)
			expect(figures.duringOutage.length).toBeGreaterThan(10)
			// Writes answer 503. A page may still be rendered from the public reads kept before
			// the stop (nothing can change them while no one can write; decision 038), never from
			// the database: a page either way, never a stale write.
			const servedMeanwhile = (e: (typeof figures.duringOutage)[number]) =>
				e.kind === 'page' && e.status === 200
			expect(figures.duringOutage.filter((e) => e.status !== 503 && !servedMeanwhile(e))).toEqual(
				[],
			)
			expect(figures.duringOutage.some((e) => e.kind !== 'page' && e.status === 503)).toBe(true)
			// At once: well under a second on a quiet machine (the benchmark reports it); 2.5 s
			// leaves room for a suite that keeps both cores busy, and still tells a 503 from a hang.
			expect(figures.longestOutageAnswerMs).toBeLessThan(2_500)
			// The same process serves again, within a bound of PostgreSQL accepting connections.
			expect(server.child.exitCode).toBeNull()
			expect(server.child.pid).toBe(pid)
			expect(figures.recoveredAfterMs).toBeLessThan(3_000)
			for (const kind of ['contact', 'publish', 'page'] as const)
				expect(
					run.exchanges.some((e) => e.kind === kind && e.sentAt > run.readyAt && e.status < 300),
					`${kind} succeeds again`,
				).toBe(true)

			// Every acknowledged message is stored; those answered 503, sent again with their key,
			// are stored now or were already (a commit the outage cut off before its answer), and
			// none is stored twice.
			const audit = await auditFaultRun(run, storage, server.url)
			expect(audit.lostAcknowledged).toEqual([])
			expect(audit.resendFailures).toEqual([])
			expect(audit.messages).toBe(run.submissions.size)
			expect(audit.distinctMessages).toBe(audit.messages)
			// The stream got every change that committed, in order, none twice.
			expect(audit.received).toEqual(audit.committed)
			expect(audit.publishedNotStreamed).toEqual([])

			// One line when the outage began and one when it ended, and no error logged.
			const logged = server.output()
			expect(logged.match(/database unreachable/g)?.length).toBe(1)
			expect(logged.match(/database reachable again/g)?.length).toBe(1)
			expect(logged).not.toContain('"level":"error"')

			console.log(
				`postgres fault: ${run.submissions.size} contact submissions, ${figures.acknowledged} acknowledged (all stored), ${audit.storedBefore503} of the 503s found stored on resend; ${run.exchanges.filter((e) => e.kind === 'publish' && e.status === 201).length} publishes acknowledged; ${figures.unavailable} answers were 503, ${figures.duringOutage.length} while PostgreSQL was down, the longest ${Math.round(figures.longestOutageAnswerMs)} ms (median ${figures.median503Ms.toFixed(1)} ms; a page before the stop: ${figures.medianPageMsBefore.toFixed(1)} ms); PostgreSQL took ${Math.round(figures.pgRestartMs)} ms to accept connections, Canopy answered again ${Math.round(figures.recoveredAfterMs)} ms after that; the stream got ${run.stream.events.length} events, reopened ${run.stream.reopened} times`,
			)
		} finally {
			run.stream.close()
		}
	}, 90_000)
})
