// What `import` refuses, and what it makes of a file without passwords, on each database, run
// as an operator runs it (real CLI processes). A refused import writes nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unpublishArticle } from '#app/features/articles/articles.server.ts'
import { authSecret, openAuth } from '#app/features/auth/auth.server.ts'
import { resetPassword } from '#app/features/auth/password-reset.server.ts'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { makeUser, password } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { runCli } from '#tests/fixtures/process.ts'
import { fillSite } from '#tests/fixtures/site-content.ts'
import { databases, type TestDatabase } from '#tests/fixtures/storage.ts'

const newDatabaseAdvice =
	'Import into a new database: an empty DATA_DIR for SQLite, or a new PostgreSQL database made ready with npm run db:migrate.'

let source: TestApp
let folder: string
let exported: string
let withPasswords: string

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'canopy-import-'))
	source = await startTestApp()
	await fillSite(source)
	exported = join(folder, 'site.json')
	withPasswords = join(folder, 'site-with-passwords.json')
	expect((await runCli(['export', exported], source.env)).code).toBe(0)
	expect((await runCli(['export', withPasswords, '--with-passwords'], source.env)).code).toBe(0)
}, 60_000)

afterAll(async () => {
	await source?.close()
	rmSync(folder, { recursive: true, force: true })
})

async function signIn(storage: Storage, email: string, secret: string) {
	const auth = await openAuth({
		storage,
		database: storage.authDatabase,
		siteUrl: 'http://canopy.test',
		secret: await authSecret(storage),
		logger: createLogger('silent'),
	})
	return { auth, result: auth.api.signInEmail({ body: { email, password: secret } }) }
}

describe('export and import through standard streams', () => {
	it('writes the file to standard output, reads it from standard input, never overwrites one', async () => {
		const text = readFileSync(exported, 'utf8')
		const piped = await runCli(['export'], source.env)
		expect(piped.code).toBe(0)
		expect(piped.stdout).toBe(text)
		expect(piped.stderr).toMatch(
			/^Exported 2 accounts \(without passwords\), 8 articles, 1 image \(1\.2 MB\), /,
		)
		expect(await runCli(['export', exported], source.env)).toEqual({
			code: 1,
			stdout: '',
			stderr: `${exported} already exists: choose another name, or move that file away first.\n`,
		})
		expect(readFileSync(exported, 'utf8')).toBe(text)

		const dir = mkdtempSync(join(tmpdir(), 'canopy-stdin-'))
		try {
			const env = { DATA_DIR: dir, DATABASE_URL: '' }
			expect((await runCli(['import', '-'], env, text)).code).toBe(0)
			expect((await runCli(['export', '-'], env)).stdout).toBe(text)
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	}, 60_000)
})

describe.each(databases)('import: $name', ({ create }) => {
	const fresh: TestDatabase[] = []
	const newDatabase = async () => {
		const database = await create()
		fresh.push(database)
		return database
	}
	afterAll(async () => {
		for (const database of fresh) await database.drop()
	})

	it('refuses a database that holds a site, and changes nothing', async () => {
		const target = await startTestApp({ database: create })
		try {
			await makeUser(target, 'zoe@example.org', 'admin')
			expect(await runCli(['import', exported], target.env)).toEqual({
				code: 1,
				stdout: '',
				stderr: `Nothing was imported: this database already holds a site (1 account). ${newDatabaseAdvice}\n`,
			})
			expect(await target.storage.articles.count()).toBe(6)
		} finally {
			await target.close()
		}
	}, 30_000)

	it('replaces the untouched sample articles of a site started but not used; not edited ones', async () => {
		const untouched = await startTestApp({ database: create })
		try {
			expect(await untouched.storage.articles.count()).toBe(6)
			expect(await runCli(['import', exported], untouched.env)).toMatchObject({
				code: 0,
				stderr: '',
			})
			expect(await untouched.storage.articles.count()).toBe(8)
			expect((await untouched.storage.articles.findBySlug('the-living-ground'))?.status).toBe(
				'draft',
			)
			// The keys it made at its start give way to the file's, which the subscriptions need.
			const vapid = async (app: TestApp) => (await app.storage.settings.all())['push.vapidKeys']
			expect(await vapid(untouched)).toBe(await vapid(source))
		} finally {
			await untouched.close()
		}
		const edited = await startTestApp({ database: create })
		try {
			await unpublishArticle(edited.storage, 'half-a-degree-matters')
			expect(await runCli(['import', exported], edited.env)).toMatchObject({
				code: 1,
				stderr: `Nothing was imported: this database already holds a site (articles of its own). ${newDatabaseAdvice}\n`,
			})
		} finally {
			await edited.close()
		}
	}, 60_000)

	it('reads an export made before tags, authors and redirects had parts of their own', async () => {
		const site = JSON.parse(readFileSync(exported, 'utf8'))
		for (const part of ['tags', 'authors', 'redirects']) delete site[part]
		for (const article of site.articles) {
			article.authorName = article.authors[0] ?? ''
			delete article.authors
		}
		const older = join(folder, 'older.json')
		writeFileSync(older, JSON.stringify(site))
		const app = await startTestApp({ database: create, seed: false })
		try {
			expect(await runCli(['import', older], app.env)).toMatchObject({ code: 0, stderr: '' })
			const article = await app.storage.articles.findBySlug('wetlands-we-saved')
			expect(article?.authors).toEqual([{ name: 'Ana Costa', slug: 'ana-costa' }])
			expect(article?.tags.map((tag) => tag.slug)).toEqual(['wetlands', 'birds'])
		} finally {
			await app.close()
		}
	}, 60_000)

	it('refuses a file that is not a whole Canopy export of this version, saying what is wrong', async () => {
		const text = readFileSync(exported, 'utf8')
		const lines = text.split('\n')
		const lineOf = (part: string) => lines.findIndex((line) => line.includes(part)) + 1
		const edit = (from: string, to: string) => text.replace(from, to)
		const imageLine = lineOf('"hash":')
		const image = JSON.parse(lines[imageLine - 1]?.replace(/,$/, '') ?? '{}') as { bytes: string }
		const damaged = `${image.bytes.slice(0, 100)}${image.bytes[100] === 'A' ? 'B' : 'A'}${image.bytes.slice(101)}`
		const dailyLine = lineOf('"dimension":')
		const cases: [string, string, string][] = [
			['empty', '', 'The file is empty: it is not a Canopy export.'],
			[
				'another format',
				'{"format":"wordpress-wxr","version":1,"passwords":false,\n"settings":[]}',
				'This is not a Canopy export: its format is "wordpress-wxr", not "canopy-export".',
			],
			[
				'a newer version',
				edit('"version":1', '"version":2'),
				'This Canopy export is version 2; this Canopy reads version 1. Import it with the newer Canopy that made it.',
			],
			[
				'a bad slug',
				edit('"slug":"wetlands-we-saved"', '"slug":"Wetlands We Saved"'),
				`articles[6] (line ${lineOf('"slug":"wetlands-we-saved"')}): slug: Use lowercase letters, digits and single hyphens.`,
			],
			[
				'a damaged image',
				edit(image.bytes, damaged),
				`uploads[0] (line ${imageLine}): bytes: Their SHA-256 is not the hash: the image was damaged.`,
			],
			[
				'a file cut short',
				lines.slice(0, dailyLine + 2).join('\n'),
				`The file ends early, in the middle of "analyticsDaily" (after line ${dailyLine + 2}): it was cut short. Export the site again.`,
			],
			[
				'a missing part',
				edit('"apiKeys":[],\n', ''),
				`Line ${lineOf('"apiKeys":[]')}: the file has no "apiKeys" part before "uploads".`,
			],
			[
				'an unknown part',
				edit('"pushResults":[', '"pushOutcomes":['),
				`Line ${lineOf('"pushResults":[')}: the file has a part "pushOutcomes", which Canopy does not know.`,
			],
			[
				'credentials the header denies',
				readFileSync(withPasswords, 'utf8').replace('"passwords":true', '"passwords":false'),
				`accounts[0] (line ${lineOf('"accounts":[') + 1}): the file says it holds no passwords ("passwords": false), yet it has credentials.`,
			],
		]
		const target = await newDatabase()
		for (const [name, content, message] of cases) {
			const file = join(folder, `${name}.json`)
			writeFileSync(file, content)
			expect(await runCli(['import', file], target.env), name).toEqual({
				code: 1,
				stdout: '',
				stderr: `${message}\n`,
			})
		}
		const notJson = join(folder, 'not-json.json')
		writeFileSync(notJson, 'hello')
		expect((await runCli(['import', notJson], target.env)).stderr).toMatch(
			/^The file is not JSON \(.+\): it is not a Canopy export, or it was damaged\.\n$/,
		)
		expect((await runCli(['import', join(folder, 'nothing.json')], target.env)).stderr).toBe(
			`There is no file ${join(folder, 'nothing.json')}: check the path.\n`,
		)
		// The failures above came after rows were written (a cut-short file fails at its end):
		// the transaction took them back.
		const storage = target.open()
		try {
			expect(await storage.articles.count()).toBe(0)
			expect(await storage.messages.list({ box: 'inbox', limit: 5, offset: 0 })).toEqual({
				items: [],
				total: 0,
			})
		} finally {
			await storage.close()
		}
	}, 90_000)

	it('reads the same site from the file laid out another way (pretty-printed)', async () => {
		const target = await newDatabase()
		const pretty = join(folder, 'pretty.json')
		writeFileSync(pretty, JSON.stringify(JSON.parse(readFileSync(exported, 'utf8')), null, 2))
		expect((await runCli(['import', pretty], target.env)).code).toBe(0)
		const again = join(folder, `again-${target.dialect}.json`)
		expect((await runCli(['export', again], target.env)).code).toBe(0)
		expect(readFileSync(again).equals(readFileSync(exported))).toBe(true)
	}, 30_000)

	it('moves passwords only when asked; an account without one is set from a reset link', async () => {
		const without = await newDatabase()
		const imported = await runCli(['import', exported], without.env)
		expect(imported.stdout).toContain(
			'2 accounts have no password yet: each person sets one from a reset link, which "Forgot your password?" on the sign-in page mails (when SMTP_URL is set), or which npm run cli -- user:reset-link --email <address> prints.',
		)
		const link = await runCli(['user:reset-link', '--email', 'ana@example.org'], without.env)
		expect(link.code).toBe(0)
		const token = new URL(link.stdout.trim().split('\n')[1] ?? '').searchParams.get('token')
		let storage = without.open()
		try {
			const refused = await signIn(storage, 'ana@example.org', password)
			await expect(refused.result).rejects.toMatchObject({ statusCode: 401 })
			expect(await resetPassword(refused.auth, storage, token, 'heron marsh spring 2031')).toEqual({
				ok: true,
			})
			const signed = await signIn(storage, 'ana@example.org', 'heron marsh spring 2031')
			expect((await signed.result).user).toMatchObject({ email: 'ana@example.org', role: 'admin' })
		} finally {
			await storage.close()
		}

		const withThem = await newDatabase()
		expect((await runCli(['import', withPasswords], withThem.env)).code).toBe(0)
		storage = withThem.open()
		try {
			for (const [email, role] of [
				['ana@example.org', 'admin'],
				['ben@example.org', 'editor'],
			] as const) {
				const signed = await signIn(storage, email, password)
				expect((await signed.result).user).toMatchObject({ email, role })
			}
		} finally {
			await storage.close()
		}
	}, 60_000)
})
