// The scale-out benchmark's own process on the database: migrates and seeds it, makes the admin
// account and API key the publishes go through, and times the publish transaction through the
// Storage port beside a bare BEGIN; INSERT; pg_notify; COMMIT on the same server. Driven over IPC
// by bench/scale-out.ts; run from the built copy, so it uses the code under test.
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { renderMarkdown } from '#app/features/articles/markdown.server.ts'
import { seedIfEmpty } from '#server/seed.ts'
import { storageRules } from '#server/storage-rules.ts'
import { openStorage } from '#storage/open-storage.ts'
import type { ArticleWrite, SavedArticle } from '#storage/port/articles.ts'
import { makeApiKey } from '#tests/fixtures/api-key.ts'
import { answerCalls } from './ipc.ts'

const databaseUrl = process.env.DATABASE_URL ?? ''
const storage = openStorage({ databaseUrl, dataDir: '' }, storageRules)
const bare = new pg.Client({ connectionString: databaseUrl })
await bare.connect()

const body = Array.from(
	{ length: 6 },
	(_, i) =>
		`Paragraph ${i + 1}. Restoring wetlands stores carbon, holds back floods and gives birds a place to rest. ` +
		'Communities that look after them see cleaner water and more fish, and the work pays for itself within years.',
).join('\n\n')
const summary =
	'A new survey counts what restored wetlands give back: carbon, clean water, fewer floods.'
let bodyHtml = ''
let written = 0

/**
 * One publish of a new article through the Storage port: `create` is where the editor's Publish
 * button (and the admin API) ends; `saveBySlug` is the CLI's `article:publish`, which first looks
 * the slug up.
 */
async function canopyPublish(method: 'create' | 'saveBySlug'): Promise<number> {
	written++
	const write: ArticleWrite = {
		slug: `bench-tx-${process.pid}-${written}`,
		title: `Wetlands are carbon stores, report ${written}`,
		summary,
		bodyMarkdown: body,
		bodyHtml,
		coverImageUrl: null,
		coverImageAlt: null,
		coverImageWidth: null,
		coverImageHeight: null,
		tags: ['wetlands', 'climate'],
		authors: ['Bench Reporter'],
		status: 'published',
		readingMinutes: 1,
		publishedAt: new Date().toISOString(),
		// As a new article is by default: announced to push subscribers (there are none here).
		notify: true,
	}
	const started = performance.now()
	let saved: SavedArticle
	if (method === 'create') {
		const created = await storage.articles.create(write)
		if (!created.ok) throw new Error(`the publish was refused: ${created.reason}`)
		saved = created.saved
	} else saved = await storage.articles.saveBySlug(write)
	const took = performance.now() - started
	if (!saved.change) throw new Error('a publish through the Storage port wrote no change')
	return took
}

/** The least a publish can cost on this server: one row, one notification, one commit. */
async function barePublish(): Promise<number> {
	written++
	const started = performance.now()
	await bare.query('BEGIN')
	const row = await bare.query<{ id: string }>(
		'INSERT INTO bench_bare_publish (slug, title, summary, body, body_html, published_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
		[
			`bench-bare-${written}`,
			`Report ${written}`,
			summary,
			body,
			bodyHtml,
			new Date().toISOString(),
		],
	)
	await bare.query('SELECT pg_notify($1, $2)', ['bench_bare_publish', row.rows[0]?.id ?? ''])
	await bare.query('COMMIT')
	return performance.now() - started
}

async function times(publish: () => Promise<number>, count: number, into: number[]) {
	for (let i = 0; i < count; i++) into.push(await publish())
}

answerCalls({
	/** Migrates and seeds the new database and returns an admin's API key. */
	prepare: async () => {
		await storage.migrate()
		await seedIfEmpty(storage)
		bodyHtml = await renderMarkdown(body)
		await bare.query(
			'CREATE TABLE IF NOT EXISTS bench_bare_publish (id bigserial PRIMARY KEY, slug text NOT NULL UNIQUE, title text NOT NULL, summary text NOT NULL, body text NOT NULL, body_html text NOT NULL, published_at text NOT NULL)',
		)
		return makeApiKey(storage, 'http://127.0.0.1', 'bench@example.org')
	},
	/**
	 * `rounds` rounds of `perRound` publishes each way, alternating which goes first, so a slow
	 * moment of the machine falls on both sides alike. A warm-up of each first.
	 */
	transactions: async (args: { rounds: number; perRound: number; warmup: number }) => {
		const editor = () => canopyPublish('create')
		const cli = () => canopyPublish('saveBySlug')
		const warm: number[] = []
		for (const publish of [editor, cli, barePublish]) await times(publish, args.warmup, warm)
		const timed = new Map<() => Promise<number>, number[]>([
			[editor, []],
			[cli, []],
			[barePublish, []],
		])
		const busy = performance.eventLoopUtilization()
		for (let round = 0; round < args.rounds; round++) {
			const order = [...timed.keys()]
			if (round % 2 === 1) order.reverse()
			for (const publish of order) await times(publish, args.perRound, timed.get(publish) ?? [])
		}
		return {
			canopy: Float64Array.from(timed.get(editor) ?? []),
			cli: Float64Array.from(timed.get(cli) ?? []),
			bare: Float64Array.from(timed.get(barePublish) ?? []),
			busy: performance.eventLoopUtilization(busy).utilization,
		}
	},
	stop: async () => {
		await bare.end().catch(() => {})
		await storage.close()
		setTimeout(() => process.exit(0), 20)
		return true
	},
})
