// Moving a site between databases with `export` and `import`, as an operator runs them (real CLI
// processes): the file read back out of the new database is the same, byte for byte, and the
// site served from it shows the articles and the image, and its people sign in.
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { password } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { articleFile, pushSubscription } from '#tests/fixtures/factories.ts'
import { pngImage } from '#tests/fixtures/images.ts'
import { freePort, runCli, startServer } from '#tests/fixtures/process.ts'
import { fillSite, type SiteFacts } from '#tests/fixtures/site-content.ts'
import { databases, type TestDatabase } from '#tests/fixtures/storage.ts'

// Each direction between the databases configured here; SQLite to SQLite when only it is.
const pairs =
	databases.length > 1
		? databases.flatMap((from) =>
				databases.filter((to) => to.name !== from.name).map((to) => ({ from, to })),
			)
		: databases.map((only) => ({ from: only, to: only }))

describe.each(pairs)('moving a site: $from.name → $to.name', ({ from, to }) => {
	let source: TestApp
	let target: TestDatabase
	let facts: SiteFacts
	let folder: string
	let imported: Awaited<ReturnType<typeof runCli>>
	const file = (name: string) => join(folder, name)

	beforeAll(async () => {
		folder = mkdtempSync(join(tmpdir(), 'canopy-move-'))
		source = await startTestApp({ database: from.create })
		facts = await fillSite(source)
		target = await to.create()
		for (const [name, flags] of [
			['site.json', []],
			['site-with-passwords.json', ['--with-passwords']],
		] as const) {
			const exported = await runCli(['export', file(name), ...flags], source.env)
			expect(exported.stderr).toBe('')
			expect(exported.code).toBe(0)
		}
		imported = await runCli(['import', file('site-with-passwords.json')], target.env)
	}, 60_000)

	afterAll(async () => {
		await source?.close()
		await target?.drop()
		rmSync(folder, { recursive: true, force: true })
	})

	it('holds the whole site in one file, and the new database gives back the same bytes', async () => {
		expect(imported).toMatchObject({ code: 0, stderr: '' })
		expect(imported.stdout).toBe(
			`Imported 2 accounts (with passwords), 8 articles, 1 image, 1 message, 2 configuration versions, 4 settings, 1 push subscription, 1 screen view, 18 daily totals into the ${to.name === 'postgres' ? 'PostgreSQL' : 'SQLite'} database.\nStart Canopy on this database now, or restart it if it was running, so it uses the imported settings.\n`,
		)
		for (const [name, flags] of [
			['site.json', []],
			['site-with-passwords.json', ['--with-passwords']],
		] as const) {
			const again = await runCli(['export', file(`again-${name}`), ...flags], target.env)
			expect(again.code).toBe(0)
			expect(readFileSync(file(`again-${name}`)).equals(readFileSync(file(name))), name).toBe(true)
		}

		const text = readFileSync(file('site.json'), 'utf8')
		const lines = text.split('\n')
		expect(lines[0]).toBe('{"format":"canopy-export","version":1,"passwords":false,')
		const site = JSON.parse(text)
		expect(Object.keys(site)).toEqual([
			'format',
			'version',
			'passwords',
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
		])
		// The installation's own secrets stay behind; the VAPID keys go with the subscriptions.
		expect(site.settings.map((row: { key: string }) => row.key)).toEqual([
			'contact.retentionDays',
			'push.vapidKeys',
			'site.tagline',
			'site.title',
		])
		expect(text).not.toContain('auth.secret')
		expect(site.users.map((user: { email: string }) => user.email).sort()).toEqual([
			facts.adminEmail,
			facts.editorEmail,
		])
		expect(site.accounts).toEqual([])
		expect(site.apiKeys).toEqual([])
		expect(text).not.toContain('scrypt$')
		expect(Buffer.from(site.uploads[0].bytes, 'base64').equals(Buffer.from(facts.image))).toBe(true)
		expect(site.articles.map((article: { slug: string }) => article.slug)).toContain(
			facts.articleSlug,
		)
		expect(site.pushResults).toEqual([
			{ articleId: expect.any(Number), sent: 1, gone: 0, failed: 0, cancelled: 0 },
		])
		expect(site.configVersions.map((version: { id: number }) => version.id)).toEqual([1, 2])
		expect(site.contactMessages[0]).toMatchObject({ name: 'Chidi Obi', readAt: expect.any(String) })
		// Every timestamp in one form, whichever database wrote it.
		for (const article of site.articles)
			expect(article.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

		expect(site.tags).toContainEqual(
			expect.objectContaining({
				slug: 'wetlands',
				description: expect.stringContaining('Marshes'),
			}),
		)
		expect(site.authors).toContainEqual(
			expect.objectContaining({ slug: 'ana-costa', bio: 'Counts herons every spring.' }),
		)
		expect(site.redirects).toEqual([
			expect.objectContaining({
				from: '/2019/heron',
				to: '/articles/wetlands-we-saved',
				status: 301,
			}),
		])
		const article = site.articles.find((row: { slug: string }) => row.slug === facts.articleSlug)
		expect([article.tags, article.authors]).toEqual([['Wetlands', 'birds'], ['Ana Costa']])
		// Its history goes with it: the revision its last save left holds what it holds.
		const history = site.revisions.filter(
			(row: { articleId: number }) => row.articleId === article.id,
		)
		expect(history.length).toBeGreaterThan(0)
		expect(history.at(-1)).toMatchObject({
			title: article.title,
			bodyMarkdown: article.bodyMarkdown,
		})

		const withPasswords = JSON.parse(readFileSync(file('site-with-passwords.json'), 'utf8'))
		expect(withPasswords.passwords).toBe(true)
		expect(withPasswords.accounts).toHaveLength(2)
		expect(withPasswords.accounts[0].password).toMatch(/^scrypt\$/)
		expect(withPasswords.apiKeys).toEqual([expect.objectContaining({ name: 'Newsletter script' })])
	}, 60_000)

	it('serves the moved site: articles, the image, the settings, sign-in, push keys, new rows', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'canopy-moved-'))
		const server = await startServer({ DATA_DIR: dataDir, ...target.env }, await freePort())
		try {
			expect(server.output()).not.toContain('sample content added')
			expect(server.output()).not.toContain('Make the first admin account')
			const page = await fetch(`${server.url}/articles/${facts.articleSlug}`)
			expect(page.status).toBe(200)
			const html = await page.text()
			expect(html).toContain('Wetlands we saved — “ünïcödé” 🌍')
			expect(html).toContain(`src="${facts.imageUrl}"`)
			expect(html).toContain('<table tabindex="0">')
			const tag = await (await fetch(`${server.url}/tags/wetlands`)).text()
			expect(tag).toContain('Marshes, fens and the birds that need them.')
			expect(tag).toContain('Wetlands we saved')
			const moved = await fetch(`${server.url}/2019/heron`, { redirect: 'manual' })
			expect(moved.headers.get('location')).toBe('/articles/wetlands-we-saved')
			const list = await (await fetch(`${server.url}/articles`)).text()
			expect(list).toContain('Wetlands we saved')
			expect(list).not.toContain('The Living Ground')
			expect((await fetch(`${server.url}/articles/spring-count`)).status).toBe(404)
			expect(await (await fetch(`${server.url}/home`)).text()).toContain('Estuary Watch')

			const image = await fetch(`${server.url}${facts.imageUrl}`)
			expect(image.status).toBe(200)
			expect(Buffer.from(await image.arrayBuffer()).equals(Buffer.from(facts.image))).toBe(true)
			// The file carries no versions: the cover's size came with the move, and the server's
			// job makes the versions of the images brought in (seconds on a quiet machine; its
			// process runs at a lower priority, so a busy test suite can hold it up for a minute).
			const version = facts.imageUrl.replace('.png', '-480.avif')
			expect(html).toContain(`${version} 480w, ${facts.imageUrl.replace('.png', '-640.avif')} 640w`)
			await expect
				.poll(async () => (await fetch(`${server.url}${version}`, { redirect: 'manual' })).status, {
					timeout: 90_000,
				})
				.toBe(200)

			// The same VAPID public key: browsers' subscriptions keep working after the move.
			const key = async (url: string) =>
				(await (await fetch(`${url}/api/push/key`)).json()) as unknown
			expect(await key(server.url)).toEqual(await key(source.url))

			const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Origin: server.url },
				body: JSON.stringify({ email: facts.adminEmail, password }),
			})
			expect(signIn.status).toBe(200)
			expect(((await signIn.json()) as { user: { role: string } }).user.role).toBe('admin')

			// New rows take ids after the imported ones (PostgreSQL's identities were moved on).
			const draft = join(dataDir, 'after.md')
			writeFileSync(draft, articleFile({ title: 'After the move', slug: 'after-the-move' }))
			const published = await runCli(['article:publish', draft], target.env)
			expect(published).toMatchObject({ code: 0, stdout: expect.stringContaining('Published') })
			expect((await fetch(`${server.url}/articles/after-the-move`)).status).toBe(200)
			const storage = target.open()
			try {
				const message = await storage.messages.create(
					{
						idempotencyKey: 'after-the-move',
						name: 'Dee',
						email: 'dee@example.net',
						subject: '',
						message: 'Hello',
					},
					[],
				)
				expect(message.created).toBe(true)
				expect((await storage.push.saveSubscription(pushSubscription(), new Date())).created).toBe(
					true,
				)
				const image = pngImage(3, 3, { rgb: [200, 10, 10] })
				await storage.uploads.put({
					hash: createHash('sha256').update(image).digest('hex'),
					mime: 'image/png',
					size: image.byteLength,
					width: 3,
					height: 3,
					bytes: image,
					createdBy: null,
				})
			} finally {
				await storage.close()
			}
		} finally {
			server.child.kill('SIGTERM')
			await server.exited
			rmSync(dataDir, { recursive: true, force: true })
		}
	}, 150_000)
})
