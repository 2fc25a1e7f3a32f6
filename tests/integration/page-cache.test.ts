// The page cache over HTTP, both ways: a reader who carries cookies of no concern to Canopy (a
// theme, a consent banner's, an analytics tool's) is answered from the cache like one without;
// a signed-in person is never answered from it, and nothing rendered for them is kept for readers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { articleFile } from '#tests/fixtures/factories.ts'
import { makeAccount, signIn, teamPassword } from '#tests/fixtures/forms.ts'
import { runCli } from '#tests/fixtures/process.ts'

describe('the page cache', () => {
	let app: TestApp
	let staff = ''
	const get = (path: string, cookie?: string) =>
		fetch(`${app.url}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: 'manual' })
	const withoutNonce = (html: string) => html.replaceAll(/nonce="[^"]+"/g, 'nonce=""')

	beforeAll(async () => {
		app = await startTestApp()
		await makeAccount(app, 'ines@example.org', 'editor', 'Inês Duarte')
		;({ cookie: staff } = await signIn(app, 'ines@example.org', teamPassword))
		expect(staff).toContain('canopy.session_token=')
	})
	afterAll(async () => {
		await app?.close()
	})

	it('answers readers with unrelated cookies from the cache, with the page a cookieless reader gets', async () => {
		const path = '/articles/half-a-degree-matters'
		const first = await get(path, 'theme=dark; _ga=GA1.1.42.1700000000')
		expect(first.status).toBe(200)
		expect(first.headers.get('cache-status')).toBe('canopy; fwd=uri-miss; stored')
		const html = await first.text()

		const banner = await get(path, 'cookieconsent_status=dismiss; __cf_bm=Zx9.abc')
		expect(banner.headers.get('cache-status')).toBe('canopy; hit')
		expect(withoutNonce(await banner.text())).toBe(withoutNonce(html))

		const plain = await get(path)
		expect(plain.headers.get('cache-status')).toBe('canopy; hit')
		expect(withoutNonce(await plain.text())).toBe(withoutNonce(html))
	})

	it('never answers a signed-in person from the cache, and keeps nothing rendered for them', async () => {
		// Warm for readers, then asked with a session beside an unrelated cookie: rendered anew.
		await get('/articles')
		expect((await get('/articles')).headers.get('cache-status')).toBe('canopy; hit')
		const signedIn = await get('/articles', `theme=dark; ${staff}`)
		expect(signedIn.status).toBe(200)
		expect(signedIn.headers.get('cache-status')).toBe('canopy; fwd=bypass')

		// First asked by the signed-in person: their answer is not the one readers get next.
		const first = await get('/home', staff)
		expect(first.headers.get('cache-status')).toBe('canopy; fwd=bypass')
		expect((await get('/home')).headers.get('cache-status')).toBe('canopy; fwd=uri-miss; stored')
		expect((await get('/home', staff)).headers.get('cache-status')).toBe('canopy; fwd=bypass')

		// The staff area is never kept, signed in or not.
		const admin = await get('/admin/articles', staff)
		expect(admin.status).toBe(200)
		expect(admin.headers.get('cache-status')).toBe('canopy; fwd=bypass')
		expect((await get('/admin/articles', staff)).headers.get('cache-status')).toBe(
			'canopy; fwd=bypass',
		)
	})

	// Another process's change (the command line's, on the same SQLite file) reaches the page cache
	// and the kept public reads each by its own poll of the feed: the page cache must never keep a
	// page rendered, after it heard, from reads kept before (decision 038).
	it('keeps no page rendered from old reads once it has heard of another process’s change', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'canopy-cache-cli-'))
		try {
			const path = '/articles/wetland-watch'
			const file = join(dir, 'wetland-watch.md')
			writeFileSync(file, articleFile({ title: 'Wetland watch', slug: 'wetland-watch' }))
			expect((await runCli(['article:publish', file], app.env)).code).toBe(0)
			// Heard by this process (its poll of the feed), then kept by the page cache.
			const published = await app.storage.changes.latestId()
			await expect
				.poll(() => app.broker.lastId, { timeout: 5_000 })
				.toBeGreaterThanOrEqual(published)
			await expect
				.poll(async () => (await get(path)).headers.get('cache-status'), { timeout: 5_000 })
				.toBe('canopy; hit')

			// The moment the page cache has emptied for this article's change, a reader asks (as
			// one would, at any moment).
			const id = String((await app.storage.articles.findBySlug('wetland-watch'))?.id)
			const asked = new Promise<string>((resolve) => {
				const stop = app.broker.onChanges((changes) => {
					if (!changes.some((change) => change.topic === 'articles' && change.entityId === id))
						return
					stop()
					resolve(get(path).then((answer) => answer.text()))
				})
			})
			writeFileSync(file, articleFile({ title: 'Wetland watch, renamed', slug: 'wetland-watch' }))
			expect((await runCli(['article:publish', file], app.env)).code).toBe(0)
			expect(await asked).toContain('Wetland watch, renamed')
			const next = await get(path)
			expect(await next.text()).toContain('Wetland watch, renamed')
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	})
})
