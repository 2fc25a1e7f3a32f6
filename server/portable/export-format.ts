// The export file, version 1 (docs/decisions/015-portable-export.md): one JSON object, the format
// and version first, then one list per part in the order below (an import writes them in this
// order, so every reference points back to a row already written). Each row's keys are in the
// order of its schema here; a row is written on a line of its own, so a file can be read a row
// at a time whatever its size.
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { slugPattern } from '#app/features/articles/slug.ts'
import { interfaceLocales } from '#app/lib/i18n.ts'
import type { PortableRows, PortableSection } from '#storage/port/portable.ts'
import { revisionKinds } from '#storage/port/revisions.ts'

export const exportFormat = 'canopy-export'
export const exportVersion = 1

export const sections = [
	'settings',
	'users',
	'accounts',
	'apiKeys',
	'uploads',
	'articles',
	'pushSubscriptions',
	'pushResults',
	'configVersions',
	'contactMessages',
	'analyticsDaily',
	'analyticsViews',
	'tags',
	'authors',
	'redirects',
	'revisions',
] as const satisfies readonly PortableSection[]

/**
 * Parts added to version 1 after it shipped, at its end: a file made before them ends without
 * them and is read as having none.
 */
export const optionalSections: readonly PortableSection[] = [
	'tags',
	'authors',
	'redirects',
	'revisions',
]

/** The parts that carry credentials: left empty unless the export was asked for passwords. */
export const credentialSections: readonly PortableSection[] = ['accounts', 'apiKeys']

/** A file that cannot be imported, with what is wrong in words the operator can act on. */
export class ExportFileError extends Error {}

export interface ExportHeader {
	format: typeof exportFormat
	version: typeof exportVersion
	/** Whether password hashes and API keys are in the file. */
	passwords: boolean
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value)

export function checkHeader(value: unknown): ExportHeader {
	if (!isObject(value) || typeof value.format !== 'string')
		throw new ExportFileError(
			`This is not a Canopy export: the file should start with {"format":"${exportFormat}",…}.`,
		)
	if (value.format !== exportFormat)
		throw new ExportFileError(
			`This is not a Canopy export: its format is "${value.format}", not "${exportFormat}".`,
		)
	if (value.version !== exportVersion) {
		const newer = typeof value.version === 'number' && value.version > exportVersion
		throw new ExportFileError(
			`This Canopy export is version ${JSON.stringify(value.version)}; this Canopy reads version ${exportVersion}.${newer ? ' Import it with the newer Canopy that made it.' : ''}`,
		)
	}
	if (typeof value.passwords !== 'boolean')
		throw new ExportFileError('The export\'s "passwords" must be true or false.')
	return { format: exportFormat, version: exportVersion, passwords: value.passwords }
}

/** The header as the first line of the file, without its closing brace. */
export function headerLine(passwords: boolean): string {
	return `${JSON.stringify({ format: exportFormat, version: exportVersion, passwords }).slice(0, -1)},`
}

// Timestamps in any ISO 8601 form are read, and stored in the one form the site writes itself
// (UTC, milliseconds, Z), so they sort and compare as text on SQLite.
const instant = z.iso
	.datetime({ offset: true, error: 'Must be a date and time, such as 2026-05-01T09:00:00.000Z.' })
	.transform((value) => new Date(value).toISOString())
const instantOrNull = instant.nullable()
const id = z.number().int().positive()
const count = z.number().int().nonnegative()
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a day, such as 2026-05-01.')
const textOrNull = z.string().nullable()

const uploadSchema = z
	.strictObject({
		id,
		hash: z.string().regex(/^[0-9a-f]{64}$/, 'Must be the SHA-256 of the bytes, in hex.'),
		mime: z.string().min(1),
		size: count,
		width: count.nullable(),
		height: count.nullable(),
		createdBy: textOrNull,
		createdAt: instant,
		bytes: z.base64('Must be the image bytes in base64.'),
	})
	.transform((row, context) => {
		const bytes = Buffer.from(row.bytes, 'base64')
		// The hash is the image's address in every page that shows it: it must be these bytes'.
		if (bytes.length !== row.size)
			context.addIssue({
				code: 'custom',
				path: ['bytes'],
				message: `Holds ${bytes.length} bytes, not ${row.size} (size).`,
			})
		else if (createHash('sha256').update(bytes).digest('hex') !== row.hash)
			context.addIssue({
				code: 'custom',
				path: ['bytes'],
				message: 'Their SHA-256 is not the hash: the image was damaged.',
			})
		return { ...row, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
	})

/** Each part's rows as the file holds them; parsing one gives the row as storage takes it. */
export const rowSchemas = {
	tags: z.strictObject({
		slug: z.string().min(1).max(200),
		name: z.string().min(1).max(200),
		description: z.string(),
		coverImageUrl: textOrNull,
		coverImageAlt: textOrNull,
		createdAt: instant,
		updatedAt: instant,
	}),
	authors: z.strictObject({
		slug: z.string().min(1).max(200),
		name: z.string().min(1).max(200),
		bio: z.string(),
		avatarUrl: textOrNull,
		website: textOrNull,
		userId: textOrNull,
		createdAt: instant,
		updatedAt: instant,
	}),
	redirects: z.strictObject({
		from: z.string().regex(/^\/\S*$/, 'Must be a path of the site, starting with /.'),
		to: z.string().min(1),
		status: z.union([z.literal(301), z.literal(302)]),
		automatic: z.boolean(),
		createdAt: instant,
	}),
	settings: z.strictObject({ key: z.string().min(1), value: z.string(), updatedAt: instant }),
	users: z.strictObject({
		id: z.string().min(1),
		name: z.string(),
		email: z.string().min(3),
		emailVerified: z.boolean(),
		image: textOrNull,
		createdAt: instant,
		updatedAt: instant,
		role: z.enum(['admin', 'editor']),
		deactivatedAt: instantOrNull,
		// The editor area's language the account chose; absent from exports made before it.
		interfaceLanguage: z.union([z.literal(''), z.enum(interfaceLocales)]).optional(),
	}),
	accounts: z.strictObject({
		id: z.string().min(1),
		accountId: z.string().min(1),
		providerId: z.string().min(1),
		userId: z.string().min(1),
		accessToken: textOrNull,
		refreshToken: textOrNull,
		idToken: textOrNull,
		accessTokenExpiresAt: instantOrNull,
		refreshTokenExpiresAt: instantOrNull,
		scope: textOrNull,
		password: textOrNull,
		createdAt: instant,
		updatedAt: instant,
	}),
	apiKeys: z.strictObject({
		id,
		name: z.string(),
		keyHash: z.string().min(1),
		prefix: z.string(),
		createdBy: z.string().min(1),
		createdAt: instant,
		lastUsedAt: instantOrNull,
		revokedAt: instantOrNull,
	}),
	uploads: uploadSchema,
	articles: z.strictObject({
		id,
		slug: z.string().regex(slugPattern, 'Use lowercase letters, digits and single hyphens.'),
		title: z.string().min(1),
		summary: z.string(),
		bodyMarkdown: z.string(),
		coverImageUrl: textOrNull,
		coverImageAlt: textOrNull,
		tags: z.array(z.string()),
		authors: z.array(z.string()).optional(),
		authorName: z.string().optional(),
		status: z.enum(['draft', 'published']),
		kind: z.enum(['article', 'page']).default('article'),
		readingMinutes: count,
		publishedAt: instantOrNull,
		createdAt: instant,
		updatedAt: instant,
		version: id,
		publishAt: instantOrNull,
		notify: z.boolean(),
		notifiedAt: instantOrNull,
		email: z.boolean().optional(),
		emailedAt: instantOrNull.optional(),
		seoTitle: z.string().max(120).default(''),
		seoDescription: z.string().max(300).default(''),
		socialImageUrl: textOrNull.default(null),
		// Exports made before translations have neither: the site's language, and no link.
		language: z.string().optional(),
		translationOf: id.nullable().optional(),
	}),
	revisions: z.strictObject({
		id,
		articleId: id,
		kind: z.enum(revisionKinds),
		version: id,
		userId: textOrNull,
		byName: z.string(),
		status: z.enum(['draft', 'published']),
		slug: z.string().min(1),
		title: z.string(),
		summary: z.string(),
		bodyMarkdown: z.string(),
		coverImageUrl: textOrNull,
		coverImageAlt: textOrNull,
		tags: z.array(z.string()),
		authors: z.array(z.string()),
		seoTitle: z.string(),
		seoDescription: z.string(),
		socialImageUrl: textOrNull,
		changed: z.array(z.string()),
		restoredFrom: id.nullable(),
		createdAt: instant,
		savedAt: instant,
	}),
	pushSubscriptions: z.strictObject({
		id,
		endpoint: z.url({ protocol: /^https$/, error: 'Must be an https address.' }),
		p256dh: z.string().min(1),
		auth: z.string().min(1),
		expirationTime: instantOrNull,
		createdAt: instant,
		refreshedAt: instant,
	}),
	pushResults: z.strictObject({
		articleId: id,
		sent: count,
		gone: count,
		failed: count,
		cancelled: count,
	}),
	configVersions: z.strictObject({
		id,
		// Checked loosely: an old version may name a parameter the code no longer has.
		document: z.looseObject({ parameters: z.record(z.string(), z.unknown()) }),
		createdAt: instant,
		createdBy: textOrNull,
		createdByName: z.string(),
		summary: z.string(),
		restoredFrom: id.nullable(),
	}),
	contactMessages: z.strictObject({
		id,
		idempotencyKey: z.string().min(1),
		name: z.string(),
		email: z.string(),
		subject: z.string(),
		message: z.string(),
		createdAt: instant,
		readAt: instantOrNull,
		archivedAt: instantOrNull,
	}),
	analyticsDaily: z.strictObject({
		day,
		dimension: z.string().min(1),
		value: z.string(),
		value2: z.string(),
		value3: z.string(),
		visitors: count,
		views: count,
		visits: count,
	}),
	analyticsViews: z.strictObject({
		id,
		atMs: z.number().int(),
		day,
		visitor: z.string(),
		screen: z.string(),
		path: z.string(),
		title: z.string(),
		previousPath: z.string(),
		referrerHost: z.string(),
		utmSource: z.string(),
		utmMedium: z.string(),
		utmCampaign: z.string(),
		device: z.string(),
		language: z.string(),
	}),
} satisfies { [S in PortableSection]: z.ZodType<PortableRows[S]> }

const keyOrder: { [S in PortableSection]: string[] } = Object.fromEntries(
	sections.map((section) => {
		const schema = rowSchemas[section]
		const shape = 'shape' in schema ? schema.shape : uploadSchema.in.shape
		return [section, Object.keys(shape)]
	}),
) as { [S in PortableSection]: string[] }

/** JSON with every object's keys sorted: PostgreSQL's jsonb does not keep the order written. */
export function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical)
	if (!isObject(value)) return value
	return Object.fromEntries(
		Object.keys(value)
			.sort()
			.map((key) => [key, canonical(value[key])]),
	)
}

/** A row as its line in the file: the schema's key order, bytes in base64. */
export function rowLine<S extends PortableSection>(section: S, row: PortableRows[S]): string {
	const source = row as Record<string, unknown>
	const ordered: Record<string, unknown> = {}
	for (const key of keyOrder[section]) {
		const value = source[key]
		if (value instanceof Uint8Array)
			ordered[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString(
				'base64',
			)
		else ordered[key] = key === 'document' ? canonical(value) : value
	}
	return JSON.stringify(ordered)
}
