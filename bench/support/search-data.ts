// The search benchmark's publication and its measurements in the database, run from a built
// copy (the working tree's, or an earlier commit's for the baseline) on DATA_DIR or DATABASE_URL.
// One JSON line on stdout. Modes (argv[2]):
//   fill     ARTICLES (10,000) published articles of ~1,000 words through the Storage port, each
//            save timed; planted words: "peatlands" in 1 in 1,000, the phrase "river clean-up"
//            in 1 in 100, "water" in nearly all.
//   publish  COUNT (300) more published articles, each save (one transaction) timed.
//   query    each kind of search through the Storage port, REPEAT (300) times each, beside the
//            staff lists' former LIKE query on the same database (working tree only).
//   migrate  the working tree's migrations over an earlier commit's database: how long building
//            the index for existing articles takes.

import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import { storageRules } from '#server/storage-rules.ts'
import { openStorage } from '#storage/open-storage.ts'
import { percentile } from './report.ts'
import { makeStems, stemsModule } from './stems.ts'

const mode = process.argv[2] ?? 'fill'
const databaseUrl = process.env.DATABASE_URL ?? ''
const dataDir = process.env.DATA_DIR ?? ''

/** A deterministic generator (mulberry32): every run writes the same publication. */
function random(seed: number) {
	let state = seed >>> 0
	return () => {
		state = (state + 0x6d2b79f5) >>> 0
		let t = state
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

const common = (
	'the of and to in a is that for it as with was on be by this are from at or have an they ' +
	'which one you were all we can there their has more also been when will would who so if ' +
	'out about up what into some them only other its time than then could these two may first ' +
	'water land river forest soil carbon people community restoration wildlife climate local ' +
	'project year species habitat volunteers farmers rain trees flood birds season survey'
).split(' ')
const syllables = 'ka lo mi ne ru sa te vi ba do fe gu ha jo ki la ma no pe ri so tu ve wa'.split(
	' ',
)
const pick = random(7)
/** 5,000 rarer words made of syllables: the long tail of a real vocabulary. */
const tail = Array.from({ length: 5_000 }, (_, i) => {
	let word = ''
	for (let n = 0; n < 2 + (i % 3); n++) word += syllables[Math.floor(pick() * syllables.length)]
	return `${word}${i % 7 === 0 ? 's' : ''}`
})

function body(i: number): string {
	const next = random(1_000 + i)
	const words: string[] = []
	while (words.length < 1_000) {
		// Zipf-like: the common words most of the time, the tail skewed towards its head.
		const roll = next()
		words.push(
			roll < 0.55
				? (common[Math.floor(next() * common.length)] as string)
				: (tail[Math.floor(next() ** 2 * tail.length)] as string),
		)
	}
	if (i % 1_000 === 7) words.splice(400, 0, 'peatlands')
	if (i % 100 === 3) words.splice(600, 0, 'river', 'clean-up')
	const paragraphs: string[] = []
	for (let start = 0; start < words.length; start += 90)
		paragraphs.push(`${words.slice(start, start + 90).join(' ')}.`)
	return paragraphs.join('\n\n')
}

const storage = openStorage({ databaseUrl, dataDir }, storageRules)

async function publish(i: number): Promise<number> {
	const started = performance.now()
	const created = await storage.articles.create({
		slug: `field-notes-${i + 1}`,
		title: `Field notes ${i + 1}: ${tail[i % tail.length]} ${common[40 + (i % 30)]}`,
		summary: `What the ${common[40 + ((i * 7) % 30)]} survey found this season.`,
		bodyMarkdown: body(i),
		bodyHtml: '<p>Field notes.</p>',
		coverImageUrl: null,
		coverImageAlt: null,
		coverImageWidth: null,
		coverImageHeight: null,
		tags: [`Topic ${1 + (i % 24)}`],
		authors: [`Writer ${1 + (i % 40)}`],
		status: 'published',
		readingMinutes: 5,
		publishedAt: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
		notify: false,
	})
	if (!created.ok) throw new Error(`article ${i + 1} was not saved: ${created.reason}`)
	return performance.now() - started
}

const summary = (durations: number[]) => {
	const ordered = [...durations].sort((a, b) => a - b)
	return { count: ordered.length, p50: percentile(ordered, 50), p99: percentile(ordered, 99) }
}

let result: unknown
if (mode === 'fill') {
	await storage.migrate()
	const count = Number(process.env.ARTICLES ?? 10_000)
	const started = performance.now()
	const durations: number[] = []
	for (let i = 0; i < count; i++) durations.push(await publish(i))
	const writeSeconds = (performance.now() - started) / 1000
	result = { writeSeconds, stemSeconds: await makeStems(storage), ...summary(durations) }
	// A site's statistics are current within a minute of a bulk write (autovacuum): measure that
	// steady state, not the planner's guesses about empty tables.
	if (databaseUrl) {
		const client = new pg.Client({ connectionString: databaseUrl })
		await client.connect()
		await client.query('ANALYZE')
		await client.end()
	}
} else if (mode === 'publish') {
	const from = Number(process.env.FROM ?? 100_000)
	const count = Number(process.env.COUNT ?? 300)
	const durations: number[] = []
	for (let i = from; i < from + count; i++) durations.push(await publish(i))
	result = summary(durations)
} else if (mode === 'migrate') {
	const started = performance.now()
	const applied = await storage.migrate()
	result = { seconds: (performance.now() - started) / 1000, applied }
} else {
	const { parseQuery } = await import('#app/features/search/search-query.ts')
	// The publish rounds' articles too, as the server's worker would have.
	await makeStems(storage)
	const stems = await stemsModule()
	const repeat = Number(process.env.REPEAT ?? 300)
	const queries = {
		common: 'water',
		rare: 'peatlands',
		phrase: '"river clean-up"',
		none: 'zebrafishery',
	}
	// The staff lists' query before the index (title, slug and summary, LIKE '%…%', newest 20 and
	// the count), on the same database through its own driver.
	const likeSql = (dialect: 'sqlite' | 'postgres') => {
		const p = dialect === 'sqlite' ? ['?', '?', '?'] : ['$1', '$1', '$1']
		const where = `kind = 'article' AND (lower(title) LIKE ${p[0]} OR lower(slug) LIKE ${p[1]} OR lower(summary) LIKE ${p[2]})`
		return [
			`SELECT id, slug, title, status, updated_at FROM articles WHERE ${where} ORDER BY updated_at DESC, id DESC LIMIT 20`,
			`SELECT count(*) AS n FROM articles WHERE ${where}`,
		]
	}
	let like: (pattern: string) => Promise<void>
	let closeLike: () => Promise<void>
	if (databaseUrl) {
		const client = new pg.Client({ connectionString: databaseUrl })
		await client.connect()
		const [list, count] = likeSql('postgres') as [string, string]
		like = async (pattern) => {
			await client.query(list, [pattern])
			await client.query(count, [pattern])
		}
		closeLike = () => client.end()
	} else {
		const db = new DatabaseSync(join(dataDir, 'canopy.db'), { readOnly: true })
		const [list, count] = likeSql('sqlite').map((text) => db.prepare(text))
		like = async (pattern) => {
			list?.all(pattern, pattern, pattern)
			count?.all(pattern, pattern, pattern)
		}
		closeLike = async () => db.close()
	}
	const figures: Record<string, unknown> = {}
	for (const [name, text] of Object.entries(queries)) {
		const parsed = parseQuery(text)
		if (!parsed) throw new Error(`no query in ${text}`)
		// As /search asks it: each word with its stems, on a site in English.
		const query = stems ? await stems.withStems(parsed, text, ['en']) : parsed
		const options = {
			includeDrafts: false,
			kinds: ['article', 'page'] as ('article' | 'page')[],
			limit: 10,
			offset: 0,
		}
		let total = 0
		for (let n = 0; n < 20; n++) total = (await storage.search.search(query, options)).total
		const searched: number[] = []
		for (let n = 0; n < repeat; n++) {
			const started = performance.now()
			await storage.search.search(query, options)
			searched.push(performance.now() - started)
		}
		const pattern = `%${text.replaceAll('"', '').toLowerCase()}%`
		const liked: number[] = []
		for (let n = 0; n < Math.min(repeat, 100); n++) {
			const started = performance.now()
			await like(pattern)
			liked.push(performance.now() - started)
		}
		figures[name] = { text, total, search: summary(searched), like: summary(liked) }
	}
	await closeLike()
	result = figures
}
await storage.close()
process.stdout.write(`${JSON.stringify(result)}\n`)
