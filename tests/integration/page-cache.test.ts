// The page cache over HTTP, both ways: a reader who carries cookies of no concern to Canopy (a
// theme, a consent banner's, an analytics tool's) is answered from the cache like one without;
// a signed-in person is never answered from it, and nothing rendered for them is kept for readers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { makeAccount, signIn, teamPassword } from '#tests/fixtures/forms.ts'

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
})
