// The site-structure benchmark's publication: ARTICLES published articles (10,000 unless told)
// with tags from a pool of 24 and one or two of 40 authors, written through the Storage port as
// an editor's saves are, then one renamed so its old address answers 301. Run from the built
// copy on DATA_DIR or DATABASE_URL; prints one JSON line with the addresses to measure.

import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { articleWriteOf } from '#app/features/articles/article-write.server.ts'
import { renderMarkdown } from '#app/features/articles/markdown.server.ts'
import { storageRules } from '#server/storage-rules.ts'
import { openStorage } from '#storage/open-storage.ts'
import { makeStems } from './stems.ts'

const count = Number(process.env.ARTICLES ?? 10_000)
const storage = openStorage(
	{ databaseUrl: process.env.DATABASE_URL ?? '', dataDir: process.env.DATA_DIR ?? '' },
	storageRules,
)
await storage.migrate()

const tags = Array.from({ length: 24 }, (_, i) => `Topic ${i + 1}`)
const authors = Array.from({ length: 40 }, (_, i) => `Writer ${i + 1}`)
const bodyMarkdown = Array.from(
	{ length: 8 },
	(_, i) =>
		`Paragraph ${i + 1}. Restoring wetlands stores carbon, holds back floods and gives birds a place to rest. ` +
		'Communities that look after them see cleaner water and more fish, and the work pays for itself within years.',
).join('\n\n')
const bodyHtml = await renderMarkdown(bodyMarkdown)
const started = performance.now()
const firstDay = Date.UTC(2020, 0, 1)
for (let i = 0; i < count; i++) {
	const created = await storage.articles.create({
		slug: `report-${i + 1}`,
		title: `Field report ${i + 1}: what the wetlands gave back`,
		summary: 'A survey of restored wetlands: carbon, clean water, fewer floods.',
		bodyMarkdown,
		bodyHtml,
		coverImageUrl: null,
		coverImageAlt: null,
		coverImageWidth: null,
		coverImageHeight: null,
		// Topic 1 on every third article: a big tag; the others spread evenly.
		tags: [...(i % 3 === 0 ? ['Topic 1'] : []), tags[1 + (i % 23)] as string],
		authors: [authors[i % 40] as string, ...(i % 5 === 0 ? [authors[(i + 7) % 40] as string] : [])],
		status: 'published',
		readingMinutes: 1,
		publishedAt: new Date(firstDay + i * 3_600_000).toISOString(),
		notify: false,
	})
	if (!created.ok) throw new Error(`report ${i + 1} was not saved: ${created.reason}`)
}
const writeSeconds = (performance.now() - started) / 1000
// One renamed after it was published: its old address answers 301.
const renamed = await storage.articles.findBySlug('report-1')
if (!renamed) throw new Error('report-1 is missing')
const moved = await storage.articles.update(renamed.id, renamed.version, {
	...articleWriteOf(renamed),
	slug: 'report-1-renamed',
})
if (!moved.ok) throw new Error(`the rename failed: ${moved.reason}`)
// Their search stems, as the server's worker makes them after each save.
const stemSeconds = await makeStems(storage)
await storage.close()
// A site's statistics are current within a minute of a bulk write (autovacuum); the benchmark
// measures that steady state, not the planner's guesses about empty tables.
if (process.env.DATABASE_URL) {
	const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
	await client.connect()
	await client.query('ANALYZE')
	await client.end()
}
console.log(
	JSON.stringify({
		writeSeconds,
		stemSeconds,
		article: `/articles/report-${Math.floor(count / 2)}`,
		tag: '/tags/topic-1',
		author: '/authors/writer-1',
		oldAddress: '/articles/report-1',
		newAddress: '/articles/report-1-renamed',
	}),
)
