// Ghost's export (Settings → Advanced → Export content): one JSON object, `{ db: [{ meta, data }] }`
// (or `{ meta, data }`), whose `data` holds a list per database table. Read in two passes: the
// small tables (tags, users and the links between posts and them), then the posts one at a time,
// so an export of thousands of posts is never parsed whole.
import { createReadStream } from 'node:fs'
import chain from 'stream-chain'
import { parser } from 'stream-json'
import { pick } from 'stream-json/filters/pick.js'
import { streamArray } from 'stream-json/streamers/stream-array.js'
import { streamValues } from 'stream-json/streamers/stream-values.js'
import { z } from 'zod'
import {
	type ImportSource,
	type SkippedSource,
	SourceFileError,
	type SourcePost,
} from './import-source.ts'

const text = z
	.string()
	.nullish()
	.transform((value) => value ?? '')
const id = z.union([z.string(), z.number()]).transform(String)
const date = z
	.union([z.string(), z.number()])
	.nullish()
	.transform((value) => {
		if (value === null || value === undefined) return null
		const parsed = new Date(value)
		return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString()
	})

const tagRow = z.object({
	id,
	name: z.string(),
	slug: z.string(),
	description: text,
	feature_image: text,
	visibility: text,
})
const userRow = z.object({
	id,
	name: z.string(),
	slug: z.string(),
	bio: text,
	website: text,
	profile_image: text,
})
const linkRow = z.object({ post_id: id, sort_order: z.number().nullish() })
const postTagRow = linkRow.extend({ tag_id: id })
const postAuthorRow = linkRow.extend({ author_id: id })
const postMetaRow = z.object({
	post_id: id,
	meta_title: text,
	meta_description: text,
	feature_image_alt: text,
})
const postRow = z.object({
	id,
	title: text,
	slug: z.string(),
	html: z.string().nullish(),
	lexical: z.string().nullish(),
	mobiledoc: z.string().nullish(),
	type: z.string().nullish(),
	// Ghost 2 marked a page so; the type column came with Ghost 3.
	page: z.union([z.boolean(), z.number()]).nullish(),
	status: z.string().nullish(),
	visibility: z.string().nullish(),
	feature_image: text,
	custom_excerpt: text,
	published_at: date,
	created_at: date,
	meta_title: text,
	meta_description: text,
	// Ghost 2 and 3 kept one author on the post.
	author_id: id.nullish(),
})

/** The sections read in the first pass, as their names in `data` (`meta` beside it). */
const smallSections = ['tags', 'users', 'posts_tags', 'posts_authors', 'posts_meta'] as const
type SmallSection = (typeof smallSections)[number] | 'meta'

/** Where a section is in the file: `db.0.data.tags` (every Ghost since 1.0) or `data.tags`. */
function sectionAt(stack: (string | number | null)[]): SmallSection | undefined {
	const start = stack[0] === 'db' && stack[1] === 0 ? 2 : 0
	if (stack.length === start + 1 && stack[start] === 'meta') return 'meta'
	if (stack.length !== start + 2 || stack[start] !== 'data') return undefined
	const name = stack[start + 1]
	return smallSections.find((section) => section === name)
}

const postsPath = /^(db\.0\.)?data\.posts$/

function parseError(error: unknown): SourceFileError {
	// The JSON reader's own words ("Parser cannot parse input: expected an object key") are for
	// whoever looks into the file; the sentence is for the person moving in.
	const detail = String((error as Error).message ?? error).replace(
		/^Parser cannot parse input: /,
		'',
	)
	return new SourceFileError(
		`This file is not a Ghost export that can be read: it is damaged or cut short (the reader stopped at: ${detail}). Export it again from Ghost (Settings → Advanced → Import/Export → Export content) and give that file.`,
	)
}

async function readSmallSections(file: string): Promise<Map<SmallSection, unknown>> {
	const order: SmallSection[] = []
	const pipeline = chain([
		createReadStream(file),
		parser(),
		pick({
			filter: (stack) => {
				const section = sectionAt(stack)
				if (section && order.at(-1) !== section) order.push(section)
				return section !== undefined
			},
		}),
		streamValues(),
	])
	const found = new Map<SmallSection, unknown>()
	try {
		for await (const { key, value } of pipeline as AsyncIterable<{ key: number; value: unknown }>) {
			const section = order[key]
			if (section) found.set(section, value)
		}
	} catch (error) {
		throw parseError(error)
	}
	return found
}

function rows<T extends z.ZodType>(value: unknown, schema: T): z.output<T>[] {
	if (!Array.isArray(value)) return []
	return value.flatMap((row) => {
		const parsed = schema.safeParse(row)
		return parsed.success ? [parsed.data] : []
	})
}

/** Post id → the linked ids, in Ghost's order. */
function linked<T extends { post_id: string; sort_order?: number | null | undefined }>(
	links: T[],
	target: (link: T) => string,
): Map<string, string[]> {
	const sorted = [...links].sort((a, b) => (a.sort_order ?? 0) - (b.sort_order ?? 0))
	const byPost = new Map<string, string[]>()
	for (const link of sorted) {
		const list = byPost.get(link.post_id) ?? []
		list.push(target(link))
		byPost.set(link.post_id, list)
	}
	return byPost
}

/** `__GHOST_URL__` is what Ghost 4 and later write for the site's own address in an export. */
function ghostAddress(value: string): string | null {
	if (!value) return null
	return value.replace(/^__GHOST_URL__/, '')
}

export async function readGhostExport(file: string): Promise<ImportSource> {
	const sections = await readSmallSections(file)
	const meta = sections.get('meta') as { version?: unknown } | undefined
	if (!meta && !sections.has('tags') && !sections.has('users'))
		throw new SourceFileError(
			'This file has none of a Ghost export’s parts (meta, data.posts, data.tags, data.users). Give the .json file Ghost makes under Settings → Advanced → Import/Export → Export content.',
		)
	const allTags = rows(sections.get('tags'), tagRow)
	// Internal tags (#name) organise posts in Ghost's themes; readers never saw them.
	const tags = allTags.filter((tag) => tag.visibility !== 'internal' && !tag.name.startsWith('#'))
	const users = rows(sections.get('users'), userRow)
	const tagNames = new Map(tags.map((tag) => [tag.id, { slug: tag.slug, name: tag.name }]))
	const userNames = new Map(users.map((user) => [user.id, { slug: user.slug, name: user.name }]))
	const postTags = linked(rows(sections.get('posts_tags'), postTagRow), (link) => link.tag_id)
	const postAuthors = linked(
		rows(sections.get('posts_authors'), postAuthorRow),
		(link) => link.author_id,
	)
	const postMeta = new Map(
		rows(sections.get('posts_meta'), postMetaRow).map((row) => [row.post_id, row]),
	)

	function toPost(raw: unknown, index: number): SourcePost | SkippedSource {
		const parsed = postRow.safeParse(raw)
		if (!parsed.success) {
			const title = (raw as { title?: unknown } | null)?.title
			return {
				sourceId: `posts[${index}]`,
				title: typeof title === 'string' ? title : '',
				reason: `not a Ghost post as the export format has it (${parsed.error.issues[0]?.path.join('.') || 'the row'}: ${parsed.error.issues[0]?.message})`,
			}
		}
		const post = parsed.data
		const skip = (reason: string): SkippedSource => ({
			sourceId: post.id,
			title: post.title,
			reason,
		})
		if (post.html === null || post.html === undefined)
			return skip(
				'the export has no HTML for it (an export from Ghost 1 or older); export the site again from Ghost 4 or later',
			)
		const notes: string[] = []
		let status: SourcePost['status'] =
			post.status === 'published'
				? 'published'
				: post.status === 'scheduled'
					? 'scheduled'
					: 'draft'
		if (post.status === 'sent') notes.push('was sent by email only in Ghost: kept as a draft')
		if (post.visibility && post.visibility !== 'public' && status !== 'draft') {
			status = 'draft'
			notes.push(
				`was for ${post.visibility === 'members' ? 'members' : 'paying members'} only in Ghost: kept as a draft, since Canopy's pages are public`,
			)
		}
		const metaRow = postMeta.get(post.id)
		const kind = post.type === 'page' || post.page ? 'page' : 'article'
		const authorIds = postAuthors.get(post.id) ?? (post.author_id ? [post.author_id] : [])
		return {
			sourceId: post.id,
			kind,
			title: post.title,
			slug: post.slug,
			html: post.html,
			excerpt: post.custom_excerpt,
			status,
			publishedAt: post.published_at ?? (status === 'draft' ? null : post.created_at),
			image: ghostAddress(post.feature_image),
			imageAlt: metaRow?.feature_image_alt || null,
			tags: (postTags.get(post.id) ?? []).flatMap((tagId) => tagNames.get(tagId) ?? []),
			authors: authorIds.flatMap((userId) => userNames.get(userId) ?? []),
			seoTitle: metaRow?.meta_title || post.meta_title,
			seoDescription: metaRow?.meta_description || post.meta_description,
			// Ghost's default routes: a post at /slug/, a page at /slug/.
			oldPath: `/${post.slug}/`,
			notes,
		}
	}

	return {
		format: 'ghost',
		siteUrl: null,
		tags: tags.map((tag) => ({
			slug: tag.slug,
			name: tag.name,
			description: tag.description,
			image: ghostAddress(tag.feature_image),
		})),
		authors: users.map((user) => ({
			slug: user.slug,
			name: user.name,
			bio: user.bio,
			website: user.website || null,
			image: ghostAddress(user.profile_image),
		})),
		async *posts() {
			const pipeline = chain([
				createReadStream(file),
				parser(),
				pick({ filter: postsPath }),
				streamArray(),
			])
			try {
				for await (const { key, value } of pipeline as AsyncIterable<{
					key: number
					value: unknown
				}>)
					yield toPost(value, key)
			} catch (error) {
				if (error instanceof SourceFileError) throw error
				throw parseError(error)
			}
		},
	}
}
