// The media library's work: every image with where it is used (covers, texts, the site's logo)
// and the descriptions it has there; deleting only what nothing uses; replacing an image
// everywhere it is used. An image's address is its content's hash and never changes, so
// "replace" stores the new image and points each use at it, through the articles' own saves
// (readers watching see the change; the page cache is told).
import { articleWriteOf } from '#app/features/articles/article-write.server.ts'
import { renderMarkdown } from '#app/features/articles/markdown.server.ts'
import { readingMinutes } from '#app/features/articles/reading-time.ts'
import { parseQuery } from '#app/features/search/search-query.ts'
import { getSiteSettings, saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import type { Article } from '#storage/port/articles.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { LibraryImage } from '#storage/port/uploads.ts'
import { type ImageMime, isImageMime } from './image-types.ts'
import { imageUrl, type StoreImageResult } from './uploads.server.ts'

export const libraryPageSize = 24

/** One place an image is shown. */
export interface ImageUse {
	/** null: the site's logo. */
	articleId: number | null
	title: string
	status: 'draft' | 'published' | 'logo'
	role: 'cover' | 'text' | 'logo'
	/** The description it has there (a cover's, or the text's `![…]`). */
	alt: string | null
}

export interface LibraryEntry extends LibraryImage {
	url: string
	uses: ImageUse[]
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The descriptions an image has in a Markdown text, one per time it appears. */
function altsInText(markdown: string, hash: string): string[] {
	const pattern = new RegExp(`!\\[([^\\]]*)\\]\\(\\s*<?/media/${escapeRegExp(hash)}\\.[a-z]+`, 'g')
	return [...markdown.matchAll(pattern)].map((match) => match[1] ?? '')
}

function usesIn(article: Article, hash: string): ImageUse[] {
	const base = {
		articleId: article.id,
		title: article.title,
		status: article.status,
	} as const
	const uses: ImageUse[] = []
	if (article.coverImageUrl?.startsWith(`/media/${hash}.`))
		uses.push({ ...base, role: 'cover', alt: article.coverImageAlt })
	// Shown twice in one text with the same description: one use.
	for (const alt of new Set(altsInText(article.bodyMarkdown, hash)))
		uses.push({ ...base, role: 'text', alt: alt || null })
	return uses
}

/** Where each image is used, by hash. */
export async function imageUses(
	storage: Storage,
	hashes: string[],
): Promise<Map<string, ImageUse[]>> {
	const [articles, site] = await Promise.all([
		storage.articles.referencing(hashes),
		getSiteSettings(storage),
	])
	return new Map(
		hashes.map((hash) => {
			const uses = articles.flatMap((article) => usesIn(article, hash))
			if (site.logoUrl.startsWith(`/media/${hash}.`))
				uses.unshift({
					articleId: null,
					title: 'The site’s logo',
					status: 'logo',
					role: 'logo',
					alt: null,
				})
			return [hash, uses]
		}),
	)
}

export async function libraryPage(
	storage: Storage,
	query: { search: string; page: number },
): Promise<{ images: LibraryEntry[]; total: number; pages: number }> {
	const page = Math.max(1, query.page)
	// Words to look for, through the search index; signs alone look for nothing (an empty list).
	const search = query.search.trim() ? parseQuery(query.search) : undefined
	if (search === null) return { images: [], total: 0, pages: 1 }
	const { images, total } = await storage.uploads.library({
		search,
		limit: libraryPageSize,
		offset: (page - 1) * libraryPageSize,
	})
	const uses = await imageUses(
		storage,
		images.map((image) => image.hash),
	)
	return {
		images: images.map((image) => ({
			...image,
			url: imageUrl(image.hash, (isImageMime(image.mime) ? image.mime : 'image/png') as ImageMime),
			uses: uses.get(image.hash) ?? [],
		})),
		total,
		pages: Math.max(1, Math.ceil(total / libraryPageSize)),
	}
}

export function usedMessage(uses: ImageUse[]): string {
	const names = [...new Set(uses.map((use) => use.title))]
	const listed = names.slice(0, 3).join('; ')
	const more = names.length > 3 ? ` and ${names.length - 3} more` : ''
	return `This image is still used (${listed}${more}). Take it out of them first, or replace it with another image.`
}

/** Deletes an image nothing uses; refuses, naming the uses, one still shown somewhere. */
export async function deleteImage(
	storage: Storage,
	hash: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
	const uses = (await imageUses(storage, [hash])).get(hash) ?? []
	if (uses.length > 0) return { ok: false, message: usedMessage(uses) }
	const deleted = await storage.uploads.delete(hash)
	return deleted ? { ok: true } : { ok: false, message: 'This image was deleted already.' }
}

/**
 * Puts the stored image `replacement` everywhere `hash` is used: each article's cover and text
 * (saved over the version read, so an edit made meanwhile is never lost: that article is
 * reported instead), and the site's logo. The old image stays in the library, unused.
 */
export async function replaceImage(
	storage: Storage,
	hash: string,
	replacement: Extract<StoreImageResult, { ok: true }>['upload'],
): Promise<{ replaced: number; missed: string[] }> {
	const old = await storage.uploads.describe(hash)
	if (!old || !isImageMime(old.mime)) return { replaced: 0, missed: [] }
	const oldUrl = imageUrl(old.hash, old.mime)
	const outcome = { replaced: 0, missed: [] as string[] }
	for (const article of await storage.articles.referencing([hash])) {
		const bodyMarkdown = article.bodyMarkdown.split(oldUrl).join(replacement.url)
		const cover = article.coverImageUrl === oldUrl
		// The article as it stands, with the image swapped.
		const saved = await storage.articles.update(article.id, article.version, {
			...articleWriteOf(article),
			bodyMarkdown,
			bodyHtml: await renderMarkdown(bodyMarkdown),
			readingMinutes: readingMinutes(bodyMarkdown),
			...(cover
				? {
						coverImageUrl: replacement.url,
						coverImageWidth: replacement.width,
						coverImageHeight: replacement.height,
					}
				: {}),
		})
		if (saved.ok) outcome.replaced++
		else outcome.missed.push(article.title)
	}
	const site = await getSiteSettings(storage)
	if (site.logoUrl === oldUrl) {
		await saveSiteSettings(storage, { logoUrl: replacement.url })
		outcome.replaced++
	}
	return outcome
}
