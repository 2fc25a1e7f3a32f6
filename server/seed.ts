// Sample content for a new site: the articles in server/seed/articles, published through the
// same feature code as everything else, only when the database has no article at all.
import { readdirSync, readFileSync } from 'node:fs'
import { saveArticle } from '#app/features/articles/articles.server.ts'
import { parseArticleFile } from '#app/features/articles/front-matter.server.ts'
import type { Storage } from './storage/types.ts'

const folder = new URL('./seed/articles/', import.meta.url)

export async function seedIfEmpty(storage: Storage): Promise<number> {
	if ((await storage.articles.count()) > 0) return 0
	const files = readdirSync(folder)
		.filter((file) => file.endsWith('.md'))
		.sort()
	for (const file of files) {
		const result = await saveArticle(
			storage,
			parseArticleFile(readFileSync(new URL(file, folder), 'utf8')),
			'published',
		)
		if (!result.ok)
			throw new Error(`seed article ${file} is invalid: ${JSON.stringify(result.errors)}`)
	}
	return files.length
}
