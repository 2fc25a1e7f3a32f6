// The admin API over real HTTP: every endpoint with a key and with a session, and every refusal.
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
	type ApiCall,
	type Credentials,
	callApi,
	makeKey,
	makeUser,
	signIn,
} from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { cameraMarks, photoWithMetadata, pngImage, svgImage } from '#tests/fixtures/images.ts'

const articles = '/api/admin/articles'

let app: TestApp
let adminId: string
const callers: Record<'key' | 'session', Credentials> = { key: null, session: null }

beforeAll(async () => {
	app = await startTestApp({ seed: false })
	adminId = await makeUser(app, 'ada@example.org', 'admin', 'Ada Admin')
	await makeUser(app, 'eli@example.org', 'editor', 'Eli Editor')
	callers.key = { key: await makeKey(app, adminId) }
	callers.session = { cookie: await signIn(app, 'eli@example.org'), origin: app.url }
})
afterAll(async () => {
	await app?.close()
})

const newArticle = (title: string, extra: Record<string, unknown> = {}) => ({
	title,
	summary: 'Why wetlands matter.',
	body: '## Peat\n\nPeatlands hold **twice** the carbon of all forests.',
	tags: ['Wetlands', 'carbon'],
	...extra,
})

async function json(response: Response) {
	expect(response.headers.get('content-type')).toMatch(/^application\/json/)
	return response.json()
}

describe.each(['key', 'session'] as const)('the articles API with a %s', (via) => {
	const call = (path: string, init?: ApiCall) => callApi(app, path, callers[via], init)

	it('creates a draft (201, Location), reads it, and finds it in the list', async () => {
		const created = await call(articles, { method: 'POST', body: newArticle(`Peat ${via}`) })
		expect(created.status).toBe(201)
		const { article } = await json(created)
		expect(created.headers.get('location')).toBe(`${articles}/${article.id}`)
		expect(created.headers.get('cache-control')).toBe('no-store')
		expect(article).toMatchObject({
			slug: `peat-${via}`,
			title: `Peat ${via}`,
			summary: 'Why wetlands matter.',
			body: '## Peat\n\nPeatlands hold **twice** the carbon of all forests.',
			// As written the first time a tag is named; "wetlands" later is the same tag.
			tags: ['Wetlands', 'carbon'],
			authors: [via === 'key' ? 'Ada Admin' : 'Eli Editor'],
			status: 'draft',
			author: via === 'key' ? 'Ada Admin' : 'Eli Editor',
			version: 1,
			url: null,
			publishedAt: null,
		})
		expect(article.html).toContain('<strong>twice</strong>')

		const read = await call(`${articles}/${article.id}`)
		expect(read.status).toBe(200)
		expect((await json(read)).article).toEqual(article)

		const list = await call(`${articles}?q=${encodeURIComponent(`peat ${via}`)}&status=draft`)
		expect(list.status).toBe(200)
		const page = await json(list)
		expect(page).toMatchObject({ total: 1, page: 1, pages: 1 })
		expect(page.items).toEqual([
			expect.objectContaining({ id: article.id, status: 'draft', version: 1, url: null }),
		])
		const published = await json(await call(`${articles}?q=${`peat ${via}`}&status=published`))
		expect(published.total).toBe(0)
	})

	it('makes an article once for a create sent again with its Idempotency-Key', async () => {
		// No slug: sent twice without a key, the second would be "…-2".
		const body = newArticle(`Mangroves ${via}`, { intent: 'publish' })
		const send = (key: string, sent: unknown = body) =>
			call(articles, { method: 'POST', body: sent, headers: { 'Idempotency-Key': key } })
		const key = crypto.randomUUID()
		const first = await send(key)
		expect(first.status).toBe(201)
		expect(first.headers.get('idempotent-replayed')).toBeNull()
		const { article } = await json(first)

		const again = await send(key)
		expect(again.status).toBe(201)
		expect(again.headers.get('idempotent-replayed')).toBe('true')
		expect(again.headers.get('location')).toBe(`${articles}/${article.id}`)
		expect((await json(again)).article).toEqual(article)
		const found = await json(await call(`${articles}?q=${encodeURIComponent(`mangroves ${via}`)}`))
		expect(found.total).toBe(1)

		const other = await send(key, { ...body, title: `Saltmarsh ${via}` })
		expect(other.status).toBe(422)
		expect((await json(other)).errors).toEqual({
			'Idempotency-Key': [
				'This key came before with a different request. Use a new key for a new article.',
			],
		})
		for (const bad of ['', 'with space', 'x'.repeat(256)]) {
			const refused = await send(bad)
			expect(refused.status, JSON.stringify(bad)).toBe(400)
			expect(Object.keys((await json(refused)).errors)).toEqual(['Idempotency-Key'])
		}
		expect((await json(await call(`${articles}?q=saltmarsh`))).total).toBe(0)
	})

	it('updates with the version it read, and refuses a stale one with 409 and the current article', async () => {
		const { article } = await json(
			await call(articles, { method: 'POST', body: newArticle(`Mangroves ${via}`) }),
		)
		const updated = await call(`${articles}/${article.id}`, {
			method: 'PUT',
			body: { ...article, title: `Mangroves and tides ${via}`, version: 1 },
		})
		expect(updated.status).toBe(200)
		const saved = (await json(updated)).article
		expect(saved).toMatchObject({
			title: `Mangroves and tides ${via}`,
			slug: article.slug,
			status: 'draft',
			version: 2,
		})

		const stale = await call(`${articles}/${article.id}`, {
			method: 'PUT',
			body: { ...article, title: 'Lost edit', version: 1 },
		})
		expect(stale.status).toBe(409)
		const refusal = await json(stale)
		expect(refusal.error).toMatch(/changed this article since you read it/)
		expect(refusal.current).toMatchObject({
			version: 2,
			title: `Mangroves and tides ${via}`,
			updatedAt: saved.updatedAt,
		})
		expect((await json(await call(`${articles}/${article.id}`))).article.title).toBe(
			`Mangroves and tides ${via}`,
		)
	})

	it('answers bad fields with 400 and a message per field, and saves nothing', async () => {
		const before = await json(await call(articles))
		const response = await call(articles, {
			method: 'POST',
			body: { title: '', body: '', tags: 'not a list', cover: 'javascript:alert(1)' },
		})
		expect(response.status).toBe(400)
		const { error, errors } = await json(response)
		expect(error).toBe('Some fields need fixing; see errors.')
		expect(errors.title).toEqual(['Give the article a title.'])
		expect(errors.body).toEqual(['The article has no text.'])
		expect(errors.tags).toHaveLength(1)
		expect(errors.cover).toEqual([
			'The cover image must be a path on this site or an https:// address.',
		])
		expect((await json(await call(articles))).total).toBe(before.total)

		const { article } = await json(
			await call(articles, { method: 'POST', body: newArticle(`Kelp ${via}`) }),
		)
		const noVersion = await call(`${articles}/${article.id}`, {
			method: 'PUT',
			body: newArticle('No version'),
		})
		expect(noVersion.status).toBe(400)
		expect((await json(noVersion)).errors.version[0]).toMatch(/version/)
		const badSlug = await call(`${articles}/${article.id}`, {
			method: 'PUT',
			body: newArticle('Bad slug', { slug: 'Not A Slug', version: 1 }),
		})
		expect(badSlug.status).toBe(400)
		expect((await json(badSlug)).errors.slug).toEqual([
			'Use lowercase letters, digits and single hyphens in the slug.',
		])
		const nul = await call(articles, { method: 'POST', body: newArticle('Nul\u0000title') })
		expect(nul.status).toBe(400)
		expect((await json(nul)).errors.title[0]).toMatch(/NUL/)
	})

	it('publishes and unpublishes with the version, and refuses a stale version', async () => {
		const { article } = await json(
			await call(articles, { method: 'POST', body: newArticle(`Seagrass ${via}`) }),
		)
		const stale = await call(`${articles}/${article.id}/publish`, {
			method: 'POST',
			body: { version: 7 },
		})
		expect(stale.status).toBe(409)
		expect((await json(stale)).current).toMatchObject({ version: 1, status: 'draft' })

		const published = await call(`${articles}/${article.id}/publish`, {
			method: 'POST',
			body: { version: 1 },
		})
		expect(published.status).toBe(200)
		const live = (await json(published)).article
		expect(live).toMatchObject({
			status: 'published',
			version: 2,
			url: `${app.url}/articles/${article.slug}`,
		})
		expect(live.publishedAt).toEqual(expect.any(String))
		expect((await fetch(live.url)).status).toBe(200)

		const unpublished = await call(`${articles}/${article.id}/unpublish`, {
			method: 'POST',
			body: { version: 2 },
		})
		expect(unpublished.status).toBe(200)
		expect((await json(unpublished)).article).toMatchObject({
			status: 'draft',
			version: 3,
			url: null,
		})
		expect((await fetch(live.url)).status).toBe(404)

		const missingVersion = await call(`${articles}/${article.id}/unpublish`, {
			method: 'POST',
			body: {},
		})
		expect(missingVersion.status).toBe(400)
		expect((await json(missingVersion)).errors.version).toHaveLength(1)
	})

	it('deletes, refusing a wrong version with 409; then the article is gone (404)', async () => {
		const { article } = await json(
			await call(articles, { method: 'POST', body: newArticle(`Dunes ${via}`) }),
		)
		const wrong = await call(`${articles}/${article.id}?version=5`, { method: 'DELETE' })
		expect(wrong.status).toBe(409)
		expect((await json(wrong)).current).toMatchObject({ id: article.id, version: 1 })

		const deleted = await call(`${articles}/${article.id}?version=1`, { method: 'DELETE' })
		expect(deleted.status).toBe(204)
		expect(await deleted.text()).toBe('')
		const gone = await call(`${articles}/${article.id}`)
		expect(gone.status).toBe(404)
		expect((await json(gone)).error).toMatch(/no article with this id/)
		expect((await call(`${articles}/${article.id}`, { method: 'DELETE' })).status).toBe(404)

		const another = (
			await json(await call(articles, { method: 'POST', body: newArticle(`Reefs ${via}`) }))
		).article
		// Without a version, the delete is unconditional.
		expect((await call(`${articles}/${another.id}`, { method: 'DELETE' })).status).toBe(204)
	})

	it('answers 404 for an article id that does not exist or is not an id', async () => {
		for (const id of ['999999', 'abc', '0', '99999999999999999999']) {
			const response = await call(`${articles}/${id}`)
			expect(response.status, id).toBe(404)
			expect((await json(response)).error).toMatch(/no article with this id/)
			const put = await call(`${articles}/${id}`, {
				method: 'PUT',
				body: newArticle('X', { version: 1 }),
			})
			expect(put.status, id).toBe(404)
		}
	})
})

describe('refusals', () => {
	const withKey = (path: string, init?: ApiCall) => callApi(app, path, callers.key, init)

	it('answers 401 without credentials, with a Bearer challenge and words that say what to do', async () => {
		for (const method of ['GET', 'POST']) {
			const response = await callApi(app, articles, null, {
				method,
				body: method === 'POST' ? newArticle('x') : undefined,
			})
			expect(response.status).toBe(401)
			expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /)
			expect((await json(response)).error).toMatch(/Sign in to the editor area, or send an API key/)
		}
	})

	it('answers 401 for an unknown key, a malformed header and a revoked key', async () => {
		const unknown = await callApi(app, articles, { key: `cnp_${'A'.repeat(43)}` })
		expect(unknown.status).toBe(401)
		expect(unknown.headers.get('www-authenticate')).toMatch(/error="invalid_token"/)
		expect((await json(unknown)).error).toMatch(/unknown, revoked/)
		for (const header of ['Basic YWRhOnB3', 'Bearer', 'Bearer not-a-canopy-key']) {
			const response = await callApi(app, articles, null, { headers: { Authorization: header } })
			expect(response.status, header).toBe(401)
		}

		const key = await makeKey(app, adminId, 'Soon revoked')
		expect((await callApi(app, articles, { key })).status).toBe(200)
		const record = (await app.storage.apiKeys.list()).find((item) => item.name === 'Soon revoked')
		expect(record?.lastUsedAt).toEqual(expect.any(String))
		expect(await app.storage.apiKeys.revoke(record?.id ?? 0)).toBe(true)
		const revoked = await callApi(app, articles, { key })
		expect(revoked.status).toBe(401)
		expect(revoked.headers.get('www-authenticate')).toMatch(/^Bearer /)
	})

	it('answers 401 for the key of an account that was deactivated', async () => {
		const userId = await makeUser(app, 'gone@example.org', 'admin')
		const key = await makeKey(app, userId)
		expect((await callApi(app, articles, { key })).status).toBe(200)
		await app.storage.authDatabase.db
			.updateTable('user')
			.set({ deactivatedAt: new Date().toISOString() })
			.where('id', '=', userId)
			.execute()
		const response = await callApi(app, articles, { key })
		expect(response.status).toBe(401)
		expect((await json(response)).error).toMatch(/account that no longer works/)
	})

	it('refuses a session mutation sent from another site with 403, and saves nothing', async () => {
		const before = (await json(await withKey(articles))).total
		const cookie = (callers.session as { cookie: string }).cookie
		const response = await callApi(
			app,
			articles,
			{ cookie, origin: 'https://evil.example' },
			{
				method: 'POST',
				body: newArticle('Forged'),
			},
		)
		expect(response.status).toBe(403)
		expect((await json(response)).error).toMatch(/another site/)
		expect((await json(await withKey(articles))).total).toBe(before)
	})

	it('answers 413 for a body over the cap (6 MB for articles, 64 KB elsewhere)', async () => {
		const response = await withKey(articles, {
			method: 'POST',
			body: newArticle('Huge', { body: 'x'.repeat(6.5 * 1024 * 1024) }),
		})
		expect(response.status).toBe(413)
		expect((await json(response)).error).toBe('The request body is larger than 6 MB.')
		const elsewhere = await withKey('/api/admin/nothing-here', {
			method: 'POST',
			body: { padding: 'x'.repeat(70 * 1024) },
		})
		expect(elsewhere.status).toBe(413)
		expect((await json(elsewhere)).error).toBe('The request body is larger than 64 KB.')
	})

	it('stores an image sent as the body or as a form field, refusing SVG by its bytes', async () => {
		const png = pngImage(8, 6)
		const key = (callers.key as { key: string }).key
		const raw = await fetch(`${app.url}/api/admin/uploads`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/octet-stream' },
			body: png,
		})
		expect(raw.status).toBe(201)
		const rawUrl = (await json(raw)).upload.url
		const form = new FormData()
		form.set('file', new Blob([png], { type: 'image/jpeg' }), 'cover.jpg')
		const stored = await fetch(`${app.url}/api/admin/uploads`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${key}` },
			body: form,
		})
		expect(stored.status).toBe(201)
		const { upload } = await json(stored)
		expect(upload).toMatchObject({ mime: 'image/png', width: 8, height: 6 })
		expect(upload.url).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)
		expect(upload.url).toBe(rawUrl)
		const served = await fetch(`${app.url}${upload.url}`)
		const servedBytes = Buffer.from(await served.arrayBuffer())
		expect(createHash('sha256').update(servedBytes).digest('hex')).toBe(upload.url.slice(7, 71))
		expect((await sharp(servedBytes).metadata()).width).toBe(8)

		// A photo with its GPS position goes out without it.
		const photo = await fetch(`${app.url}/api/admin/uploads`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'image/jpeg' },
			body: await photoWithMetadata('jpeg'),
		})
		expect(photo.status).toBe(201)
		const photoBytes = Buffer.from(
			await (await fetch(`${app.url}${(await json(photo)).upload.url}`)).arrayBuffer(),
		)
		expect((await sharp(photoBytes).metadata()).exif).toBeUndefined()
		for (const mark of [...cameraMarks, 'GPS'])
			expect(photoBytes.toString('latin1')).not.toContain(mark)

		const svg = await fetch(`${app.url}/api/admin/uploads`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${key}`,
				'Content-Type': 'image/png',
			},
			body: svgImage(),
		})
		expect(svg.status).toBe(415)
		expect((await json(svg)).errors.file[0]).toContain('SVG')
	})

	it('answers 415 for a body that is not JSON, and 400 for malformed or non-object JSON', async () => {
		const form = await withKey(articles, {
			method: 'POST',
			body: 'title=x&body=y',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		})
		expect(form.status).toBe(415)
		expect((await json(form)).error).toMatch(/Content-Type: application\/json/)
		const untyped = await withKey(`${articles}/1/publish`, { method: 'POST', body: '{}' })
		expect(untyped.status).toBe(415)

		const json400 = { 'Content-Type': 'application/json' }
		for (const body of ['{"title": "x",', '', 'null', '[1, 2]', '"text"']) {
			const response = await withKey(articles, { method: 'POST', body, headers: json400 })
			expect(response.status, body).toBe(400)
			expect((await json(response)).error, body).toMatch(/JSON/)
		}
	})

	it('answers a method an endpoint does not take with 405 and Allow', async () => {
		const cases: [string, string, string][] = [
			['PUT', articles, 'GET, HEAD, POST'],
			['DELETE', articles, 'GET, HEAD, POST'],
			['POST', `${articles}/1`, 'GET, HEAD, PUT, DELETE'],
			['PATCH', `${articles}/1`, 'GET, HEAD, PUT, DELETE'],
			['GET', `${articles}/1/publish`, 'POST'],
			['PUT', `${articles}/1/unpublish`, 'POST'],
		]
		for (const [method, path, allow] of cases) {
			const response = await withKey(path, { method })
			expect(response.status, `${method} ${path}`).toBe(405)
			expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow)
			expect((await json(response)).error).toContain(`${method} is not supported here`)
		}
	})

	it('answers an unknown admin API address with 404 JSON, once the caller is known', async () => {
		for (const path of ['/api/admin/nope', '/api/admin/articles/1/archive', '/api/admin/']) {
			for (const method of ['GET', 'POST']) {
				const response = await withKey(path, { method })
				expect(response.status, `${method} ${path}`).toBe(404)
				expect((await json(response)).error).toMatch(/no such admin API endpoint/)
			}
		}
		// Anywhere else under /api is not the admin API at all.
		expect((await withKey('/api/other')).status).toBe(404)
	})

	it('refuses the session of an account deactivated after it signed in', async () => {
		const userId = await makeUser(app, 'left@example.org', 'editor')
		const cookie = await signIn(app, 'left@example.org')
		const session = { cookie, origin: app.url }
		expect((await callApi(app, articles, session)).status).toBe(200)
		await app.storage.authDatabase.db
			.updateTable('user')
			.set({ deactivatedAt: new Date().toISOString() })
			.where('id', '=', userId)
			.execute()
		expect((await callApi(app, articles, session)).status).toBe(401)
	})
})

describe('publishing through the API', () => {
	it('puts a published article on the live stream as "added"', async () => {
		const since = await app.storage.changes.latestId()
		const created = await callApi(app, articles, callers.key, {
			method: 'POST',
			body: newArticle('Live from the API', { intent: 'publish' }),
		})
		expect(created.status).toBe(201)
		const { article } = await created.json()
		expect(article.status).toBe('published')
		const changes = await app.storage.changes.after(since, 10)
		expect(changes).toEqual([
			expect.objectContaining({ kind: 'added', entityId: String(article.id) }),
		])
	})

	it('schedules with a time in the future, and keeps the schedule when sent back unchanged', async () => {
		const publishAt = new Date(Date.now() + 86_400_000).toISOString()
		const created = await callApi(app, articles, callers.key, {
			method: 'POST',
			body: newArticle('Scheduled by the API', { status: 'scheduled', publishAt }),
		})
		expect(created.status).toBe(201)
		const { article } = await created.json()
		expect(article).toMatchObject({ status: 'scheduled', publishAt, url: null })
		const resent = await callApi(app, `${articles}/${article.id}`, callers.key, {
			method: 'PUT',
			body: { ...article, summary: 'Changed.' },
		})
		expect((await resent.json()).article).toMatchObject({
			status: 'scheduled',
			publishAt,
			summary: 'Changed.',
			version: 2,
		})
	})
})
