// Image uploads from the editor area and their public addresses, over HTTP.
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saveArticle } from '#app/features/articles/articles.server.ts'
import { createUser } from '#app/features/auth/users.server.ts'
import { defaultMaxImageBytes } from '#app/features/uploads/image-types.ts'
import { imageVersionSteps } from '#app/features/uploads/image-versions.server.ts'
import { createLogger } from '#server/logger.ts'
import { makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import {
	cameraMarks,
	jpegImage,
	photoWithMetadata,
	pngDeclaring,
	pngImage,
	svgImage,
	webpImage,
} from '#tests/fixtures/images.ts'

const password = 'estuary salt marsh 12'

describe('image uploads', () => {
	let app: TestApp
	let cookie: string

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		await createUser(app.auth, app.storage, {
			email: 'ana@example.org',
			name: 'Ana Costa',
			role: 'editor',
			password,
		})
		const signedIn = await fetch(`${app.url}/admin/sign-in`, {
			method: 'POST',
			redirect: 'manual',
			headers: { Origin: app.url, 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ email: 'ana@example.org', password }),
		})
		cookie = signedIn.headers
			.getSetCookie()
			.map((value) => value.split(';')[0])
			.join('; ')
		expect(cookie).toContain('canopy.session_token=')
	})
	afterAll(async () => {
		await app?.close()
	})

	function upload(
		bytes: Uint8Array<ArrayBuffer> | null,
		name = 'image.png',
		headers: Record<string, string> = {},
	) {
		const form = new FormData()
		if (bytes) form.append('file', new File([bytes], name))
		return fetch(`${app.url}/admin/uploads`, {
			method: 'POST',
			redirect: 'manual',
			headers: { Origin: app.url, Cookie: cookie, ...headers },
			body: form,
		})
	}

	async function refusal(response: Response) {
		expect(response.headers.get('content-type')).toMatch(/^application\/json/)
		const body = (await response.json()) as { errors: { file: string[] } }
		return { status: response.status, message: body.errors.file[0] }
	}

	it('stores a signed-in editor’s image and serves it at the hash of its bytes, cached for good', async () => {
		const bytes = pngImage(5, 4)
		const response = await upload(bytes, 'logo.jpg')
		expect(response.status).toBe(201)
		const { upload: stored } = (await response.json()) as {
			upload: { url: string; mime: string; width: number; height: number; size: number }
		}
		expect(stored).toMatchObject({ mime: 'image/png', width: 5, height: 4 })
		expect(stored.url).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)

		const served = await fetch(`${app.url}${stored.url}`)
		expect(served.status).toBe(200)
		const servedBytes = Buffer.from(await served.arrayBuffer())
		expect(createHash('sha256').update(servedBytes).digest('hex')).toBe(stored.url.slice(7, 71))
		expect(servedBytes.byteLength).toBe(stored.size)
		expect(served.headers.get('content-type')).toBe('image/png')
		expect(served.headers.get('content-length')).toBe(String(stored.size))
		expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
		expect(served.headers.get('x-content-type-options')).toBe('nosniff')
		expect(served.headers.get('content-security-policy')).toContain("script-src 'none'")
		const etag = served.headers.get('etag')
		expect(etag).toBe(`"${stored.url.slice(7, 71)}"`)

		const again = await fetch(`${app.url}${stored.url}`, {
			headers: { 'If-None-Match': etag ?? '' },
		})
		expect(again.status).toBe(304)
		expect(again.headers.get('etag')).toBe(etag)
		expect((await again.arrayBuffer()).byteLength).toBe(0)

		const head = await fetch(`${app.url}${stored.url}`, { method: 'HEAD' })
		expect(head.status).toBe(200)
		expect(head.headers.get('content-length')).toBe(String(stored.size))
	})

	it('gives an article’s cover its width and height, fetched first, so the page does not move', async () => {
		const response = await upload(pngImage(64, 36), 'cover.png')
		const { upload: stored } = (await response.json()) as { upload: { url: string } }
		const saved = await saveArticle(
			app.storage,
			{
				title: 'Wetland birds',
				summary: 'Counted at dawn.',
				body: 'Herons and avocets.',
				cover: stored.url,
				coverAlt: 'A heron standing in shallow water',
			},
			'published',
		)
		if (!saved.ok) throw new Error('the article was not saved')
		const html = await (await fetch(`${app.url}/articles/${saved.article.slug}`)).text()
		const cover = /<img[^>]*class="cover"[^>]*>/.exec(html)?.[0] ?? ''
		// Narrower than the narrowest version: offered as it is, and in AVIF and WebP.
		expect(cover).toContain(`src="${stored.url}"`)
		expect(cover).toContain(`srcSet="${stored.url} 64w"`)
		expect(html).toContain(
			`type="image/avif" srcSet="${stored.url.replace('.png', '-64.avif')} 64w"`,
		)
		expect(cover).toContain('width="64"')
		expect(cover).toContain('height="36"')
		// HTML attribute names are case-insensitive; React writes fetchPriority.
		expect(cover.toLowerCase()).toContain('fetchpriority="high"')
		expect(cover).toContain('alt="A heron standing in shallow water"')
	})

	it('serves an editor’s GPS-tagged photo without any of its EXIF, and refuses an image bomb', async () => {
		const response = await upload(await photoWithMetadata('jpeg'), 'IMG_0042.JPG')
		expect(response.status).toBe(201)
		const { upload: stored } = (await response.json()) as { upload: { url: string } }
		const served = Buffer.from(await (await fetch(`${app.url}${stored.url}`)).arrayBuffer())
		const meta = await sharp(served).metadata()
		expect([meta.format, meta.exif, meta.xmp]).toEqual(['jpeg', undefined, undefined])
		for (const mark of [...cameraMarks, 'GPS'])
			expect(served.toString('latin1')).not.toContain(mark)

		const bomb = await upload(pngDeclaring(60_000, 60_000), 'huge.png')
		expect(bomb.status).toBe(400)
		expect(await bomb.text()).toContain('60,000 × 60,000 pixels')
	})

	it('puts a phone photo with GPS in an article’s text and serves readers its versions, none with metadata', async () => {
		const photo = await photoWithMetadata('jpeg', { width: 2400, height: 1600 })
		const response = await upload(photo, 'IMG_2024.JPG')
		const { upload: stored } = (await response.json()) as { upload: { url: string; hash: string } }
		const version = (width: number, extension: string) =>
			`${app.url}${stored.url.replace('.jpg', `-${width}.${extension}`)}`
		// Not made yet: the browser is sent to the image itself, for now only.
		const early = await fetch(version(960, 'avif'), { redirect: 'manual' })
		expect([
			early.status,
			early.headers.get('location'),
			early.headers.get('cache-control'),
		]).toEqual([307, stored.url, 'no-store'])
		// Not a version this image gets (wider than 1600, or not a planned width): none.
		for (const missing of [version(2000, 'avif'), version(961, 'webp')])
			expect((await fetch(missing, { redirect: 'manual' })).status, missing).toBe(404)

		const logger = createLogger('warn', () => {})
		// Every image stored so far, oldest first: this one last.
		const { step } = imageVersionSteps(app.storage, logger)
		while ((await step()).claimed > 0);
		expect(await app.storage.uploads.versionsOf(stored.hash)).toHaveLength(9)
		const served = await fetch(version(960, 'avif'))
		expect(served.status).toBe(200)
		expect(served.headers.get('content-type')).toBe('image/avif')
		expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
		const bytes = Buffer.from(await served.arrayBuffer())
		expect(served.headers.get('etag')).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`)
		for (const mark of [...cameraMarks, 'GPS', 'Exif'])
			expect(bytes.toString('latin1')).not.toContain(mark)
		expect((await sharp(bytes).metadata()).width).toBe(960)
		const again = await fetch(version(960, 'avif'), {
			headers: { 'If-None-Match': served.headers.get('etag') ?? '' },
		})
		expect(again.status).toBe(304)

		const saved = await saveArticle(
			app.storage,
			{
				title: 'The heron count',
				summary: '',
				body: `Dawn on the marsh.\n\n![A grey heron in reeds](${stored.url} "Counted at 6 a.m.")\n\nMore text.`,
				cover: stored.url,
				coverAlt: 'Herons over the marsh',
			},
			'published',
		)
		if (!saved.ok) throw new Error('the article was not saved')
		const html = await (await fetch(`${app.url}/articles/${saved.article.slug}`)).text()
		const figure = /<figure>.*?<\/figure>/s.exec(html)?.[0] ?? ''
		expect(figure).toContain(
			`<source type="image/avif" srcset="${stored.url.replace('.jpg', '-480.avif')} 480w`,
		)
		expect(figure).toContain(
			'alt="A grey heron in reeds" width="2400" height="1600" loading="lazy" decoding="async"',
		)
		expect(figure).toContain('<figcaption>Counted at 6 a.m.</figcaption>')

		// Lists show the cover at a card's size; feeds carry its 960 px version.
		const list = await (await fetch(`${app.url}/articles`)).text()
		expect(list).toMatch(
			/<img class="article-card-cover" src="[^"]+-1600\.jpg" srcSet="[^"]+-480\.jpg 480w/,
		)
		const rss = await (await fetch(`${app.url}/feed.xml`)).text()
		expect(rss).toContain(
			`<enclosure length="0" type="image/jpeg" url="${app.url}${stored.url.replace('.jpg', '-960.jpg')}"/>`,
		)
	})

	it('answers 404 for unknown names, bad names and an extension that is not the stored type', async () => {
		const response = await upload(webpImage(), 'tiny.webp')
		const { upload: stored } = (await response.json()) as { upload: { hash: string } }
		for (const path of [
			`/media/${'a'.repeat(64)}.png`,
			`/media/${stored.hash}.png`,
			`/media/${stored.hash}`,
			'/media/not-a-hash.webp',
		]) {
			const missing = await fetch(`${app.url}${path}`)
			expect(missing.status, path).toBe(404)
			expect(missing.headers.get('cache-control'), path).toBe('no-store')
		}
		expect((await fetch(`${app.url}/media/${stored.hash}.webp`)).status).toBe(200)
	})

	it('refuses an SVG with 415 and says why', async () => {
		expect(await refusal(await upload(svgImage(), 'logo.png'))).toEqual({
			status: 415,
			message: expect.stringContaining('an SVG can carry scripts'),
		})
	})

	it('refuses text with 415, naming the accepted types', async () => {
		const text = new TextEncoder().encode('hello, not an image')
		expect(await refusal(await upload(text, 'notes.png'))).toEqual({
			status: 415,
			message: expect.stringContaining('PNG, JPEG, WebP or AVIF'),
		})
	})

	it('types a file by its bytes: HTML or a script named .jpg is refused, a JPEG labelled PNG is a JPEG', async () => {
		const encode = (text: string) => new TextEncoder().encode(text)
		for (const [name, bytes] of [
			['photo.jpg', encode('<!doctype html><html><body><script>alert(1)</script></body></html>')],
			['holiday.jpg', encode('fetch("/admin").then((r) => r.text()).then(console.log)')],
		] as const) {
			const form = new FormData()
			form.append('file', new File([bytes], name, { type: 'image/jpeg' }))
			const response = await fetch(`${app.url}/admin/uploads`, {
				method: 'POST',
				headers: { Origin: app.url, Cookie: cookie },
				body: form,
			})
			expect(await refusal(response), name).toEqual({
				status: 415,
				message: expect.stringContaining('Its contents are checked, not its name.'),
			})
		}
		const form = new FormData()
		form.append('file', new File([jpegImage(8, 6)], 'label-says.png', { type: 'image/png' }))
		const labelled = await fetch(`${app.url}/admin/uploads`, {
			method: 'POST',
			headers: { Origin: app.url, Cookie: cookie },
			body: form,
		})
		expect(labelled.status).toBe(201)
		const { upload: stored } = (await labelled.json()) as { upload: { url: string; mime: string } }
		expect(stored).toMatchObject({ mime: 'image/jpeg', url: expect.stringMatching(/\.jpg$/) })
		expect((await fetch(`${app.url}${stored.url}`)).headers.get('content-type')).toBe('image/jpeg')
	})

	it('refuses an image over the limit (20 MB by default) with 413', async () => {
		const big = pngImage(1, 1, { padding: defaultMaxImageBytes })
		expect(await refusal(await upload(big))).toEqual({
			status: 413,
			message: expect.stringContaining('larger than 20 MB'),
		})
	})

	it('takes the limits UPLOAD_MAX_MB and UPLOAD_MAX_MEGAPIXELS set, in the cap on the body and in its words', async () => {
		const small = await startTestApp({ seed: false, uploadMaxMb: 1, uploadMaxMegapixels: 1 })
		try {
			await makeUser(small, 'mo@example.org', 'editor')
			const session = await signIn(small, 'mo@example.org')
			const form = new FormData()
			form.set('file', new Blob([pngImage(1, 1, { padding: 900 * 1024 })]), 'under.png')
			const under = await fetch(`${small.url}/admin/uploads`, {
				method: 'POST',
				headers: { Origin: small.url, Cookie: session },
				body: form,
			})
			expect(under.status).toBe(201)
			form.set('file', new Blob([pngImage(1, 1, { padding: 2 * 1024 * 1024 })]), 'over.png')
			const over = await fetch(`${small.url}/admin/uploads`, {
				method: 'POST',
				headers: { Origin: small.url, Cookie: session },
				body: form,
			})
			expect(over.status).toBe(413)
			expect(JSON.stringify(await over.json())).toContain('larger than 1 MB')
			// And UPLOAD_MAX_MEGAPIXELS: 1,200 × 1,000 is more than 1 megapixel.
			form.set('file', new Blob([pngImage(1200, 1000)]), 'wide.png')
			const wide = await fetch(`${small.url}/admin/uploads`, {
				method: 'POST',
				headers: { Origin: small.url, Cookie: session },
				body: form,
			})
			expect(wide.status).toBe(400)
			expect(JSON.stringify(await wide.json())).toContain(
				'This image is 1,200 × 1,000 pixels. Images can be at most 16,384 pixels on a side and 1 megapixels.',
			)
		} finally {
			await small.close()
		}
	})

	it('refuses an empty file or none with 400', async () => {
		expect(await refusal(await upload(new Uint8Array()))).toEqual({
			status: 400,
			message: expect.stringContaining('empty'),
		})
		expect(await refusal(await upload(null))).toEqual({
			status: 400,
			message: 'Choose an image to upload.',
		})
	})

	it('turns away an upload without a session, and stores nothing', async () => {
		const bytes = pngImage(7, 7)
		const response = await upload(bytes, 'x.png', { Cookie: '' })
		expect(response.status).toBe(302)
		expect(response.headers.get('location')).toBe('/admin/sign-in?next=%2Fadmin%2Fuploads')
		const hash = createHash('sha256').update(bytes).digest('hex')
		expect(await app.storage.uploads.get(hash)).toBeUndefined()
	})

	it('refuses an upload posted from another site', async () => {
		const response = await upload(pngImage(), 'x.png', { Origin: 'https://evil.example' })
		expect(response.status).toBe(403)
	})

	it('answers a GET of the upload endpoint with 405', async () => {
		const response = await fetch(`${app.url}/admin/uploads`, { headers: { Cookie: cookie } })
		expect(response.status).toBe(405)
		expect(response.headers.get('allow')).toBe('POST')
	})
})
