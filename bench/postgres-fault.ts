// PostgreSQL fault: a Canopy server process on a private PostgreSQL cluster (never the shared
// one), a live stream open, contact submissions (4 senders, one every 100 ms each, one of them through the page's form), page reads and
// article publishes over HTTP; PostgreSQL stopped with `pg_ctl -m immediate` in the middle of the
// burst (what `pg_ctlcluster … stop -m immediate` runs) and started again 2.5 s later. Run once,
// bounded. Beside each figure, a baseline from the same run: how soon Canopy serves again after
// PostgreSQL accepts connections, beside PostgreSQL's own restart (pg_ctl start until ready); a
// 503's answer time while it is down, beside a page's before the stop. The correctness figures
// (messages lost, stream events missed) are the ones tests/integration/postgres-fault.test.ts
// asserts.

import { storageRules } from '#server/storage-rules.ts'
import { openPostgresStorage } from '#storage/postgres/open-postgres.ts'
import { makeApiKey } from '#tests/fixtures/api-key.ts'
import { auditFaultRun, faultFigures } from '#tests/fixtures/fault-audit.ts'
import { runFaultScenario } from '#tests/fixtures/fault-scenario.ts'
import { startPrivatePostgres } from '#tests/fixtures/private-postgres.ts'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import { withDeadline } from './support/processes.ts'
import { met, ms, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const bench = 'postgres-fault'

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes(bench)
	const cluster = await startPrivatePostgres()
	const storage = openPostgresStorage(cluster.url, { rules: storageRules })
	let server: Awaited<ReturnType<typeof startCanopy>> | undefined
	try {
		server = await startCanopy(target, {
			env: { DATABASE_URL: cluster.url, TRUST_PROXY: '127.0.0.1' },
		})
		const url = server.url
		const apiKey = await makeApiKey(storage, url)
		const faulted = await withDeadline(
			runFaultScenario({ url, cluster, storage, apiKey }),
			120_000,
			'the fault scenario',
		)
		const figures = faultFigures(faulted)
		const audit = await auditFaultRun(faulted, storage, url)
		faulted.stream.close()

		const count = (kind: string, ok: (status: number) => boolean) =>
			faulted.exchanges.filter((e) => e.kind === kind && ok(e.status)).length
		const success = (status: number) => status >= 200 && status < 300
		const broken = faulted.exchanges.filter(
			(e) => e.status === 0 || (e.status >= 500 && e.status !== 503),
		)
		const streamFaults =
			Math.abs(audit.received.length - audit.committed.length) +
			audit.received.filter((id, i) => id !== audit.committed[i]).length
		note(
			`${faulted.exchanges.length} requests: contact ${count('contact', success)} acknowledged of ${faulted.submissions.size}, publishes ${count('publish', success)} acknowledged, pages ${count('page', success)} served; ${figures.unavailable} answered 503 (${figures.duringOutage.length} while PostgreSQL was down)`,
		)
		note(
			`timeline (ms from the first request): stop asked at ${Math.round(faulted.stopAskedAt)}, stopped at ${Math.round(faulted.stoppedAt)}, start asked at ${Math.round(faulted.startAskedAt)}, accepting connections at ${Math.round(faulted.readyAt)}`,
		)
		note(
			`after PostgreSQL was back: ${audit.storedOnResend} of the 503-answered messages stored when sent again, ${audit.storedBefore503} found stored already (committed before their answer was cut off); ${audit.messages} messages stored for ${faulted.submissions.size} submissions`,
		)
		note(
			`stream: ${audit.received.length} events received, ${audit.committed.length} committed; reopened ${faulted.stream.reopened} times`,
		)
		return {
			rows: [
				row({
					bench,
					figure: 'acknowledged contact messages lost',
					value: `${audit.lostAcknowledged.length} of ${figures.acknowledged}`,
					target: '0',
					status: met(audit.lostAcknowledged.length === 0),
				}),
				row({
					bench,
					figure: 'stream events missed, doubled or out of order',
					value: String(streamFaults),
					target: '0',
					status: met(streamFaults === 0),
				}),
				row({
					bench,
					figure: 'answers that were a 500, or none within 5 s',
					value: `${broken.length} of ${faulted.exchanges.length}`,
					target: '0',
					status: met(broken.length === 0),
				}),
				row({
					bench,
					figure: 'longest answer while PostgreSQL was down',
					value: ms(figures.longestOutageAnswerMs),
					baseline: `${ms(figures.medianPageMsBefore)} (median page before the stop)`,
					target: '≤ 1 s',
					status: met(figures.longestOutageAnswerMs <= 1_000),
				}),
				row({
					bench,
					figure: 'median 503 answer while PostgreSQL was down',
					value: ms(figures.median503Ms),
					baseline: `${ms(figures.medianPageMsBefore)} (median page before the stop)`,
					ratio: times(figures.median503Ms, figures.medianPageMsBefore),
				}),
				row({
					bench,
					figure: 'serving again after PostgreSQL accepts connections',
					value: ms(figures.recoveredAfterMs),
					baseline: `${ms(figures.pgRestartMs)} (PostgreSQL's own restart: pg_ctl start until ready)`,
					target: '≤ 1 s',
					status: met(figures.recoveredAfterMs <= 1_000),
				}),
			],
			notes,
		}
	} finally {
		await server?.stop()
		await storage.close()
		await cluster.remove()
	}
}

if (import.meta.main) await runAlone(run)
