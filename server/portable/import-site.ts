// `npm run cli -- import <file>`: an export file into a new database, SQLite or PostgreSQL, in
// one transaction: the whole site lands, or nothing does. Ids are kept, so every reference (an
// image's creator, a configuration's author, links between versions) holds. Only a database with
// no site of its own is written to (docs/decisions/015-portable-export.md).
import { randomUUID } from 'node:crypto'
import { MarkdownRefused, renderMarkdown } from '#app/features/articles/markdown.server.ts'
import { cleanImage } from '#app/features/uploads/clean-image.server.ts'
import { isImageMime } from '#app/features/uploads/image-types.ts'
import type {
	PortableContents,
	PortableSection,
	PortableWriter,
	PortableWrites,
} from '#storage/port/portable.ts'
import type { Storage } from '#storage/port/storage.ts'
import {
	checkHeader,
	ExportFileError,
	type ExportHeader,
	optionalSections,
	rowSchemas,
	sections,
} from './export-format.ts'
import type { ExportEntry } from './read-export.ts'

/** The database already holds a site: nothing was written. */
export class ImportRefused extends Error {}

export type ImportCounts = Record<PortableSection, number> & {
	/** Accounts made without a password, to be set from a reset link. */
	withoutPassword: number
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

function refusal(contents: PortableContents, sampleSlugs: string[]): string | undefined {
	const samples = new Set(sampleSlugs)
	const held = [
		contents.users && plural(contents.users, 'account'),
		contents.articles.some((article) => !samples.has(article.slug) || article.version !== 1) &&
			'articles of its own',
		contents.uploads && plural(contents.uploads, 'image'),
		contents.contactMessages && plural(contents.contactMessages, 'message'),
		contents.configVersions && plural(contents.configVersions, 'configuration version'),
		contents.pushSubscriptions && plural(contents.pushSubscriptions, 'push subscription'),
	].filter(Boolean)
	if (held.length === 0) return undefined
	return `Nothing was imported: this database already holds a site (${held.join(', ')}). Import into a new database: an empty DATA_DIR for SQLite, or a new PostgreSQL database made ready with npm run db:migrate.`
}

/** Rows written per statement batch, and bytes of images held before they are written. */
const batchRows = 500
const batchBytes = 8 << 20

export async function importSite(
	storage: Storage,
	entries: AsyncIterable<ExportEntry>,
	options: { sampleSlugs: string[] },
): Promise<ImportCounts> {
	const iterator = entries[Symbol.asyncIterator]()
	const first = await iterator.next()
	const header = checkHeader(
		first.done || first.value.kind !== 'header' ? undefined : first.value.value,
	)
	return storage.portable.write(async (writer) => {
		const refused = refusal(
			await writer.contents(options.sampleSlugs.length + 1),
			options.sampleSlugs,
		)
		if (refused) throw new ImportRefused(refused)
		// The untouched sample articles and the views of a site nobody has used yet make way.
		await writer.clearReplaceable()
		const importer = createImporter(writer, header)
		for (let next = await iterator.next(); !next.done; next = await iterator.next())
			await importer.take(next.value)
		const counts = await importer.finish()
		await writer.finish()
		return counts
	})
}

/** One closure over the import's counts and pending batches; its inner steps are the units. */
function createImporter(writer: PortableWriter, header: ExportHeader) {
	const counts = Object.fromEntries(
		[...sections, 'withoutPassword'].map((key) => [key, 0]),
	) as ImportCounts
	let at = -1
	let pending: unknown[] = []
	let pendingBytes = 0
	let firstPending = ''
	const users = new Set<string>()
	const withPassword = new Set<string>()
	const articles = new Set<number>()
	const configs = new Set<number>()

	const fail = (where: string, problem: string): never => {
		throw new ExportFileError(`${where}: ${problem}`)
	}
	const flush = async () => {
		const section = sections[at]
		if (!section || pending.length === 0) return
		const rows = pending
		pending = []
		pendingBytes = 0
		try {
			await writer.insert(section, rows as PortableWrites[typeof section][])
		} catch (error) {
			const { message, detail } = error as { message?: string; detail?: string }
			fail(
				`${section} from ${firstPending}`,
				`the database refused the rows: ${message}${detail ? ` (${detail})` : ''}`,
			)
		}
	}
	const leave = async (section: PortableSection | undefined) => {
		await flush()
		if (section !== 'accounts') return
		// A file without passwords (or an account without one) still makes each person's account:
		// with no password, it cannot be signed in to until one is set from a reset link.
		const now = new Date().toISOString()
		const missing = [...users].filter((id) => !withPassword.has(id))
		const placeholders = missing.map((userId) => ({
			id: randomUUID(),
			accountId: userId,
			providerId: 'credential',
			userId,
			accessToken: null,
			refreshToken: null,
			idToken: null,
			accessTokenExpiresAt: null,
			refreshTokenExpiresAt: null,
			scope: null,
			password: null,
			createdAt: now,
			updatedAt: now,
		}))
		for (let start = 0; start < placeholders.length; start += batchRows)
			await writer.insert('accounts', placeholders.slice(start, start + batchRows))
		counts.withoutPassword = placeholders.length
	}

	async function check(section: PortableSection, row: unknown, where: string): Promise<unknown> {
		const parsed = rowSchemas[section].safeParse(row)
		if (!parsed.success) {
			const issues = parsed.error.issues.slice(0, 3)
			return fail(where, issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`).join('; '))
		}
		const value = parsed.data as Record<string, unknown>
		const knownUser = (id: unknown, what: string) => {
			if (id !== null && !users.has(String(id)))
				fail(where, `${what} "${id}" is not among the file's users.`)
		}
		if (section === 'users') users.add(String(value.id))
		if (section === 'accounts' || section === 'apiKeys') {
			if (!header.passwords)
				fail(
					where,
					'the file says it holds no passwords ("passwords": false), yet it has credentials.',
				)
			knownUser(section === 'accounts' ? value.userId : value.createdBy, 'its user')
			if (value.providerId === 'credential' && value.password)
				withPassword.add(String(value.userId))
		}
		if (section === 'articles') {
			articles.add(Number(value.id))
			// Made again from the Markdown: a file cannot carry HTML the site would not make itself.
			try {
				const { authorName, ...article } = value
				return {
					...article,
					// A file from before author profiles names one author.
					authors: value.authors ?? (authorName ? [authorName] : []),
					bodyHtml: await renderMarkdown(String(value.bodyMarkdown)),
				}
			} catch (error) {
				if (error instanceof MarkdownRefused) fail(where, error.message)
				throw error
			}
		}
		if (section === 'authors') knownUser(value.userId, 'its team member')
		if (section === 'revisions') {
			if (!articles.has(Number(value.articleId)))
				fail(where, `article ${value.articleId} is not among the file's articles.`)
			knownUser(value.userId, 'its author')
		}
		if (section === 'pushResults' && !articles.has(Number(value.articleId)))
			fail(where, `article ${value.articleId} is not among the file's articles.`)
		if (section === 'configVersions') {
			knownUser(value.createdBy, 'its author')
			if (value.restoredFrom !== null && !configs.has(Number(value.restoredFrom)))
				fail(where, `restoredFrom ${value.restoredFrom} is not an earlier version in the file.`)
			configs.add(Number(value.id))
		}
		if (section === 'uploads') {
			// Made again from its pixels, as an upload is: a file cannot bring in metadata (a
			// photo's GPS position) the site would not keep itself. Its address stays, as the
			// file's articles use it.
			const mime = String(value.mime)
			const cleaned = isImageMime(mime)
				? await cleanImage(value.bytes as Uint8Array, mime)
				: { ok: false as const, message: `${mime} is not an image type Canopy stores.` }
			if (!cleaned.ok) return fail(where, cleaned.message)
			const { bytes, width, height } = cleaned
			pendingBytes += bytes.byteLength
			return { ...value, bytes, size: bytes.byteLength, width, height }
		}
		return value
	}

	return {
		async take(entry: ExportEntry) {
			if (entry.kind === 'header') return fail('The file', 'it has a second header.')
			if (entry.kind === 'section') {
				const position = sections.indexOf(entry.name as PortableSection)
				const where = entry.line ? `Line ${entry.line}` : `"${entry.name}"`
				if (position < 0)
					fail(where, `the file has a part "${entry.name}", which Canopy does not know.`)
				if (position <= at) fail(where, `"${entry.name}" comes twice, or out of order.`)
				await leave(sections[at])
				const skipped = sections.slice(at + 1, position)
				const missing = skipped.find((name) => !optionalSections.includes(name))
				if (missing) fail(where, `the file has no "${missing}" part before "${entry.name}".`)
				at = position
				return
			}
			const section = sections[at] as PortableSection
			const where = `${section}[${entry.index}]${entry.line ? ` (line ${entry.line})` : ''}`
			if (pending.length === 0) firstPending = where
			pending.push(await check(section, entry.value, where))
			counts[section]++
			if (pending.length >= batchRows || pendingBytes >= batchBytes) await flush()
		},
		async finish(): Promise<ImportCounts> {
			await leave(sections[at])
			const missing = sections.slice(at + 1).find((name) => !optionalSections.includes(name))
			if (missing) fail('The file', `it has no "${missing}" part: it may have been cut short.`)
			return counts
		},
	}
}
