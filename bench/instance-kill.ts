// kill -9 of one of two Canopy instances on one PostgreSQL database, beside the same run without
// a fault: real server processes (node server/index.ts on the built copy), the local HTTPS push
// service in this process (trusted by the servers through NODE_EXTRA_CA_CERTS), and SIGKILL.
//
//   1. Baseline: two instances send a new article's notices to N subscribers: notices/s.
//   2. The same, with one instance killed a third of the way through: how long until every
//      notice is out (the survivor waits for the dead one's lease), the survivor's rate once it
//      has taken over, and how many notices went out twice (the sends in flight at the kill).
//   3. A periodic job (the analytics roll-up) whose instance is killed mid-pass: how long after
//      its lease ran out the other instance took it over.
// Needs TEST_DATABASE_URL (a PostgreSQL server it may make and drop schemas on).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { loadVapidKeys } from '#app/features/push/vapid-keys.server.ts'
import { storageRules } from '#server/storage-rules.ts'
import { rollUpLock } from '#storage/kysely/analytics-repositories.ts'
import { openPostgresStorage } from '#storage/postgres/open-postgres.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { screenView } from '#tests/fixtures/analytics.ts'
import { makeApiKey } from '#tests/fixtures/api-key.ts'
import { startPushService, type TestPushService } from '#tests/fixtures/push-service.ts'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { freePort } from './support/canopy-server.ts'
import { exited, pollUntil, startNode, stopProcess, waitForOutput } from './support/processes.ts'
import { ms, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const subscribers = 1_500
/** The push worker's default sends in flight, per instance. */
const concurrency = 20
const pushLeaseSeconds = 5
const jobLeaseSeconds = 3
const dayMs = 24 * 60 * 60 * 1000

interface Site {
	storage: Storage
	instances: { child: ReturnType<typeof startNode>; url: string; pid: number }[]
	close(): Promise<void>
}

/** A fresh schema on the TEST_DATABASE_URL server, `count` instances on it, migrated and started. */
async function startSite(
	target: Target,
	serverUrl: string,
	count: number,
	env: Record<string, string>,
): Promise<Site> {
	const schema = `bench_kill_${randomBytes(5).toString('hex')}`
	const admin = new pg.Client({ connectionString: serverUrl })
	await admin.connect()
	await admin.query(`CREATE SCHEMA ${schema}`)
	await admin.end()
	const url = new URL(serverUrl)
	url.searchParams.set('options', `-c search_path=${schema}`)
	const storage = openPostgresStorage(serverUrl, { schema, poolSize: 4, rules: storageRules })
	await storage.migrate()
	const instances: Site['instances'] = []
	const close = async () => {
		await Promise.all(instances.map(({ child }) => stopProcess(child)))
		await storage.close()
		const client = new pg.Client({ connectionString: serverUrl })
		await client.connect()
		await client.query(`DROP SCHEMA ${schema} CASCADE`)
		await client.end()
	}
	try {
		const ports = await Promise.all(Array.from({ length: count }, () => freePort()))
		const siteUrl = `http://127.0.0.1:${ports[0]}`
		const { NODE_ENV: _, ...inherited } = process.env
		for (const port of ports) {
			const child = startNode(['server/index.ts'], {
				cwd: target.root,
				env: {
					...inherited,
					NODE_ENV: 'production',
					DATABASE_URL: url.toString(),
					PORT: String(port),
					HOST: '127.0.0.1',
					SITE_URL: siteUrl,
					LOG_LEVEL: 'warn',
					...env,
				},
				stdio: ['ignore', 'pipe', 'inherit'],
			})
			instances.push({ child, url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0 })
			await waitForOutput(child, /Canopy is running at/, 60_000, `instance ${instances.length}`)
		}
	} catch (error) {
		await close()
		throw error
	}
	return { storage, instances, close }
}

/** Readers subscribed for the site's key pair, an API key, and a publish function. */
async function prepareReaders(site: Site, service: TestPushService) {
	const { storage } = site
	const vapidKeys = await loadVapidKeys(storage, null)
	for (let i = 0; i < subscribers; i++) {
		const { endpoint, keys } = service.subscribe({ applicationServerKey: vapidKeys.publicKey })
		await storage.push.saveSubscription({ endpoint, ...keys, expirationTime: null }, new Date())
	}
	const key = await makeApiKey(storage, 'http://127.0.0.1')
	return async (through: string): Promise<number> => {
		const api = (path: string, body: unknown) =>
			fetch(`${through}/api/admin/articles${path}`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			})
		const created = await (
			await api('', { title: 'A new article', summary: 'For everyone.', body: 'Text.', tags: [] })
		).json()
		const published = await api(`/${created.article.id}/publish`, {
			version: created.article.version,
		})
		if (published.status !== 200) throw new Error(`publishing answered ${published.status}`)
		return Number(created.article.id)
	}
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('instance-kill')
	const serverUrl = process.env.TEST_DATABASE_URL
	if (!serverUrl) {
		note('skipped: TEST_DATABASE_URL is not set')
		return {
			rows: [row({ bench: 'instance-kill', figure: 'skipped', value: 'no TEST_DATABASE_URL' })],
			notes,
		}
	}
	const service = await startPushService()
	const caDir = mkdtempSync(join(tmpdir(), 'canopy-bench-ca-'))
	const caFile = join(caDir, 'push-service.pem')
	writeFileSync(caFile, service.ca)
	const pushEnv = { NODE_EXTRA_CA_CERTS: caFile, PUSH_LEASE_SECONDS: String(pushLeaseSeconds) }
	const rows = []
	try {
		// 1. Two instances, no fault.
		let site = await startSite(target, serverUrl, 2, pushEnv)
		let twoRate: number
		try {
			const publish = await prepareReaders(site, service)
			const began = Date.now()
			await publish(site.instances[0]?.url ?? '')
			await service.waitFor(subscribers, 300_000)
			const seconds = (Date.now() - began) / 1000
			// The steady pace, from the 10th to the 90th percentile arrival: the first sends pay for
			// new TLS connections and cold code, which the survivor's figure below does not.
			const arrivals = service.received
				.map((push) => push.receivedAt.getTime())
				.sort((x, y) => x - y)
			const from = arrivals[Math.floor(subscribers * 0.1)] as number
			const to = arrivals[Math.floor(subscribers * 0.9)] as number
			twoRate = (subscribers * 0.8) / Math.max(0.001, (to - from) / 1000)
			note(
				`two instances, no fault: ${subscribers} notices in ${seconds.toFixed(2)} s from the publish; ${twoRate.toFixed(0)}/s between the 10th and 90th percentile arrivals`,
			)
		} finally {
			await site.close()
			service.reset()
		}

		// 2. Two instances, one killed a third of the way through.
		site = await startSite(target, serverUrl, 2, pushEnv)
		try {
			const publish = await prepareReaders(site, service)
			const began = Date.now()
			const articleId = await publish(site.instances[0]?.url ?? '')
			await service.waitFor(subscribers / 3, 300_000)
			const victim = site.instances[0]
			victim?.child.kill('SIGKILL')
			if (victim) await exited(victim.child)
			const killedAt = Date.now()
			const beforeKill = service.received.length
			await service.waitFor(subscribers, 300_000)
			await pollUntil(async () => {
				const counts = (await site.storage.push.resultsByArticle([articleId])).get(articleId)
				return counts?.pending === 0
			}, 30_000)
			const arrivals = service.received.map((push) => push.receivedAt.getTime())
			const doneAt = Math.max(...arrivals)
			const endpoints = new Set(service.received.map((push) => push.endpoint))
			const twice = service.received.length - endpoints.size
			const deliveries = await site.storage.push.deliveriesOf(articleId)
			const reclaimed = deliveries.filter((delivery) => delivery.attempts > 1).length
			// The survivor's own pace while it sends: the notices after the kill over the time it spent
			// sending them, less its longest idle gap (waiting for the dead one's lease to run out).
			const after = arrivals.filter((at) => at > killedAt).sort((x, y) => x - y)
			let idle = 0
			for (let i = 1; i < after.length; i++)
				idle = Math.max(idle, (after[i] as number) - (after[i - 1] as number))
			const sending = Math.max(1, doneAt - killedAt - (idle > 1_000 ? idle : 0))
			const survivorRate = after.length / (sending / 1000)
			const beforeRate = beforeKill / Math.max(0.001, (killedAt - began) / 1000)
			note(
				`kill -9 after ${beforeKill} of ${subscribers} (${((killedAt - began) / 1000).toFixed(2)} s in, ${beforeRate.toFixed(0)} notices/s until then); ` +
					`${reclaimed} claimed by the dead instance were taken over; the last notice ${doneAt - killedAt} ms after the kill (lease ${pushLeaseSeconds * 1000} ms); ` +
					`the survivor sent ${after.length} after the kill at ${survivorRate.toFixed(0)}/s while sending (idle ${idle} ms waiting for the lease); ${twice} notices went out twice`,
			)
			rows.push(
				row({
					bench: 'instance-kill',
					figure: `notices/s, ${subscribers} subscribers, the survivor alone after a kill -9`,
					value: survivorRate.toFixed(0),
					baseline: `${twoRate.toFixed(0)} (two instances, no fault)`,
					ratio: times(survivorRate, twoRate),
				}),
				row({
					bench: 'instance-kill',
					figure: 'every notice out, from the kill -9',
					value: ms(doneAt - killedAt),
					baseline: `${ms(pushLeaseSeconds * 1000)} (push lease)`,
					ratio: times(doneAt - killedAt, pushLeaseSeconds * 1000),
				}),
				row({
					bench: 'instance-kill',
					figure: 'notices sent twice after a kill -9',
					value: `${twice} of ${subscribers}`,
					baseline: `≤ ${concurrency} (sends in flight)`,
					target: `≤ ${concurrency}`,
					status: twice <= concurrency ? 'met' : 'missed',
				}),
			)
		} finally {
			await site.close()
			service.reset()
		}

		// 3. A periodic job's holder killed mid-pass.
		site = await startSite(target, serverUrl, 2, {
			JOB_INTERVAL_SECONDS: '2',
			JOB_LEASE_SECONDS: String(jobLeaseSeconds),
		})
		const blocker = new pg.Client({ connectionString: serverUrl })
		await blocker.connect()
		try {
			const days = [400, 399, 398].map((ago) => new Date(Date.now() - ago * dayMs))
			const second = (days[1] as Date).toISOString().slice(0, 10)
			await blocker.query('SELECT pg_advisory_lock($1, hashtext($2))', [rollUpLock, second])
			await site.storage.analytics.record(
				days.flatMap((day, d) => [0, 1].map((v) => screenView(day, `v${d}${v}`, '/home'))),
			)
			// The next pass rolls the first day up and waits on the second, holding the lease.
			const blocked = await pollUntil(
				async () => (await site.storage.analytics.countViews()) === 4,
				20_000,
			)
			if (!blocked) throw new Error('no instance took the roll-up')
			const holding = (await site.storage.jobs.list()).find((r) => r.name === 'analytics-rollup')
			const victim = site.instances.find((i) => holding?.holder?.includes(`:${i.pid}:`))
			if (!victim) throw new Error(`no instance holds the roll-up: ${holding?.holder}`)
			victim.child.kill('SIGKILL')
			await exited(victim.child)
			const killedAt = Date.now()
			const left = (await site.storage.jobs.list()).find((r) => r.name === 'analytics-rollup')
			await blocker.query('SELECT pg_advisory_unlock($1, hashtext($2))', [rollUpLock, second])
			const taken = await pollUntil(async () => {
				const now = (await site.storage.jobs.list()).find((r) => r.name === 'analytics-rollup')
				return now?.holder !== holding?.holder && now?.leaseUntil === null
			}, 30_000)
			if (!taken) throw new Error('the roll-up was not taken over')
			const run = (await site.storage.jobs.list()).find((r) => r.name === 'analytics-rollup')
			const leaseEnd = Date.parse(left?.leaseUntil ?? '')
			const takenAt = Date.parse(run?.lastStartedAt ?? '')
			note(
				`roll-up holder killed mid-pass: taken over ${takenAt - killedAt} ms after the kill, ${takenAt - leaseEnd} ms after its lease ran out (lease ${jobLeaseSeconds * 1000} ms); views left: ${await site.storage.analytics.countViews()}`,
			)
			rows.push(
				row({
					bench: 'instance-kill',
					figure: 'periodic job taken over, from the kill -9',
					value: ms(takenAt - killedAt),
					baseline: `${ms(jobLeaseSeconds * 1000)} (job lease)`,
					ratio: times(takenAt - killedAt, jobLeaseSeconds * 1000),
				}),
			)
		} finally {
			await blocker.end()
			await site.close()
		}
	} finally {
		await service.close()
		rmSync(caDir, { recursive: true, force: true })
	}
	return { rows, notes }
}

if (import.meta.main) await runAlone(run)
