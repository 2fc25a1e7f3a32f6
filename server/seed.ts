// Sample content for a new site: the articles in server/seed/articles, published through the
// same feature code as everything else, once in the site's life, when the database has no
// article at all. Instances starting together on a new database agree on one of them to add it
// (settings.setIfAbsent): two adding the same articles at once would collide on their slugs.
import { readdirSync, readFileSync } from 'node:fs'
import { saveArticle } from '#app/features/articles/articles.server.ts'
import { parseArticleFile } from '#app/features/articles/front-matter.server.ts'
import { slugify } from '#app/features/articles/slug.ts'
import type { Storage } from '#storage/port/storage.ts'
import { processName } from './instance.ts'

const folder = new URL('./seed/articles/', import.meta.url)
/** The sample authors' bios, by profile address: their pages have something to say. */
const bios = new URL('./seed/authors.json', import.meta.url)

function sampleFiles(): { file: string; fields: Record<string, unknown> }[] {
	return readdirSync(folder)
		.filter((file) => file.endsWith('.md'))
		.sort()
		.map((file) => ({
			file,
			fields: parseArticleFile(readFileSync(new URL(file, folder), 'utf8')),
		}))
}

/** The sample articles' slugs: an import may replace them (docs/decisions/015-portable-export.md). */
export function sampleSlugs(): string[] {
	return sampleFiles().map(({ fields }) =>
		typeof fields.slug === 'string' ? fields.slug : slugify(String(fields.title)),
	)
}

export async function seedIfEmpty(storage: Storage, instance = processName): Promise<number> {
	if ((await storage.articles.count()) > 0) return 0
	if ((await storage.settings.setIfAbsent('seed.addedBy', instance)) !== instance) return 0
	const samples = sampleFiles()
	for (const { file, fields } of samples) {
		const result = await saveArticle(storage, fields, 'published')
		if (!result.ok)
			throw new Error(`seed article ${file} is invalid: ${JSON.stringify(result.errors)}`)
	}
	const sampleBios = JSON.parse(readFileSync(bios, 'utf8')) as Record<string, string>
	for (const [slug, bio] of Object.entries(sampleBios)) {
		const author = await storage.authors.findBySlug(slug)
		if (author) await storage.authors.update(author.id, { ...author, bio })
	}
	return samples.length
}
