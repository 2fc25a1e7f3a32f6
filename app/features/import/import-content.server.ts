// Moving in from Ghost or WordPress (docs/decisions/034-moving-in.md): an export, read by its
// format's reader, written as Canopy's articles, pages, tags, authors, images and redirects. Each
// post is saved as the editor saves one (the same checks and limits), without announcing it to
// push or newsletter subscribers. A post whose address is already taken here is left alone, so
// running an import again adds only what is new. A dry run does everything but write.
import { articleInputSchema } from '#app/features/articles/article.schema.ts'
import { toArticleWrite } from '#app/features/articles/article-write.server.ts'
import { MarkdownRefused } from '#app/features/articles/markdown.server.ts'
import { slugFor, slugify, slugPattern } from '#app/features/articles/slug.ts'
import {
	pageSlugFromTitle,
	pageSlugProblem,
	publicPath,
} from '#app/features/pages/page-addresses.ts'
import { isShortlink, readablePath } from '#app/features/redirects/addresses.ts'
import { firstWords } from '#app/lib/first-words.ts'
import { isImageAddress } from '#app/lib/image-address.ts'
import type { MoveInProgress } from '#storage/port/move-in.ts'
import type { Storage } from '#storage/port/storage.ts'
import {
	htmlToMarkdown,
	maxHtmlLength,
	placeImages,
	TooComplex,
} from './html-to-markdown.server.ts'
import { type ImportImages, importImages } from './import-images.server.ts'
import type { ImportReport } from './import-report.ts'
import { type ImportSource, isSkipped, type SourcePost } from './import-source.ts'
import { authorKey, finishTerms, knownTerms, tagKey } from './import-terms.server.ts'

export interface ImportOptions {
	dryRun: boolean
	/** The export's images: Ghost's content/images folder, WordPress's wp-content/uploads. */
	imagesFolder: string | null
	/** The account the images are recorded as uploaded by (the CLI: none). */
	createdBy: string | null
	maxImageBytes?: number
	maxImagePixels?: number
	/** Called after each post read: which pass, how many so far, and the file's count once known. */
	progress?: (progress: MoveInProgress) => void
	now?: Date
}

/** What Canopy's editor allows: a longer text is cut at a word, the ellipsis within the limit. */
const shorten = (text: string, max: number) => firstWords(text, max - 1)

/**
 * Links to the old site's own pages made paths of this one, which its redirects answer. Images keep
 * their whole address: one not found in the folder still shows from the old site while it runs.
 */
function localise(html: string, siteUrl: string | null): string {
	let local = html.replaceAll('__GHOST_URL__', '')
	if (siteUrl && URL.canParse(siteUrl)) {
		// The scheme and host only: a site in /blog keeps /blog in its paths, as its redirects do.
		const host = new URL(siteUrl).host.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
		// Its files (PDFs, audio) are not imported: those links keep the whole address.
		local = local.replace(
			new RegExp(`(\\bhref=["'])https?://${host}(?=[/"'])(?!/wp-content/|/content/)`, 'g'),
			'$1',
		)
	}
	return local
}

/** Tags per post, as the editor allows. */
const maxTags = 10

/** The tag and author names a post comes across with (the editor's limits). */
function termNames(post: SourcePost): { tags: string[]; authors: string[] } {
	return {
		tags: post.tags.slice(0, maxTags).map((tag) => tag.name.slice(0, 40)),
		authors: post.authors.map((author) => author.name.slice(0, 100)),
	}
}

function chooseSlug(post: SourcePost, notes: string[]): string {
	const given = post.slug.normalize('NFC').toLowerCase()
	let slug =
		given.length <= 80 && slugPattern.test(given)
			? given
			: slugify(given) || slugFor(post.kind, post.title)
	// A draft that never had an address gets one quietly, as the editor would make it.
	if (given && slug !== given)
		notes.push(
			`its address "${post.slug}" is written /${slug} here (Canopy's addresses spell some scripts in Latin letters)`,
		)
	if (post.kind === 'page' && pageSlugProblem(slug)) {
		const reserved = slug
		slug = pageSlugFromTitle(slug)
		notes.push(`"/${reserved}" is one of Canopy's own addresses: the page is at /${slug}`)
	}
	return slug
}

type PostOutcome =
	| { kind: 'imported' | 'would-import'; path: string; notes: string[] }
	| { kind: 'existing'; path: string }
	| { kind: 'skipped'; reason: string }

async function importPost(
	storage: Storage,
	source: ImportSource,
	post: SourcePost,
	images: ImportImages,
	options: ImportOptions & { taken: Set<string> },
): Promise<PostOutcome> {
	const notes = [...post.notes]
	let slug = chooseSlug(post, notes)
	// Two posts of one export at one address (WordPress's child pages, a post and a page): the
	// second gets the next free one. A post whose address was here before this run is left.
	if (options.taken.has(slug)) {
		let n = 2
		while (options.taken.has(`${slug}-${n}`) || (await storage.articles.findBySlug(`${slug}-${n}`)))
			n++
		notes.push(
			`another post of the export has the address "${slug}": this one is at "${slug}-${n}"`,
		)
		slug = `${slug}-${n}`
	} else if (await storage.articles.findBySlug(slug))
		return { kind: 'existing', path: publicPath(post.kind, slug) }
	options.taken.add(slug)
	const path = publicPath(post.kind, slug)
	if (post.html.length > maxHtmlLength)
		return { kind: 'skipped', reason: 'its text is longer than 2 MB of HTML' }
	let converted: ReturnType<typeof htmlToMarkdown>
	try {
		converted = htmlToMarkdown(localise(post.html, source.siteUrl), source.format)
	} catch (error) {
		if (error instanceof TooComplex) return { kind: 'skipped', reason: error.message }
		throw error
	}
	notes.push(...converted.notes)
	const addresses: (string | null)[] = []
	for (const address of converted.images) {
		const placed = await images.place(address)
		if (!placed.ok) notes.push(placed.reason)
		addresses.push(placed.ok ? placed.url : placed.keep)
	}
	// An image that could not come across is dropped from the text, not left pointing nowhere.
	const body = placeImages(converted.markdown, addresses)
		// A link left around nothing once its image went.
		.replace(/\[\s*\]\([^)]*\)/g, '')
		.replace(/\n{3,}/g, '\n\n')
		.trim()
	let cover: string | null = null
	if (post.image) {
		const placed = await images.place(post.image.replaceAll('__GHOST_URL__', ''))
		if (placed.ok) cover = placed.url
		else {
			notes.push(placed.reason.replace('the image', 'the cover image'))
			cover = placed.keep
		}
		// A cover still on the old site over plain http would never be shown (the pages load
		// images from this site and https alone): left out, and said.
		if (cover && !isImageAddress(cover)) {
			notes.push(
				`its cover image ${cover} is served over plain http, which pages cannot show: left out`,
			)
			cover = null
		}
	}
	if (cover && !post.imageAlt)
		notes.push(
			'its cover image had no description: the title stands in for one until an editor writes it',
		)
	if (post.tags.length > maxTags)
		notes.push(`it had ${post.tags.length} tags: the first ${maxTags} were kept`)
	const title =
		post.title.trim() ||
		(body.split('\n').find((line) => line.trim() && !line.startsWith('![')) ?? '')
			.replace(/[#*_>[\]]/g, '')
			.trim()
	const parsed = articleInputSchema.safeParse({
		title: shorten(title, 200),
		slug,
		summary: shorten(post.excerpt, 300),
		body,
		...termNames(post),
		cover,
		coverAlt: cover ? post.imageAlt || shorten(title, 200) : null,
		seoTitle: shorten(post.seoTitle, 120),
		seoDescription: shorten(post.seoDescription, 300),
	})
	if (!parsed.success)
		return {
			kind: 'skipped',
			reason: parsed.error.issues.map((issue) => issue.message).join(' '),
		}
	const now = options.now ?? new Date()
	const future = post.publishedAt !== null && new Date(post.publishedAt) > now
	// A scheduled post whose time has passed while the site moved is published at that time.
	const status =
		post.status === 'published' || (post.status === 'scheduled' && !future) ? 'published' : 'draft'
	if (options.dryRun) return { kind: 'would-import', path, notes }
	try {
		const write = await toArticleWrite(storage, parsed.data, {
			slug,
			status,
			publishedAt: status === 'published' ? (post.publishedAt ?? now.toISOString()) : null,
			publishAt: post.status === 'scheduled' && future ? post.publishedAt : null,
			authors: parsed.data.authors,
			// Years of posts arriving are no news: nobody is sent them.
			notify: false,
			email: false,
		})
		// Nor do automations that act on new articles (posting them elsewhere) see them.
		await storage.articles.saveBySlug({ ...write, kind: post.kind, webhooks: false })
	} catch (error) {
		if (error instanceof MarkdownRefused) return { kind: 'skipped', reason: error.message }
		throw error
	}
	return { kind: 'imported', path, notes }
}

/**
 * Reads every post once without writing: a file broken halfway is refused before anything lands.
 * Returns how many there are.
 */
async function checkReadable(
	source: ImportSource,
	progress: ImportOptions['progress'],
): Promise<number> {
	let read = 0
	for await (const _post of source.posts())
		progress?.({ phase: 'checking', posts: ++read, total: null })
	return read
}

export async function importContent(
	storage: Storage,
	source: ImportSource,
	options: ImportOptions,
): Promise<ImportReport> {
	const total = options.dryRun ? null : await checkReadable(source, options.progress)
	const before = await knownTerms(storage)
	const images = importImages(storage, {
		folder: options.imagesFolder,
		dryRun: options.dryRun,
		createdBy: options.createdBy,
		maxBytes: options.maxImageBytes,
		maxPixels: options.maxImagePixels,
	})
	const report: ImportReport = {
		format: source.format,
		dryRun: options.dryRun,
		articles: 0,
		pages: 0,
		existing: 0,
		tags: 0,
		authors: 0,
		images: 0,
		redirects: 0,
		skipped: [],
		notes: [],
	}
	const moved: { from: string; to: string }[] = []
	const taken = new Set<string>()
	// The tags and authors the posts that come across carry (a dry run counts only those, as
	// an import makes only those).
	const carried = { tags: new Set<string>(), authors: new Set<string>() }
	let read = 0
	for await (const entry of source.posts()) {
		read++
		if (isSkipped(entry)) report.skipped.push(entry)
		else {
			const outcome = await importPost(storage, source, entry, images, { ...options, taken })
			const named = { sourceId: entry.sourceId, title: entry.title }
			if (outcome.kind === 'skipped') report.skipped.push({ ...named, reason: outcome.reason })
			else if (outcome.kind === 'existing') report.existing++
			else {
				const names = termNames(entry)
				for (const tag of names.tags) carried.tags.add(tagKey(tag))
				for (const author of names.authors) carried.authors.add(authorKey(author))
				report[entry.kind === 'page' ? 'pages' : 'articles']++
				for (const note of outcome.notes) report.notes.push({ ...named, note })
				const from = entry.oldPath && readablePath(entry.oldPath.replace(/\/+$/, ''))
				const froms = new Set([...(from ? [from] : []), ...(entry.shortPaths ?? [])])
				if (entry.status === 'published')
					for (const old of froms)
						if (old !== outcome.path) moved.push({ from: old, to: outcome.path })
			}
		}
		options.progress?.({ phase: 'importing', posts: read, total })
	}
	options.progress?.({ phase: 'finishing', posts: read, total })
	const terms = await finishTerms(storage, source, images, {
		dryRun: options.dryRun,
		before,
		carried,
	})
	report.tags = terms.tags
	report.authors = terms.authors
	report.notes.push(...terms.notes)
	report.images = images.count
	report.redirects = await recordRedirects(storage, moved, options.dryRun)
	return report
}

/** Old addresses that answer 301 to where the posts are now; one nothing of the site's own uses. */
async function recordRedirects(
	storage: Storage,
	moved: { from: string; to: string }[],
	dryRun: boolean,
): Promise<number> {
	const wanted: { from: string; to: string }[] = []
	for (const redirect of moved) {
		const first = redirect.from.split('/')[1] ?? ''
		// Of addresses with a query, only WordPress's /?p=123 and /?page_id=45, which the home
		// page follows (movedShortlink); any other query never reaches a redirect.
		const query = redirect.from.includes('?')
		if (query && !isShortlink(redirect.from)) continue
		if (redirect.from.length <= 1 || (!query && pageSlugProblem(first))) continue
		// An address an admin already sends somewhere keeps going there.
		if (await storage.redirects.find(redirect.from)) continue
		wanted.push(redirect)
	}
	if (dryRun || wanted.length === 0) return wanted.length
	const redirects = wanted.map((redirect) => ({ ...redirect, status: 301 as const }))
	const put = await storage.redirects.putMany(redirects)
	if (put.ok) return put.count
	const loops = new Set(put.loops)
	const kept = redirects.filter((redirect) => !loops.has(redirect.from))
	const again = await storage.redirects.putMany(kept)
	return again.ok ? again.count : 0
}
