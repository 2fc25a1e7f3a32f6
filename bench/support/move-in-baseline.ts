// The baseline of the move-in benchmark: the same posts, already Markdown, saved one after another
// through saveArticle, Canopy's own write path (render, index, revision, change): what the import
// costs beyond reading, converting and re-hosting. Prints its time as JSON.
import { saveArticle } from '#app/features/articles/articles.server.ts'
import { storageRules } from '#server/storage-rules.ts'
import { openSqliteStorage } from '#storage/sqlite/open-sqlite.ts'
import { markdownPosts } from './move-in-data.ts'

const [file, count] = process.argv.slice(2)
const storage = openSqliteStorage(file ?? '', { rules: storageRules })
await storage.migrate()
const started = performance.now()
for (const post of markdownPosts(Number(count))) {
	const saved = await saveArticle(
		storage,
		{ ...post, publishedAt: '2020-01-01T00:00:00Z' },
		'published',
	)
	if (!saved.ok) throw new Error(JSON.stringify(saved.errors))
}
const elapsed = performance.now() - started
await storage.close()
console.log(JSON.stringify({ ms: elapsed }))
process.exit(0)
