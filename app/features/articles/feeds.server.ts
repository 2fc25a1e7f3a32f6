import { Feed } from 'feed'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { versionUpTo } from '#app/features/uploads/responsive-image.ts'
import { absoluteUrl } from '#app/lib/seo.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Tag } from '#storage/port/terms.ts'

const feedSize = 20

/** The site's feed, or with a tag, that tag's: its articles only, at its own address. */
export async function buildFeed(storage: Storage, siteUrl: string, tag?: Tag): Promise<Feed> {
	const [site, articles] = await Promise.all([
		getSiteSettings(storage),
		storage.articles.listPublishedFull(feedSize, { tag: tag?.slug }),
	])
	const home = absoluteUrl(siteUrl, tag ? publicPath('tag', tag.slug) : '/')
	const feeds = tag ? `${publicPath('tag', tag.slug)}/` : '/'
	const feed = new Feed({
		id: home,
		title: tag ? `${tag.name} · ${site.title}` : site.title,
		description: (tag?.description || undefined) ?? site.tagline,
		link: home,
		language: 'en',
		favicon: absoluteUrl(siteUrl, '/favicon.ico'),
		image: absoluteUrl(siteUrl, site.logoUrl),
		copyright: `© ${site.title}`,
		updated: articles[0] ? new Date(articles[0].updatedAt) : new Date(0),
		generator: 'Canopy',
		feedLinks: {
			rss: absoluteUrl(siteUrl, `${feeds}feed.xml`),
			atom: absoluteUrl(siteUrl, `${feeds}atom.xml`),
		},
	})
	for (const article of articles) {
		const link = absoluteUrl(siteUrl, `/articles/${article.slug}`)
		feed.addItem({
			id: link,
			title: article.title,
			link,
			description: article.summary,
			content: article.bodyHtml,
			date: new Date(article.updatedAt),
			published: new Date(article.publishedAt ?? article.createdAt),
			author: article.authors.map((author) => ({
				name: author.name,
				link: absoluteUrl(siteUrl, publicPath('author', author.slug)),
			})),
			category: article.tags.map((tag) => ({
				name: tag.name,
				domain: absoluteUrl(siteUrl, publicPath('tag', tag.slug)),
			})),
			// The cover at 960 px: enough for any reader's card, a tenth of a camera's file.
			image: article.coverImageUrl ? feedImage(siteUrl, article) : undefined,
		})
	}
	return feed
}

function feedImage(
	siteUrl: string,
	article: {
		coverImageUrl: string | null
		coverImageWidth: number | null
		coverImageHeight: number | null
	},
) {
	const { url, mime } = versionUpTo(
		{
			url: article.coverImageUrl ?? '',
			width: article.coverImageWidth,
			height: article.coverImageHeight,
		},
		960,
	)
	return { url: absoluteUrl(siteUrl, url), type: mime }
}

export async function buildSitemap(storage: Storage, siteUrl: string): Promise<string> {
	const [articles, pages, tags, authors] = await Promise.all([
		storage.articles.listPublishedAddresses(50_000),
		storage.articles.listPublishedPages(),
		storage.tags.list(),
		storage.authors.list(),
	])
	const url = (path: string, lastmod?: string) =>
		`<url><loc>${absoluteUrl(siteUrl, path)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
		url('/home', articles[0]?.updatedAt),
		url('/articles', articles[0]?.updatedAt),
		url('/contact'),
		...pages.map((page) => url(`/${encodeURIComponent(page.slug)}`, page.updatedAt)),
		// A tag's or an author's page with nothing published on it is not worth a visit.
		...tags.filter((tag) => tag.articles > 0).map((tag) => url(publicPath('tag', tag.slug))),
		...authors
			.filter((author) => author.articles > 0)
			.map((author) => url(publicPath('author', author.slug))),
		...articles.map((article) =>
			url(`/articles/${encodeURIComponent(article.slug)}`, article.updatedAt),
		),
		'</urlset>',
		'',
	].join('\n')
}
