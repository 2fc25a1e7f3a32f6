// The export and import part of the storage contract (docs/decisions/015-portable-export.md): a
// read sees one snapshot while others write, a write is all or nothing, ids are kept and new rows
// come after them, and rows read back in one form whichever database holds them.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import type { PortableRows, PortableSection } from './port/portable.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

async function all<S extends PortableSection>(storage: Storage, section: S) {
	return storage.portable.read(async (reader) => {
		const rows: PortableRows[S][] = []
		for await (const row of reader.rows(section)) rows.push(row)
		return rows
	})
}

const message = (key: string) => ({
	idempotencyKey: key,
	name: key,
	email: `${key}@example.org`,
	subject: '',
	message: 'Hello',
})

const user = (id: string): PortableRows['users'] => ({
	id,
	name: id,
	email: `${id}@example.org`,
	emailVerified: false,
	image: null,
	createdAt: '2026-01-02T03:04:05.678Z',
	updatedAt: '2026-01-02T03:04:05.678Z',
	role: 'editor',
	deactivatedAt: null,
	interfaceLanguage: 'fr',
})

describe.each(databases)('portable storage contract: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	it('reads one snapshot: what another connection commits meanwhile is not in it', async () => {
		await storage.messages.create(message('before'), [])
		const other = database.open()
		try {
			const seen = await storage.portable.read(async (reader) => {
				for await (const _ of reader.rows('settings'));
				await other.messages.create(message('during'), [])
				const names: string[] = []
				for await (const row of reader.rows('contactMessages')) names.push(row.name)
				return names
			})
			expect(seen).toEqual(['before'])
		} finally {
			await other.close()
		}
		expect((await all(storage, 'contactMessages')).map((row) => row.name)).toEqual([
			'before',
			'during',
		])
	})

	it('writes all or nothing', async () => {
		await expect(
			storage.portable.write(async (writer) => {
				await writer.insert('users', [user('u1')])
				throw new Error('the file was cut short')
			}),
		).rejects.toThrow('the file was cut short')
		expect(await all(storage, 'users')).toEqual([])
	})

	it('keeps the ids it is given, and new rows come after them', async () => {
		const { saved } = (await storage.articles.create(articleWrite({ slug: 'first' }))) as {
			saved: { article: { id: number } }
		}
		expect(saved.article.id).toBe(1)
		const [first] = await all(storage, 'articles')
		await storage.portable.write(async (writer) => {
			await writer.clearReplaceable()
			await writer.insert('users', [user('b'), user('a'), user('Z')])
			await writer.insert('articles', [
				{
					...(first as PortableRows['articles']),
					id: 40,
					slug: 'forty',
					bodyHtml: '<p>Forty</p>',
				},
			])
			await writer.finish()
		})
		const next = await storage.articles.create(articleWrite({ slug: 'after' }))
		expect(next.ok && next.saved.article.id).toBe(41)
		expect((await storage.articles.findBySlug('forty'))?.bodyHtml).toBe('<p>Forty</p>')
		expect(await storage.articles.findBySlug('first')).toBeUndefined()
		// Text keys by code point on both databases: upper case before lower.
		expect((await all(storage, 'users')).map((row) => row.id)).toEqual(['Z', 'a', 'b'])
		expect((await all(storage, 'users'))[0]).toEqual(user('Z'))
	})

	it('orders text keys by code point even where the database collates by language', async () => {
		// A PostgreSQL database made with a language's collation (en_US is common) sorts 'a'
		// before 'Z'; the export's order must not depend on it.
		if (storage.dialect === 'postgres')
			await sql`ALTER TABLE analytics_daily ALTER COLUMN dimension TYPE text COLLATE "en-x-icu"`.execute(
				storage.authDatabase.db,
			)
		const row = (dimension: string): PortableRows['analyticsDaily'] => ({
			day: '2026-01-01',
			dimension,
			value: '',
			value2: '',
			value3: '',
			visitors: 1,
			views: 1,
			visits: 1,
		})
		await storage.portable.write((writer) =>
			writer.insert('analyticsDaily', [row('b'), row('a'), row('Z')]),
		)
		expect((await all(storage, 'analyticsDaily')).map((daily) => daily.dimension)).toEqual([
			'Z',
			'a',
			'b',
		])
	})
})
