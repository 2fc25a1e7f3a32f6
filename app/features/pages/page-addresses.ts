// Where an article or a page is read, and the names a page may not take: a page lives at
// /<slug>, beside the site's own addresses, which always win (docs/decisions/024-pages.md).
import type { ArticleKind } from '#storage/port/articles.ts'

/** The first segment of every address the site answers itself, and the ones it may yet. */
export const reservedSlugs: ReadonlySet<string> = new Set([
	'home',
	'articles',
	'contact',
	'newsletter',
	'admin',
	'api',
	'media',
	'assets',
	'tags',
	'authors',
	'search',
	'pages',
	'feed',
	'rss',
	'atom',
	'sitemap',
	'robots',
	'manifest',
	'favicon',
	'healthz',
	'readyz',
	'sw',
	'opensearch',
	'metrics',
	'logo',
	'apple-touch-icon',
	'language',
])

/**
 * A page's address made from its title, beside the site's own: a page titled "Contact" or
 * "Search" is at /contact-page or /search-page (a typed slug is checked, not changed).
 */
export function pageSlugFromTitle(slug: string): string {
	return reservedSlugs.has(slug) ? `${slug}-page` : slug
}

/** Why `slug` cannot be a page's address; undefined when it can. */
export function pageSlugProblem(slug: string): string | undefined {
	if (!reservedSlugs.has(slug)) return undefined
	return `“${slug}” is one of the site’s own addresses (/${slug}), so a page cannot use it. Choose another slug, e.g. “about-${slug}”.`
}

/** The public address of an article, a page, a tag's page or an author's. */
export function publicPath(kind: ArticleKind | 'tag' | 'author', slug: string): string {
	if (kind === 'tag') return `/tags/${encodeURIComponent(slug)}`
	if (kind === 'author') return `/authors/${encodeURIComponent(slug)}`
	return kind === 'page' ? `/${slug}` : `/articles/${slug}`
}
