// What the site itself shows at an address: content always wins over a redirect (decision 025),
// so a redirect from such an address would never be followed.
import { reservedSlugs } from '#app/features/pages/page-addresses.ts'
import type { Storage } from '#storage/port/storage.ts'
import { redirectPath } from './addresses.ts'

export type ContentAt =
	| { kind: 'article' | 'page' | 'tag' | 'author'; name: string }
	/** One of the site's own addresses: /articles, /contact, /admin/… */
	| { kind: 'site' }

/** What a reader gets at `path` without any redirect; undefined where the site has nothing. */
export async function contentAt(storage: Storage, path: string): Promise<ContentAt | undefined> {
	const address = redirectPath(path)
	if (address.includes('?')) return undefined
	const [first = '', second, ...rest] = address.slice(1).split('/')
	if (second === undefined) {
		if (reservedSlugs.has(first)) return { kind: 'site' }
		const page = await storage.articles.findPublishedBySlug(first, 'page')
		return page ? { kind: 'page', name: page.title } : undefined
	}
	if (rest.length > 0) return undefined
	if (first === 'articles') {
		const article = await storage.articles.findPublishedBySlug(second, 'article')
		return article ? { kind: 'article', name: article.title } : undefined
	}
	if (first === 'tags') {
		const tag = await storage.tags.findBySlug(second)
		return tag ? { kind: 'tag', name: tag.name } : undefined
	}
	if (first === 'authors') {
		const author = await storage.authors.findBySlug(second)
		return author ? { kind: 'author', name: author.name } : undefined
	}
	// The staff area's and the API's addresses, whatever follows.
	if (['admin', 'api', 'assets', 'media'].includes(first)) return { kind: 'site' }
	return undefined
}
