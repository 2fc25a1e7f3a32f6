// Whether a menu link to one of this site's own addresses leads anywhere: a link to a page not
// yet published (or unpublished since), a tag merged away, an author gone, sends readers to the
// home page, as every unknown address does. The navigation editor says so beside the link.
import { reservedSlugs } from '#app/features/pages/page-addresses.ts'
import { redirectPath } from '#app/features/redirects/addresses.ts'
import type { Storage } from '#storage/port/storage.ts'

/** True when readers following `href` would land on the home page instead of what it names. */
export async function leadsNowhere(storage: Storage, href: string): Promise<boolean> {
	// Other sites, and the site's root, are not checked.
	if (!href.startsWith('/') || href.startsWith('//')) return false
	const path = redirectPath(href.split(/[?#]/)[0] ?? '')
	const segments = path.split('/').filter(Boolean)
	const [first = '', second = ''] = segments
	if (segments.length === 0 || (reservedSlugs.has(first) && segments.length === 1)) return false
	// A file (/feed.xml), or an address a redirect takes somewhere.
	if (/\.[a-z0-9]{1,12}$/i.test(path) || (await storage.redirects.find(path))) return false
	if (segments.length === 1) return !(await storage.articles.findPublishedBySlug(first, 'page'))
	if (segments.length === 2) {
		if (first === 'articles')
			return !(await storage.articles.findPublishedBySlug(second, 'article'))
		if (first === 'tags') return !(await storage.tags.findBySlug(second))
		if (first === 'authors') return !(await storage.authors.findBySlug(second))
	}
	return false
}
