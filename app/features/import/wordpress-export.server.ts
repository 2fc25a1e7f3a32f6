// WordPress's export (Tools → Export → All content): WXR, an RSS 2.0 file with WordPress's own
// elements. Read as a stream in two passes: the site's authors, categories and tags and every
// attachment (a post's featured image is an attachment that may come after it), then the posts
// and pages one at a time. No DTD is read and no entity expanded (saxes does neither).
import { createReadStream } from 'node:fs'
import { SaxesParser, type SaxesTagNS } from 'saxes'
import { plainText } from './html-to-markdown.server.ts'
import {
	type ImportSource,
	type SkippedSource,
	type SourceAuthor,
	SourceFileError,
	type SourcePost,
	type SourceTag,
	type TermName,
} from './import-source.ts'

/**
 * An element's text past this is cut: no field of an export needs more (a post's text: 2 MB). A
 * post whose text, title or excerpt was cut is not brought in; a cut custom field (a plugin's
 * serialised data) is left out and the post kept.
 */
const maxFieldLength = 4_000_000

/** One `<item>` or channel-level `<wp:…>` record: its fields by qualified name. */
interface WxrRecord {
	fields: Map<string, string>
	categories: { domain: string; slug: string; name: string }[]
	meta: Map<string, string>
	/** Whether a field was longer than maxFieldLength (custom fields left aside). */
	cut: boolean
}

/**
 * The file's encoding: its byte order mark's, which wins (XML 1.0, appendix F); else the one its
 * XML declaration names (old WordPress sites set to ISO-8859-1 or windows-1252 export in it);
 * else UTF-8, as XML says.
 */
function declaredEncoding(head: Buffer): string {
	if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8'
	if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le'
	if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be'
	const declaration = /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
		head.subarray(0, 512).toString('latin1'),
	)
	return declaration?.[1]?.toLowerCase() ?? 'utf-8'
}

/** The file's text, decoded as its declaration says, chunk by chunk. */
async function* decodedText(file: string): AsyncGenerator<string> {
	let decoder: TextDecoder | undefined
	for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
		if (!decoder) {
			const encoding = declaredEncoding(chunk)
			try {
				decoder = new TextDecoder(encoding)
			} catch {
				throw new SourceFileError(
					`This WordPress export is in an encoding Canopy cannot read (${encoding}). Export it again from WordPress, or convert it to UTF-8 (for example with iconv) and change encoding="${encoding}" on its first line to encoding="UTF-8".`,
				)
			}
		}
		yield decoder.decode(chunk, { stream: true })
	}
	const rest = decoder?.decode() ?? ''
	if (rest) yield rest
}

const namespaces: [RegExp, string][] = [
	[/^https?:\/\/wordpress\.org\/export\/[\d.]+\/excerpt\/$/, 'excerpt'],
	[/^https?:\/\/wordpress\.org\/export\/[\d.]+\/$/, 'wp'],
	[/^http:\/\/purl\.org\/rss\/1\.0\/modules\/content\/$/, 'content'],
	[/^http:\/\/purl\.org\/dc\/elements\/1\.1\/$/, 'dc'],
]

/** `wp:post_type`, whatever prefix the file gave WordPress's namespace. */
function nameOf(tag: SaxesTagNS): string {
	const known = namespaces.find(([uri]) => uri.test(tag.uri))
	return known ? `${known[1]}:${tag.local}` : tag.local
}

const records = new Set(['item', 'wp:author', 'wp:category', 'wp:tag'])

/**
 * The file's records in order, with the channel's own fields (its link, the site's base address)
 * as a record named `channel` before the first item.
 */
async function* readRecords(file: string): AsyncGenerator<[string, WxrRecord]> {
	const parser = new SaxesParser({ xmlns: true })
	const ready: [string, WxrRecord][] = []
	const stack: string[] = []
	const channel: WxrRecord = { fields: new Map(), categories: [], meta: new Map(), cut: false }
	let channelSent = false
	let current: { name: string; record: WxrRecord } | undefined
	let text = ''
	let category: { domain: string; slug: string } | undefined
	let metaKey = ''
	let sawRss = false
	/** Whether the element being read was longer than maxFieldLength. */
	let textCut = false
	parser.on('opentag', (tag) => {
		const name = nameOf(tag)
		if (stack.length === 0) sawRss = name === 'rss'
		stack.push(name)
		text = ''
		textCut = false
		if (records.has(name) && !current) {
			if (name === 'item' && !channelSent) {
				ready.push(['channel', channel])
				channelSent = true
			}
			current = {
				name,
				record: { fields: new Map(), categories: [], meta: new Map(), cut: false },
			}
		}
		if (name === 'category' && current?.name === 'item')
			category = {
				domain: String(tag.attributes.domain?.value ?? ''),
				slug: String(tag.attributes.nicename?.value ?? ''),
			}
	})
	const take = (chunk: string) => {
		if (text.length < maxFieldLength) text += chunk
		else textCut = true
	}
	parser.on('text', take)
	parser.on('cdata', take)
	parser.on('closetag', (tag) => {
		const name = nameOf(tag)
		stack.pop()
		const value = text.trim()
		// A custom field too long to read is left out; any other field cut leaves its post out.
		if (current && textCut && name !== 'wp:meta_value') current.record.cut = true
		if (current && name === current.name) {
			ready.push([current.name, current.record])
			current = undefined
		} else if (current) {
			const { record } = current
			if (name === 'category' && category) {
				record.categories.push({ ...category, name: value })
				category = undefined
			} else if (name === 'wp:meta_key') metaKey = value
			else if (name === 'wp:meta_value') {
				if (!textCut) record.meta.set(metaKey, value)
			} else if (!record.fields.has(name)) record.fields.set(name, value)
		} else if (stack.at(-1) === 'channel' && !channel.fields.has(name)) {
			channel.fields.set(name, value)
		}
		text = ''
		textCut = false
	})
	let failure: Error | undefined
	parser.on('error', (error) => {
		failure = error
	})
	try {
		for await (const chunk of decodedText(file)) {
			// Characters XML forbids, pasted from word processors: dropped, not a reason to refuse.
			// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
			parser.write(chunk.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g, ''))
			if (failure) break
			yield* ready.splice(0)
		}
		if (!failure) parser.close()
	} catch (error) {
		if (error instanceof SourceFileError) throw error
		failure = error as Error
	}
	if (failure)
		throw new SourceFileError(
			`This WordPress export cannot be read (${failure.message.replace(/^(?:.*?:)?(\d+):\d+: (.*?)\.?$/, 'line $1: $2')}). Export it again from WordPress (Tools → Export → All content) and give that file.`,
		)
	if (!sawRss)
		throw new SourceFileError(
			'This is not a WordPress export: WordPress makes an RSS file (.xml) under Tools → Export → All content. Give that file.',
		)
	if (!channelSent) ready.push(['channel', channel])
	yield* ready.splice(0)
}

/** "2024-01-15 09:30:00" in UTC (WordPress's _gmt dates), or the RSS pubDate. */
function wpDate(record: WxrRecord): string | null {
	const gmt = record.fields.get('wp:post_date_gmt')
	if (gmt && !gmt.startsWith('0000')) {
		const parsed = new Date(`${gmt.replace(' ', 'T')}Z`)
		if (!Number.isNaN(parsed.getTime())) return parsed.toISOString()
	}
	// RSS's pubDate carries its offset; wp:post_date is the site's local time, zone unknown.
	const published = record.fields.get('pubDate')
	if (published && !published.startsWith('Mon, 30 Nov -0001')) {
		const parsed = new Date(published)
		if (!Number.isNaN(parsed.getTime())) return parsed.toISOString()
	}
	const local = record.fields.get('wp:post_date')
	if (local && !local.startsWith('0000')) {
		const parsed = new Date(`${local.replace(' ', 'T')}Z`)
		if (!Number.isNaN(parsed.getTime())) return parsed.toISOString()
	}
	return null
}

/**
 * Yoast's SEO fields may be templates ("%%title%% %%sep%% %%sitename%%") that only WordPress
 * fills: such a value is left out, and the title and summary stand in, as they do here anyway.
 */
function withoutYoastVariables(value: string | undefined): string {
	return value && !value.includes('%%') ? plainText(value) : ''
}

/** WordPress keeps non-ASCII slugs percent-encoded ("%d0%bb%d0%b5%d1%81"). */
function decodedSlug(value: string): string {
	try {
		return decodeURIComponent(value)
	} catch {
		return value
	}
}

function pathOf(address: string | undefined): string | null {
	if (!address) return null
	try {
		const url = new URL(address)
		return `${url.pathname}${url.search}`
	} catch {
		return null
	}
}

/** WordPress's own category for posts filed under none: not a topic of the site. */
const defaultCategory = 'uncategorized'

interface Attachment {
	url: string
	alt: string
}

export async function readWordPressExport(file: string): Promise<ImportSource> {
	const tags = new Map<string, SourceTag>()
	const authors = new Map<string, SourceAuthor>()
	const attachments = new Map<string, Attachment>()
	let siteUrl: string | null = null
	let sawChannel = false
	for await (const [name, record] of readRecords(file)) {
		const field = (key: string) => record.fields.get(key) ?? ''
		if (name === 'channel') {
			sawChannel = true
			siteUrl = field('wp:base_blog_url') || field('wp:base_site_url') || field('link') || null
		} else if (name === 'wp:author') {
			const login = field('wp:author_login')
			if (login)
				authors.set(login, {
					slug: login,
					name: plainText(field('wp:author_display_name')) || login,
					bio: '',
					website: null,
					image: null,
				})
		} else if (name === 'wp:category' || name === 'wp:tag') {
			const isTag = name === 'wp:tag'
			const slug = decodedSlug(field(isTag ? 'wp:tag_slug' : 'wp:category_nicename'))
			if (slug && slug !== defaultCategory)
				tags.set(slug, {
					slug,
					// WordPress keeps terms' names with their signs as entities ("Food &amp; Drink").
					name: plainText(field(isTag ? 'wp:tag_name' : 'wp:cat_name')) || slug,
					description: plainText(field(isTag ? 'wp:tag_description' : 'wp:category_description')),
					image: null,
				})
		} else if (name === 'item' && field('wp:post_type') === 'attachment') {
			const url = field('wp:attachment_url')
			if (url)
				attachments.set(field('wp:post_id'), {
					url,
					alt: record.meta.get('_wp_attachment_image_alt') ?? '',
				})
		}
	}
	if (!sawChannel)
		throw new SourceFileError(
			'This RSS file has no channel, so it is not a WordPress export. Give the .xml file WordPress makes under Tools → Export → All content.',
		)

	function toPost(record: WxrRecord): SourcePost | SkippedSource | undefined {
		const field = (key: string) => record.fields.get(key) ?? ''
		const type = field('wp:post_type')
		if (type === 'wp_block')
			return {
				sourceId: field('wp:post_id'),
				title: plainText(field('title')),
				reason:
					'a reusable block: posts that use it hold only a reference, so its text is not in them; copy it into those posts in WordPress before exporting',
			}
		// Menus, attachments, revisions, templates and the like are not posts.
		if (type !== 'post' && type !== 'page') return undefined
		const sourceId = field('wp:post_id')
		// WordPress keeps a title's signs as entities (&amp;, &#8217;): the report names it as read.
		const title = plainText(field('title'))
		const skip = (reason: string): SkippedSource => ({ sourceId, title, reason })
		const wpStatus = field('wp:status')
		if (wpStatus === 'trash' || wpStatus === 'auto-draft' || wpStatus === 'inherit')
			return skip(`it is ${wpStatus === 'trash' ? 'in the trash' : 'an automatic draft'}`)
		if (record.cut) return skip('its text is longer than 4 MB')
		const notes: string[] = []
		let status: SourcePost['status'] =
			wpStatus === 'publish' ? 'published' : wpStatus === 'future' ? 'scheduled' : 'draft'
		if (wpStatus === 'private' || field('wp:post_password')) {
			status = 'draft'
			notes.push(
				wpStatus === 'private'
					? 'was private in WordPress: kept as a draft'
					: 'had a password in WordPress: kept as a draft, since Canopy’s pages are public',
			)
		}
		const thumbnail = attachments.get(record.meta.get('_thumbnail_id') ?? '')
		const postTags = new Map<string, TermName>()
		for (const term of record.categories) {
			const slug = decodedSlug(term.slug)
			if (
				(term.domain !== 'category' && term.domain !== 'post_tag') ||
				!slug ||
				slug === defaultCategory
			)
				continue
			// A term the channel did not list (an export of one author's posts leaves some out).
			if (!tags.has(slug))
				tags.set(slug, { slug, name: plainText(term.name) || slug, description: '', image: null })
			postTags.set(slug, { slug, name: tags.get(slug)?.name ?? slug })
		}
		const creator = field('dc:creator')
		const author = creator ? authors.get(creator) : undefined
		return {
			sourceId,
			kind: type === 'page' ? 'page' : 'article',
			title,
			slug: decodedSlug(field('wp:post_name')),
			html: field('content:encoded'),
			excerpt: plainText(field('excerpt:encoded')),
			status,
			publishedAt: status === 'draft' && wpStatus !== 'private' ? null : wpDate(record),
			image: thumbnail?.url ?? null,
			imageAlt: thumbnail?.alt || null,
			tags: [...postTags.values()],
			authors: creator ? [{ slug: creator, name: author?.name ?? creator }] : [],
			seoTitle: withoutYoastVariables(record.meta.get('_yoast_wpseo_title')),
			seoDescription: withoutYoastVariables(record.meta.get('_yoast_wpseo_metadesc')),
			oldPath: status === 'published' ? pathOf(field('link')) : null,
			shortPaths:
				status === 'published' && /^\d{1,18}$/.test(sourceId)
					? [`/?p=${sourceId}`, ...(type === 'page' ? [`/?page_id=${sourceId}`] : [])]
					: [],
			notes,
		}
	}

	return {
		format: 'wordpress',
		siteUrl,
		get tags() {
			return [...tags.values()]
		},
		authors: [...authors.values()],
		async *posts() {
			for await (const [name, record] of readRecords(file)) {
				if (name !== 'item') continue
				const post = toPost(record)
				if (post) yield post
			}
		},
	}
}
