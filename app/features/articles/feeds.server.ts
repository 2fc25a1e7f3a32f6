import { Feed } from 'feed'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { siteLocales } from '#app/features/site/site-settings.ts'
import { taglineIn } from '#app/features/site/tagline.ts'
import { versionUpTo } from '#app/features/uploads/responsive-image.ts'
import { contentListLanguage } from '#app/lib/i18n.server.ts'
import { i18nFor, interfaceLocaleOf, normaliseLanguageTag } from '#app/lib/i18n.ts'
import { absoluteUrl } from '#app/lib/seo.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { AuthorProfile, Tag } from '#storage/port/terms.ts'

const feedSize = 20

/** A feed's language from its address (`?lang=es`): undefined for every language. */
export function feedLanguage(request: Request): string | undefined {
	const asked = new URL(request.url).searchParams.get('lang')
	return asked ? normaliseLanguageTag(asked) : undefined
}

export type FeedFormat = 'rss' | 'atom'

/**
 * An article's entry id, which feed readers use to know an entry they have shown: it never
 * changes with the article's address (a renamed slug would otherwise come back as a new entry).
 * A tag URI (RFC 4151): the site's host, the day the article was made, its number.
 */
function feedEntryId(siteUrl: string, article: { id: number; createdAt: string }): string {
	const day = article.createdAt.slice(0, 10)
	return `tag:${new URL(siteUrl).hostname},${day}:article/${article.id}`
}

/** RSS 2.0 allows a channel image in GIF, JPEG or PNG only. */
const rssImageTypes = /\.(png|jpe?g|gif)$/i

/** A feed of one tag's or one author's articles, at their page's address. */
export type FeedScope = { kind: 'tag'; tag: Tag } | { kind: 'author'; author: AuthorProfile }

/**
 * Addresses on this site made whole (`/media/…` → `https://site/media/…`) in an article's HTML:
 * a feed reader shows the text away from the site, where a path leads nowhere.
 */
export function withWholeAddresses(html: string, siteUrl: string): string {
	const origin = new URL(siteUrl).origin
	const whole = (address: string) =>
		address.startsWith('/') && !address.startsWith('//') ? `${origin}${address}` : address
	return html
		.replace(
			/\b(src|href)="([^"]*)"/g,
			(_, name: string, value: string) => `${name}="${whole(value)}"`,
		)
		.replace(
			/\bsrcset="([^"]*)"/g,
			(_, value: string) =>
				`srcset="${value
					.split(',')
					.map((candidate) => {
						const [address = '', ...rest] = candidate.trim().split(/\s+/)
						return [whole(address), ...rest].join(' ')
					})
					.join(', ')}"`,
		)
}

/**
 * The site's feed, or a tag's or an author's, as RSS 2.0 or Atom: its articles only, at its own
 * address. With a language, only the articles in it (those naming none count as the site's
 * language).
 */
export async function renderFeed(
	storage: Storage,
	siteUrl: string,
	format: FeedFormat,
	scope?: FeedScope,
	language?: string,
): Promise<string> {
	const site = await getSiteSettings(storage)
	const filter = language ? contentListLanguage(site, language) : undefined
	const articles = await storage.articles.listPublishedFull(feedSize, {
		tag: scope?.kind === 'tag' ? scope.tag.slug : undefined,
		author: scope?.kind === 'author' ? scope.author.slug : undefined,
		language: filter,
	})
	const page =
		scope?.kind === 'tag'
			? publicPath('tag', scope.tag.slug)
			: scope?.kind === 'author'
				? publicPath('author', scope.author.slug)
				: undefined
	const term = scope?.kind === 'tag' ? scope.tag : scope?.author
	const about = scope?.kind === 'tag' ? scope.tag.description : scope?.author.bio
	const home = absoluteUrl(siteUrl, page ?? '/')
	const feeds = page ? `${page}/` : '/'
	const query = language ? `?lang=${encodeURIComponent(language)}` : ''
	const logo = absoluteUrl(siteUrl, site.logoUrl)
	// The feed's language, and each entry's where it differs (an article naming none is in the
	// site's): a reader then hyphenates, speaks and sets Arabic right to left in an English feed.
	const feedLanguage = language ?? site.language
	const entryLanguages = articles.map((article) => article.language || site.language)
	const feed = new Feed({
		id: home,
		title: term ? `${term.name} · ${site.title}` : site.title,
		description:
			(about || undefined) ??
			taglineIn(i18nFor(interfaceLocaleOf(language) ?? siteLocales(site).language), site),
		link: home,
		language: feedLanguage,
		favicon: absoluteUrl(siteUrl, '/favicon.ico'),
		image: format === 'atom' || rssImageTypes.test(new URL(logo).pathname) ? logo : undefined,
		copyright: `© ${site.title}`,
		updated: articles[0] ? new Date(articles[0].updatedAt) : new Date(0),
		generator: 'Canopy',
		feedLinks: {
			rss: absoluteUrl(siteUrl, `${feeds}feed.xml${query}`),
			atom: absoluteUrl(siteUrl, `${feeds}atom.xml${query}`),
		},
	})
	for (const [index, article] of articles.entries()) {
		const entryLanguage = entryLanguages[index] ?? feedLanguage
		const link = absoluteUrl(siteUrl, `/articles/${article.slug}`)
		feed.addItem({
			id: feedEntryId(siteUrl, article),
			title: article.title,
			link,
			description: article.summary,
			content: withWholeAddresses(article.bodyHtml, siteUrl),
			date: new Date(article.updatedAt),
			published: new Date(article.publishedAt ?? article.createdAt),
			// RSS's <author> is an email address, which Canopy never publishes: names go in
			// Dublin Core's <dc:creator>, which feed readers show as the author.
			author:
				format === 'atom'
					? article.authors.map((author) => ({
							name: author.name,
							link: absoluteUrl(siteUrl, publicPath('author', author.slug)),
						}))
					: undefined,
			extensions:
				format === 'rss'
					? [
							...(article.authors.length > 0
								? [
										{
											name: 'dc:creator',
											// One element per author: the library's XML writer repeats an
											// array's elements, though its type names a single element only.
											objects: article.authors.map((author) => ({
												_text: author.name,
											})) as unknown as Record<string, unknown>,
										},
									]
								: []),
							// RSS has no language of an item's own: Dublin Core's says it.
							...(entryLanguage === feedLanguage
								? []
								: [{ name: 'dc:language', objects: { _text: entryLanguage } }]),
						]
					: undefined,
			// Atom's category needs a term; RSS's names the tag's page as its domain.
			category: article.tags.map((tag) => ({
				name: tag.name,
				term: tag.name,
				domain: absoluteUrl(siteUrl, publicPath('tag', tag.slug)),
			})),
			// The cover at 960 px: enough for any reader's card, a tenth of a camera's file.
			image: article.coverImageUrl ? feedImage(siteUrl, article) : undefined,
		})
	}
	if (format === 'rss') return feed.rss2()
	// Atom says a language with xml:lang, which the library does not write: added to the <feed>
	// and to each <entry> in another language, in the order the entries were added. An entry's
	// element is a line of its own at the feed's first indent (the library writes 4 spaces a
	// level); a title or summary, raw in CDATA, may say "<entry>" but never as such a line.
	let entry = 0
	return feed
		.atom1()
		.replace(
			'<feed xmlns="http://www.w3.org/2005/Atom">',
			`<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(feedLanguage)}">`,
		)
		.replace(/^ {4}<entry>$/gm, () => {
			const entryLanguage = entryLanguages[entry++] ?? feedLanguage
			return entryLanguage === feedLanguage
				? '    <entry>'
				: `    <entry xml:lang="${escapeXml(entryLanguage)}">`
		})
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
	const [articles, pages, tags, authors, site] = await Promise.all([
		storage.articles.listPublishedAddresses(50_000),
		storage.articles.listPublishedPages(),
		storage.tags.list(),
		storage.authors.list(),
		getSiteSettings(storage),
	])
	const url = (path: string, lastmod?: string, alternates = '') =>
		`<url><loc>${escapeXml(absoluteUrl(siteUrl, path))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}${alternates}</url>`
	// Each language of an article or page names all of them, itself too (Google's hreflang rules).
	const addressed = [
		...articles.map((article) => ({ ...article, path: publicPath('article', article.slug) })),
		...pages.map((page) => ({ ...page, path: publicPath('page', page.slug) })),
	]
	const groups = new Map<number, typeof addressed>()
	for (const entry of addressed) {
		const group = entry.translationOf ?? entry.id
		groups.set(group, [...(groups.get(group) ?? []), entry])
	}
	const alternatesOf = (entry: (typeof addressed)[number]) => {
		const group = groups.get(entry.translationOf ?? entry.id) ?? []
		if (group.length < 2) return ''
		return group
			.map(
				(member) =>
					`<xhtml:link rel="alternate" hreflang="${escapeXml(member.language || site.language)}" href="${escapeXml(absoluteUrl(siteUrl, member.path))}"/>`,
			)
			.join('')
	}
	const entry = (item: (typeof addressed)[number]) =>
		url(item.path, item.updatedAt, alternatesOf(item))
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
		url('/home', articles[0]?.updatedAt),
		url('/articles', articles[0]?.updatedAt),
		url('/contact'),
		...addressed.filter((item) => !item.path.startsWith('/articles/')).map(entry),
		// A tag's or an author's page with nothing published on it is not worth a visit.
		...tags.filter((tag) => tag.articles > 0).map((tag) => url(publicPath('tag', tag.slug))),
		...authors
			.filter((author) => author.articles > 0)
			.map((author) => url(publicPath('author', author.slug))),
		...addressed.filter((item) => item.path.startsWith('/articles/')).map(entry),
		'</urlset>',
		'',
	].join('\n')
}

function escapeXml(text: string): string {
	return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
