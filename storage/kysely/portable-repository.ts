// Moving a site (docs/decisions/015-portable-export.md): reading every portable table from one
// snapshot, writing them back in one transaction with their ids, and SQLite's online backup.
// Written once against Kysely; what differs between the databases (how a snapshot is read and
// streamed, whether a backup is possible) comes in through a PortableDriver.
import { closeSync, fsyncSync, openSync, rmSync } from 'node:fs'
import type { DatabaseSync } from 'node:sqlite'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { ArticleRules } from '../port/articles.ts'
import type {
	PortableReader,
	PortableRepository,
	PortableSection,
	PortableWriter,
	PortableWrites,
} from '../port/portable.ts'
import type { Dialect } from '../port/storage.ts'
import { writeTerms } from './article-terms.ts'
import { type ImportedArticle, linkImportedTranslations } from './article-translations.ts'
import { orderedSelect, sectionTables } from './portable-sections.ts'
import type { Database } from './schema.ts'
import { clearArticleIndex, reindexArticles } from './search-repository.ts'

type Row = Record<string, unknown>
/** A query's rows, read inside the snapshot `fetch` at a time. */
type RowSource = (query: string, fetch: number) => AsyncIterable<Row>

export interface PortableDriver {
	dialect: Dialect
	snapshot<T>(work: (source: RowSource) => Promise<T>): Promise<T>
	backup(file: string): Promise<'done' | 'unsupported'>
}

export function sqlitePortableDriver(db: Kysely<Database>, native: DatabaseSync): PortableDriver {
	// Kysely's one connection is held throughout, so no other query of this process runs inside
	// the read transaction. A deferred BEGIN takes no lock: in WAL mode the first read fixes the
	// snapshot, and the server's writers carry on beside it.
	const holdingConnection = <T>(work: () => Promise<T>) => db.connection().execute(() => work())
	return {
		dialect: 'sqlite',
		snapshot: (work) =>
			holdingConnection(async () => {
				native.exec('BEGIN DEFERRED')
				try {
					return await work(async function* (query) {
						for (const row of native.prepare(query).iterate()) yield row as Row
					})
				} finally {
					native.exec('ROLLBACK')
				}
			}),
		async backup(file) {
			// Made empty first ('wx' fails if it exists): an existing file is never replaced, and
			// two backups started together never write the same one. VACUUM INTO fills an empty file.
			closeSync(openSync(file, 'wx'))
			try {
				await holdingConnection(async () => native.prepare('VACUUM INTO ?').run(file))
				// VACUUM INTO does not sync what it wrote; a backup must be on disk when we say so.
				const fd = openSync(file, 'r+')
				try {
					fsyncSync(fd)
				} finally {
					closeSync(fd)
				}
			} catch (error) {
				rmSync(file, { force: true })
				throw error
			}
			return 'done'
		},
	}
}

export function postgresPortableDriver(db: Kysely<Database>): PortableDriver {
	return {
		dialect: 'postgres',
		// REPEATABLE READ: every statement of the transaction sees the snapshot of its first one.
		snapshot: (work) =>
			db
				.transaction()
				.setIsolationLevel('repeatable read')
				.setAccessMode('read only')
				.execute(async (trx) => {
					let cursors = 0
					return work(async function* (query, fetch) {
						// A cursor, so a table of images is never held in memory at once. It closes
						// with the transaction if the reader stops early.
						const cursor = `portable_rows_${++cursors}`
						await sql.raw(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${query}`).execute(trx)
						for (;;) {
							const { rows } = await sql
								.raw<Row>(`FETCH FORWARD ${fetch} FROM ${cursor}`)
								.execute(trx)
							yield* rows
							if (rows.length < fetch) break
						}
						await sql.raw(`CLOSE ${cursor}`).execute(trx)
					})
				}),
		// pg_dump makes PostgreSQL's consistent copies; the CLI says how.
		backup: async () => 'unsupported',
	}
}

/** Both databases take this many bound values in one statement, with room to spare. */
const maxParameters = 5_000

function createWriter(
	trx: Transaction<Database>,
	dialect: Dialect,
	rules: ArticleRules,
): PortableWriter {
	// Each article's tags and authors by name: made into links once every article is in.
	const terms: { id: number; tags: string[]; authors: string[] }[] = []
	// And each one's original, linked once every article is in.
	const groups: ImportedArticle[] = []
	const count = async (table: string) => {
		const { rows } = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql.table(
			table,
		)}`.execute(trx)
		return Number(rows[0]?.n ?? 0)
	}
	return {
		async contents(articleLimit) {
			const articles = await trx
				.selectFrom('articles')
				.select(['slug', 'version'])
				.orderBy('id')
				.limit(articleLimit)
				.execute()
			return {
				users: await count('user'),
				uploads: await count('uploads'),
				contactMessages: await count('contact_messages'),
				configVersions: await count('config_versions'),
				pushSubscriptions: await count('push_subscriptions'),
				articles: articles.map((row) => ({ slug: row.slug, version: Number(row.version) })),
			}
		},
		async clearReplaceable() {
			// An article's push deliveries and totals go with it (ON DELETE CASCADE).
			await trx.deleteFrom('articles').execute()
			// SQLite's index is apart from the rows; it learns the imported ones at the end.
			await clearArticleIndex(trx, dialect)
			await trx.deleteFrom('analytics_events').execute()
			await trx.deleteFrom('analytics_daily').execute()
		},
		async insert<S extends PortableSection>(section: S, rows: PortableWrites[S][]) {
			const spec = sectionTables[section]
			if (section === 'articles')
				for (const row of rows as PortableWrites['articles'][]) {
					terms.push({ id: row.id, tags: row.tags, authors: row.authors ?? [] })
					groups.push({ id: row.id, kind: row.kind, translationOf: row.translationOf ?? null })
				}
			const values = rows.map((row) => spec.write(row))
			const first = values[0]
			if (!first) return
			const columns = Object.keys(first)
			// Ids are kept, so links and references survive; PostgreSQL's identity columns
			// refuse a given id unless told.
			const override =
				dialect === 'postgres' && spec.identity ? sql` OVERRIDING SYSTEM VALUE` : sql``
			const conflict = spec.onConflict ? sql.raw(` ${spec.onConflict}`) : sql``
			const perStatement = Math.max(1, Math.floor(maxParameters / columns.length))
			for (let start = 0; start < values.length; start += perStatement) {
				const chunk = values.slice(start, start + perStatement)
				const tuples = chunk.map((value) => sql`(${sql.join(columns.map((c) => value[c]))})`)
				await sql`INSERT INTO ${sql.table(spec.table)} (${sql.join(
					columns.map((c) => sql.ref(c)),
				)})${override} VALUES ${sql.join(tuples)}${conflict}`.execute(trx)
			}
		},
		async finish() {
			const now = new Date().toISOString()
			for (const { id, ...named } of terms) await writeTerms(trx, rules, dialect, id, named, now)
			await linkImportedTranslations(trx, groups)
			// Rows were written directly: the search index learns them all at once.
			await reindexArticles(trx, dialect)
			// Versions are not moved (they are made again from the images): every image brought
			// in is queued for the image-versions job.
			await trx
				.insertInto('image_tasks')
				.columns(['upload_hash', 'next_attempt_at'])
				.expression((eb) =>
					eb
						.selectFrom('uploads')
						.select(['hash', sql<string>`${new Date().toISOString()}`.as('due')])
						.where(({ not, exists, selectFrom }) =>
							not(
								exists(
									selectFrom('image_tasks')
										.select('image_tasks.id')
										.whereRef('image_tasks.upload_hash', '=', 'uploads.hash'),
								),
							),
						),
				)
				.execute()
			// A cover's size is kept on its article (it is not in the file): read from the image.
			const cover = (column: 'width' | 'height') =>
				sql<number>`(SELECT ${sql.ref(`uploads.${column}`)} FROM uploads
					WHERE articles.cover_image_url LIKE '/media/' || uploads.hash || '.%')`
			await trx
				.updateTable('articles')
				.set({ cover_image_width: cover('width'), cover_image_height: cover('height') })
				.where('cover_image_url', 'like', '/media/%')
				.execute()
			// SQLite's AUTOINCREMENT moves past the largest id inserted by itself.
			if (dialect !== 'postgres') return
			for (const spec of Object.values(sectionTables)) {
				if (!spec.identity) continue
				await sql`SELECT setval(pg_get_serial_sequence(${spec.table}, 'id'),
					COALESCE(MAX(id), 0) + 1, false) FROM ${sql.table(spec.table)}`.execute(trx)
			}
		},
	}
}

export function createPortableRepository(
	db: Kysely<Database>,
	driver: PortableDriver,
	rules: ArticleRules,
): PortableRepository {
	return {
		read: (work) =>
			driver.snapshot((source) => {
				const reader: PortableReader = {
					async *rows(section) {
						const spec = sectionTables[section]
						for await (const row of source(orderedSelect(section, driver.dialect), spec.fetch))
							yield spec.read(row)
					},
				}
				return work(reader)
			}),
		write: (work) =>
			db.transaction().execute((trx) => work(createWriter(trx, driver.dialect, rules))),
		backup: (file) => driver.backup(file),
	}
}
