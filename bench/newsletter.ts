// The newsletter with 10,000 confirmed readers (docs/decisions/032-newsletter.md):
//
//   1. Publishing: the publish transaction of a new article mailed to them, beside the same
//      publish with "Email subscribers" off, interleaved in one run: p50 and p99 of each, on
//      SQLite and (with TEST_DATABASE_URL) PostgreSQL. Target: p99 ≤ 2× the publish without mail.
//   2. Sending: Canopy's worker (deliveries written, claimed, rendered, sent, recorded) to a local
//      SMTP server, beside nodemailer alone sending the same mail to the same addresses on the
//      same pooled transport: mails/s. Target: ≥ 0.7× nodemailer alone.
//   3. kill -9 (PostgreSQL): two worker processes share the sending; one is killed a third of the
//      way through. Every reader must get the mail (0 lost), at most 20 twice.
// The SMTP server runs in this process and parses every mail, so both rates include its work.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createTransport } from 'nodemailer'
import pg from 'pg'
import type { NewsletterMails } from '#app/features/newsletter/newsletter-content.server.ts'
import { startNewsletterDelivery } from '#server/jobs/newsletter-delivery.ts'
import { createLogger } from '#server/logger.ts'
import { storageRules } from '#server/storage-rules.ts'
import { openPostgresStorage } from '#storage/postgres/open-postgres.ts'
import { openSqliteStorage } from '#storage/sqlite/open-sqlite.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { startSmtpServer } from '#tests/fixtures/smtp.ts'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { pollUntil, startNode, stopProcess, waitForOutput } from './support/processes.ts'
import type { Row } from './support/report.ts'
import { met, ms, percentile, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const readers = 10_000
const publishes = 200
/** Publishes of each kind made first and not counted: the tables' first pages, the plans. */
const warmUp = 20
const siteUrl = 'https://news.example.org'
/** The worker's pool: its default 5 connections, and its two sends in flight per connection. */
const connections = 5
const lanes = connections * 2

async function addReaders(storage: Storage) {
	const rows = Array.from({ length: readers }, (_, i) => ({
		email: `reader${i}@example.org`,
		confirmed: true,
	}))
	await storage.newsletter.importMany(rows, new Date(), new Date())
}

/** Publishes with and without mail, interleaved; the deliveries written after are not timed. */
async function publishing(storage: Storage, name: string, note: (line: string) => void) {
	const timings = { mail: [] as number[], none: [] as number[] }
	for (let i = 0; i < warmUp + publishes; i++) {
		for (const kind of ['mail', 'none'] as const) {
			const started = performance.now()
			const made = await storage.articles.create(
				articleWrite({ slug: `${kind}-${i}`, email: kind === 'mail', notify: false }),
			)
			if (i >= warmUp) timings[kind].push(performance.now() - started)
			if (!made.ok) throw new Error('the publish failed')
		}
	}
	const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
	const mail = sorted(timings.mail)
	const none = sorted(timings.none)
	const p99 = percentile(mail, 99)
	const bare = percentile(none, 99)
	note(
		`${name}: publish with mail p50 ${ms(percentile(mail, 50))} p99 ${ms(p99)}; without p50 ${ms(percentile(none, 50))} p99 ${ms(bare)}`,
	)
	return row({
		bench: 'newsletter',
		figure: `publish p99 with ${readers.toLocaleString('en')} readers (${name})`,
		value: ms(p99),
		baseline: `${ms(bare)} (same publish, no mail)`,
		ratio: times(p99, bare),
		target: '≤ 2×',
		status: met(p99 <= 2 * bare),
	})
}

/** The renderers from the built site: this process, like the server, cannot import JSX itself. */
async function renderers(target: Target): Promise<NewsletterMails> {
	const build = await import(pathToFileURL(join(target.root, 'build/server/index.js')).href)
	// Loaded on demand since the server's start stopped loading them; exported whole before.
	const entry = build.entry.module
	return (await (entry.loadNewsletterMails?.() ?? entry.newsletterMails)) as NewsletterMails
}

async function sending(target: Target, note: (line: string) => void): Promise<Row> {
	const mails = await renderers(target)
	const dir = mkdtempSync(join(tmpdir(), 'canopy-newsletter-bench-'))
	const storage = openSqliteStorage(join(dir, 'canopy.db'), { rules: storageRules })
	const smtp = await startSmtpServer()
	try {
		await storage.migrate()
		await addReaders(storage)
		const write = articleWrite({ slug: 'the-mail', title: 'Peatlands hold a third of soil carbon' })

		// Baseline: nodemailer alone, the same mail and transport, nothing read or written.
		const mail = await mails.articleMail({
			site: { title: 'Canopy', siteUrl, logoUrl: null },
			article: {
				title: write.title,
				summary: write.summary,
				url: `${siteUrl}/articles/the-mail`,
				publishedAt: new Date().toISOString(),
				coverUrl: null,
				coverAlt: null,
				tags: write.tags,
				authors: write.authors,
			},
			links: {
				unsubscribe: `${siteUrl}/newsletter/unsubscribe?token=x`,
				preferences: `${siteUrl}/newsletter/preferences?token=x`,
				viewInBrowser: null,
			},
			timeZone: 'UTC',
		})
		const transport = createTransport({
			url: smtp.url,
			pool: true,
			maxConnections: connections,
			rateDelta: 1000,
			rateLimit: 100_000,
		})
		let next = 0
		const baselineStart = performance.now()
		await Promise.all(
			Array.from({ length: lanes }, async () => {
				while (next < readers) {
					const i = next++
					await transport.sendMail({
						from: 'Canopy <no-reply@news.example.org>',
						to: `reader${i}@example.org`,
						subject: mail.subject,
						text: mail.text,
						html: mail.html,
						list: { unsubscribe: { url: `${siteUrl}/newsletter/unsubscribe?token=${i}` } },
						headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
					})
				}
			}),
		)
		const baselineRate = readers / ((performance.now() - baselineStart) / 1000)
		transport.close()
		smtp.received.length = 0
		note(`nodemailer alone: ${baselineRate.toFixed(0)} mails/s`)

		const worker = startNewsletterDelivery(
			storage,
			createLogger('silent'),
			{
				siteUrl,
				smtpUrl: smtp.url,
				newsletter: { ratePerSecond: 100_000, suspendAfter: 3 },
			},
			async () => mails,
			{ intervalMs: 100 },
		)
		const start = performance.now()
		await storage.articles.create(write)
		worker.wake()
		await smtp.waitFor(readers, 600_000)
		const rate = readers / ((performance.now() - start) / 1000)
		await worker.stop()
		note(`Canopy's worker: ${rate.toFixed(0)} mails/s (publish to last mail)`)
		return row({
			bench: 'newsletter',
			figure: `mails/s to a local SMTP server, ${readers.toLocaleString('en')} readers`,
			value: rate.toFixed(0),
			baseline: `${baselineRate.toFixed(0)} (nodemailer alone)`,
			ratio: times(rate, baselineRate),
			target: '≥ 0.7×',
			status: met(rate >= 0.7 * baselineRate),
		})
	} finally {
		await smtp.close()
		await storage.close()
		rmSync(dir, { recursive: true, force: true })
	}
}

async function killed(target: Target, serverUrl: string, note: (line: string) => void) {
	const schema = `bench_news_${randomBytes(5).toString('hex')}`
	const admin = new pg.Client({ connectionString: serverUrl })
	await admin.connect()
	await admin.query(`CREATE SCHEMA ${schema}`)
	const storage = openPostgresStorage(serverUrl, { schema, poolSize: 4, rules: storageRules })
	const smtp = await startSmtpServer()
	const workers: ReturnType<typeof startNode>[] = []
	try {
		await storage.migrate()
		await addReaders(storage)
		for (let i = 0; i < 2; i++) {
			const child = startNode(['bench/support/newsletter-worker.ts'], {
				cwd: target.root,
				cpu: i,
				env: {
					...process.env,
					DATABASE_URL: serverUrl,
					SCHEMA: schema,
					SMTP_URL: smtp.url,
					LEASE_MS: '5000',
				},
				stdio: ['ignore', 'pipe', 'inherit'],
			})
			workers.push(child)
			await waitForOutput(child, /ready/, 30_000, 'a newsletter worker')
		}
		const start = performance.now()
		await storage.articles.create(articleWrite({ slug: 'killed', title: 'The wetland survey' }))
		await pollUntil(() => smtp.received.length >= readers / 3, 300_000, 5)
		workers[0]?.kill('SIGKILL')
		note(`killed one worker after ${smtp.received.length} mails`)
		const done = await pollUntil(async () => {
			const unique = new Set(smtp.received.map((mail) => mail.to[0]))
			return unique.size >= readers
		}, 300_000)
		const seconds = (performance.now() - start) / 1000
		const counts = new Map<string, number>()
		for (const mail of smtp.received) {
			const to = mail.to[0] ?? ''
			counts.set(to, (counts.get(to) ?? 0) + 1)
		}
		const lost = readers - counts.size
		const twice = [...counts.values()].filter((n) => n > 1).length
		note(
			`after the kill: ${counts.size} readers reached in ${seconds.toFixed(1)} s, ${twice} twice, ${lost} lost${done ? '' : ' (gave up waiting)'}`,
		)
		return row({
			bench: 'newsletter',
			figure: `kill -9 of 1 of 2 workers mid-send: lost / sent twice`,
			value: `${lost} / ${twice}`,
			baseline: `${readers.toLocaleString('en')} readers`,
			target: '0 / ≤ 20',
			status: met(lost === 0 && twice <= 20),
		})
	} finally {
		for (const child of workers) await stopProcess(child, 2_000).catch(() => {})
		await smtp.close()
		await storage.close()
		await admin.query(`DROP SCHEMA ${schema} CASCADE`)
		await admin.end()
	}
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes('newsletter')
	const rows: Row[] = []

	const dir = mkdtempSync(join(tmpdir(), 'canopy-newsletter-publish-'))
	const sqlite = openSqliteStorage(join(dir, 'canopy.db'), { rules: storageRules })
	try {
		await sqlite.migrate()
		await addReaders(sqlite)
		rows.push(await publishing(sqlite, 'SQLite', note))
	} finally {
		await sqlite.close()
		rmSync(dir, { recursive: true, force: true })
	}

	const serverUrl = process.env.TEST_DATABASE_URL
	if (serverUrl) {
		const schema = `bench_news_${randomBytes(5).toString('hex')}`
		const admin = new pg.Client({ connectionString: serverUrl })
		await admin.connect()
		await admin.query(`CREATE SCHEMA ${schema}`)
		const postgres = openPostgresStorage(serverUrl, { schema, poolSize: 4, rules: storageRules })
		try {
			await postgres.migrate()
			await addReaders(postgres)
			rows.push(await publishing(postgres, 'PostgreSQL', note))
		} finally {
			await postgres.close()
			await admin.query(`DROP SCHEMA ${schema} CASCADE`)
			await admin.end()
		}
	} else note('PostgreSQL skipped: TEST_DATABASE_URL is not set')

	rows.push(await sending(target, note))
	if (serverUrl) rows.push(await killed(target, serverUrl, note))
	return { rows, notes }
}

if (import.meta.main) await runAlone(run)
