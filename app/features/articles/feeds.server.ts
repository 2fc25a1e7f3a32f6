import { Feed } from 'feed'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { versionUpTo } from '#app/features/uploads/responsive-image.ts'
import { absoluteUrl } from '#app/lib/seo.ts'
import type { Storage } from '#storage/port/storage.ts'

const feedSize = 20

export async function buildFeed(storage: Storage, siteUrl: string): Promise<Feed> {
	const [site, articles] = await Promise.all([
		getSiteSettings(storage),
		storage.articles.listPublishedFull(feedSize),
	])
	const home = absoluteUrl(siteUrl, '/')
	const feed = new Feed({
		id: home,
		title: site.title,
		description: site.tagline,
		link: home,
		language: 'en',
		favicon: absoluteUrl(siteUrl, '/favicon.ico'),
		image: absoluteUrl(siteUrl, site.logoUrl),
		copyright: `© ${site.title}`,
		updated: articles[0] ? new Date(articles[0].updatedAt) : new Date(0),
		generator: 'Canopy',
		feedLinks: { rss: absoluteUrl(siteUrl, '/feed.xml'), atom: absoluteUrl(siteUrl, '/atom.xml') },
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
			author: article.authorName ? [{ name: article.authorName }] : undefined,
			category: article.tags.map((tag) => ({ name: tag })),
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
	const [articles, pages] = await Promise.all([
		storage.articles.listPublished({ limit: 50_000 }),
		storage.articles.listPublishedPages(),
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
		...articles.map((article) =>
			url(`/articles/${encodeURIComponent(article.slug)}`, article.updatedAt),
		),
		'</urlset>',
		'',
	].join('\n')
}
