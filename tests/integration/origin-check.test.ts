// The Origin check of every mutation compares with SITE_URL's origin, never with the address the
// request names itself: a client chooses the Host header, so "Origin equals our own origin"
// computed from Host would let any Origin through with a Host to match.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'

/** A raw POST, so the Host header is the test's to choose (fetch does not let it be set). */
function post(app: TestApp, path: string, headers: Record<string, string>, body: string) {
	const { port } = new URL(app.url)
	return new Promise<number>((resolve, reject) => {
		const sent = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (response) => {
			response.resume()
			resolve(response.statusCode ?? 0)
		})
		sent.on('error', reject)
		sent.end(body)
	})
}

describe('the Origin check', () => {
	let app: TestApp
	let cookie = ''
	beforeAll(async () => {
		app = await startTestApp({ siteUrl: 'https://news.example.org' })
		await makeUser(app, 'ada@example.org', 'admin')
		cookie = await signIn(app, 'ada@example.org', 'https://news.example.org')
	})
	afterAll(() => app.close())

	const form = 'intent=create&name=Stolen'

	it('refuses an Origin that matches only the Host header the client sent', async () => {
		const status = await post(
			app,
			'/admin/api-keys',
			{
				Host: 'evil.example',
				Origin: 'http://evil.example',
				Cookie: cookie,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			form,
		)
		expect(status).toBe(403)
		expect(await app.storage.apiKeys.list()).toEqual([])
	})

	it('takes the site’s own origin, as the site’s own pages send it', async () => {
		const status = await post(
			app,
			'/admin/api-keys',
			{
				Host: 'news.example.org',
				'X-Forwarded-Proto': 'https',
				Origin: 'https://news.example.org',
				Cookie: cookie,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			form,
		)
		expect(status).toBeLessThan(400)
		expect((await app.storage.apiKeys.list()).map((key) => key.name)).toEqual(['Stolen'])
	})
})
