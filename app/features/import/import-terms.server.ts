// After the posts: the tags and authors they made get what the export knows of them (a
// description, an image, a bio, a website) and the export's address where it is free. Only empty
// fields are filled, so an import run again never undoes an editor's change.
import { slugFor, slugPattern } from '#app/features/articles/slug.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { AuthorProfile, Counted, Tag } from '#storage/port/terms.ts'
import type { ImportImages } from './import-images.server.ts'
import type { ImportNote } from './import-report.ts'
import type { ImportSource } from './import-source.ts'

const byName = <T extends { name: string }>(terms: T[]) =>
	new Map(terms.map((term) => [term.name.toLowerCase(), term]))

/** The export's address for a term, when it is a valid one here and no other term has it. */
function betterSlug(
	current: { slug: string; name: string },
	wanted: string,
	kind: 'tag' | 'author',
	taken: Set<string>,
): string {
	const slug = wanted.normalize('NFC').toLowerCase()
	// Only an address Canopy made from the name is replaced: one an editor chose stays.
	if (current.slug !== slugFor(kind, current.name) || slug === current.slug) return current.slug
	if (!slugPattern.test(slug) || slug.length > 80 || taken.has(slug)) return current.slug
	return slug
}

async function imageFor(
	images: ImportImages,
	address: string | null,
	whose: string,
	notes: ImportNote[],
): Promise<string | null> {
	if (!address) return null
	const placed = await images.place(address)
	if (placed.ok) return placed.url
	notes.push({ sourceId: '', title: whose, note: placed.reason })
	return placed.keep
}

/** A tag's name as the site matches it: its first 40 characters, in lower case. */
export const tagKey = (name: string) => name.slice(0, 40).toLowerCase()
/** An author's name as the site matches it: its first 100 characters, in lower case. */
export const authorKey = (name: string) => name.slice(0, 100).toLowerCase()

/** The names of the tags and authors the site has, before an import: what it adds is counted. */
export async function knownTerms(
	storage: Storage,
): Promise<{ tags: Set<string>; authors: Set<string> }> {
	const [tags, authors] = await Promise.all([storage.tags.list(), storage.authors.list()])
	return {
		tags: new Set(tags.map((tag) => tag.name.toLowerCase())),
		authors: new Set(authors.map((author) => author.name.toLowerCase())),
	}
}

export async function finishTerms(
	storage: Storage,
	source: ImportSource,
	images: ImportImages,
	options: {
		dryRun: boolean
		before: { tags: Set<string>; authors: Set<string> }
		/** What the posts that came across (or would) carry: tagKey and authorKey names. */
		carried: { tags: Set<string>; authors: Set<string> }
	},
): Promise<{ tags: number; authors: number; notes: ImportNote[] }> {
	const notes: ImportNote[] = []
	const { before, carried } = options
	const tags = byName<Counted<Tag>>(await storage.tags.list())
	const authors = byName<Counted<AuthorProfile>>(await storage.authors.list())
	if (options.dryRun) {
		// What would be new: the terms the posts carry that this site has no term of that name
		// for (a tag no post carries is not made, so it is not counted either).
		const isNew = (key: string, known: Set<string>, wanted: Set<string>) =>
			wanted.has(key) && !known.has(key)
		return {
			tags: source.tags.filter((tag) => isNew(tagKey(tag.name), before.tags, carried.tags)).length,
			authors: source.authors.filter((author) =>
				isNew(authorKey(author.name), before.authors, carried.authors),
			).length,
			notes,
		}
	}
	const tagSlugs = new Set([...tags.values()].map((tag) => tag.slug))
	let tagCount = 0
	for (const wanted of source.tags) {
		const tag = tags.get(tagKey(wanted.name))
		// A tag no imported post carries was not made: its page would list nothing.
		if (!tag) continue
		if (!before.tags.has(tag.name.toLowerCase())) tagCount++
		const cover =
			tag.coverImageUrl ?? (await imageFor(images, wanted.image, `tag ${wanted.name}`, notes))
		const slug = betterSlug(tag, wanted.slug, 'tag', tagSlugs)
		const edit = {
			slug,
			name: tag.name,
			description: tag.description || wanted.description.slice(0, 500),
			coverImageUrl: cover,
			coverImageAlt: tag.coverImageAlt ?? (cover ? wanted.name : null),
		}
		if (
			edit.slug !== tag.slug ||
			edit.description !== tag.description ||
			edit.coverImageUrl !== tag.coverImageUrl
		) {
			const updated = await storage.tags.update(tag.id, edit)
			if (updated.ok) tagSlugs.add(slug)
		}
	}
	const authorSlugs = new Set([...authors.values()].map((author) => author.slug))
	let authorCount = 0
	for (const wanted of source.authors) {
		const author = authors.get(authorKey(wanted.name))
		if (!author) continue
		if (!before.authors.has(author.name.toLowerCase())) authorCount++
		const avatar =
			author.avatarUrl ?? (await imageFor(images, wanted.image, `author ${wanted.name}`, notes))
		const website =
			author.website ??
			(wanted.website && /^https?:\/\//.test(wanted.website) ? wanted.website : null)
		const edit = {
			slug: betterSlug(author, wanted.slug, 'author', authorSlugs),
			name: author.name,
			bio: author.bio || wanted.bio.slice(0, 1000),
			avatarUrl: avatar,
			website,
			userId: author.userId,
		}
		if (
			edit.slug !== author.slug ||
			edit.bio !== author.bio ||
			edit.avatarUrl !== author.avatarUrl ||
			edit.website !== author.website
		) {
			const updated = await storage.authors.update(author.id, edit)
			if (updated.ok) authorSlugs.add(edit.slug)
		}
	}
	return { tags: tagCount, authors: authorCount, notes }
}
