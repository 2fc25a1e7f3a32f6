// Change ids on PostgreSQL become visible in order: a writer takes its id only once the writer
// before it has committed. Without that, a reader that has seen id N could miss N-1 committed a
// moment later, and a live stream would skip it for good. The lock sits inside the change row's
// own statement (ChangeHooks), so these tests hold it from outside and watch the identity.
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { articleWrite } from '#tests/fixtures/factories.ts'
import {
	freshStorageEachTest,
	postgresDatabase,
	postgresUrl,
	type TestDatabase,
} from '#tests/fixtures/storage.ts'
import type { StorageHandle as Storage } from '../storage-handle.ts'

/** The advisory lock open-postgres.ts names `changeLock`. */
const changeLock = 4_310_001
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.runIf(postgresUrl)('change ids on PostgreSQL', () => {
	let database: TestDatabase
	let storage: Storage
	let holder: pg.Client
	let sequenceName: string

	freshStorageEachTest(postgresDatabase, (fresh) => ({ storage, database } = fresh))
	beforeEach(async () => {
		holder = new pg.Client({ connectionString: database.env.DATABASE_URL })
		await holder.connect()
		const { rows } = await holder.query<{ name: string }>(
			"SELECT pg_get_serial_sequence('changes', 'id') AS name",
		)
		sequenceName = rows[0]?.name ?? ''
	})
	afterEach(async () => {
		await holder.query('ROLLBACK').catch(() => {})
		await holder.end()
	})

	/** The identity's last value: moves when any writer takes an id, committed or not. */
	async function lastIdTaken(): Promise<number> {
		const { rows } = await holder.query<{ value: string | null }>(
			`SELECT last_value::text AS value FROM ${sequenceName} WHERE is_called`,
		)
		return Number(rows[0]?.value ?? 0)
	}

	for (const [what, publish] of [
		['a new article published', (s: Storage) => s.articles.saveBySlug(articleWrite())],
		[
			'a draft',
			async (s: Storage) => {
				const draft = articleWrite({ status: 'draft', publishedAt: null })
				const created = await s.articles.create(draft)
				if (!created.ok) throw new Error('the draft was not saved')
				const { article } = created.saved
				return s.articles.update(article.id, article.version, { ...draft, status: 'published' })
			},
		],
		[
			'a contact message',
			(s: Storage) =>
				s.messages.create(
					{
						idempotencyKey: crypto.randomUUID(),
						name: 'Ada',
						email: 'ada@example.org',
						subject: 'Hello',
						message: 'A question about wetlands.',
					},
					[],
				),
		],
	] as const) {
		it(`takes the change id for ${what} only after the writer before it commits`, async () => {
			expect(sequenceName).toMatch(/changes_id_seq/)
			await storage.articles.saveBySlug(articleWrite())
			const before = await lastIdTaken()

			// Another writer is between its change row and its commit.
			await holder.query('BEGIN')
			await holder.query('SELECT pg_advisory_xact_lock($1)', [changeLock])
			let settled = false
			const writing = Promise.resolve(publish(storage)).finally(() => {
				settled = true
			})
			await sleep(300)
			expect(settled, 'the write waits for the writer before it').toBe(false)
			expect(await lastIdTaken(), 'and has taken no id yet').toBe(before)

			await holder.query('COMMIT')
			await writing
			const feed = await storage.changes.after(before - 1, 10)
			expect(feed.map((change) => change.id)).toEqual([before, before + 1])
		})
	}
})
