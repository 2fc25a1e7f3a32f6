// The media library over HTTP, as an editor without JavaScript uses it: images listed with their
// uses and descriptions, found by name, described, replaced everywhere, deleted only when unused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saveArticle } from '#app/features/articles/articles.server.ts'
import { parseQuery } from '#app/features/search/search-query.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { getPage, makeAccount, postForm, signIn, teamPassword } from '#tests/fixtures/forms.ts'
import { pngImage, svgImage } from '#tests/fixtures/images.ts'

describe('the media library', () => {
	let app: TestApp
	let cookie: string

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		await makeAccount(app, 'ines@example.org', 'editor', 'Inês Duarte')
		;({ cookie } = await signIn(app, 'ines@example.org', teamPassword))
	})
	afterAll(async () => {
		await app?.close()
	})

	function send(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) {
		const form = new FormData()
		for (const [key, value] of Object.entries(fields)) form.append(key, value)
		if (file) form.append('file', new File([new Uint8Array(file.bytes)], file.name))
		return fetch(`${app.url}/admin/media`, {
			method: 'POST',
			redirect: 'manual',
			headers: { Origin: app.url, Cookie: cookie },
			body: form,
		})
	}

	async function library(query = '') {
		const response = await getPage(app, `/admin/media${query}`, cookie)
		expect(response.status).toBe(200)
		return response.text()
	}

	async function stored(name: string, bytes: Uint8Array) {
		const response = await send({ intent: 'upload' }, { name, bytes })
		expect(response.status).toBe(200)
		expect(await response.text()).toContain(`${name} was added to the library.`)
		const image = (
			await app.storage.uploads.library({
				search: parseQuery(name) ?? undefined,
				limit: 1,
				offset: 0,
			})
		).images[0]
		if (!image) throw new Error(`${name} is not in the library`)
		return { ...image, url: `/media/${image.hash}.png` }
	}

	it('lists each image with its size, where it is used and with what description', async () => {
		const heron = await stored('heron-at-dawn.png', pngImage(640, 480, { rgb: [80, 100, 120] }))
		const saved = await saveArticle(
			app.storage,
			{
				title: 'The estuary count',
				summary: '',
				body: `Dawn.\n\n![A grey heron](${heron.url})\n\nAnd again: ![](${heron.url})`,
				cover: heron.url,
				coverAlt: 'Herons over the mudflats',
			},
			'draft',
		)
		expect(saved.ok).toBe(true)
		// The page's text, without React's markers between adjacent values.
		const page = (await library()).replaceAll('<!-- -->', '')
		expect(page).toContain('<h2>heron-at-dawn.png</h2>')
		expect(page).toContain('640 × 480 px · PNG')
		expect(page).toMatch(
			/The estuary count<\/a> <span class="media-use-role">\(cover, draft\)<\/span><span class="media-use-alt"> “Herons over the mudflats”/,
		)
		expect(page).toContain('<span class="media-use-alt"> “A grey heron”</span>')
		expect(page).toContain('<strong class="media-use-missing"> no description</strong>')
		// Searched by name: found by a part of it, and only it.
		await stored('reeds.png', pngImage(50, 50, { rgb: [10, 200, 10] }))
		const found = await library('?q=HERON')
		expect(found).toContain('heron-at-dawn.png')
		expect(found).not.toContain('reeds.png')
		expect(await library('?q=100%25')).toContain('No image has a name like that.')
		// The same picture again, under another name: said to be there already, kept as it was.
		const again = await send(
			{ intent: 'upload' },
			{ name: 'reeds-copy.png', bytes: pngImage(50, 50, { rgb: [10, 200, 10] }) },
		)
		expect(again.status).toBe(200)
		const told = await again.text()
		expect(told).toContain(
			'reeds-copy.png is in the library already, as reeds.png: nothing was added.',
		)
		expect(told).not.toContain('was added to the library')
		expect(await library('?q=reeds-copy')).toContain('No image has a name like that.')
	})

	it('keeps a name and a description, offered when the image is next put in a text', async () => {
		const image = await stored('kingfisher.png', pngImage(300, 200, { rgb: [20, 90, 200] }))
		const response = await send({
			intent: 'details',
			hash: image.hash,
			name: 'Kingfisher on a post',
			alt: 'A kingfisher, orange and blue, on a fence post',
		})
		expect(response.status).toBe(200)
		const form = new FormData()
		form.append('file', new File([pngImage(300, 200, { rgb: [20, 90, 200] })], 'again.png'))
		const again = await fetch(`${app.url}/admin/uploads`, {
			method: 'POST',
			headers: { Origin: app.url, Cookie: cookie },
			body: form,
		})
		expect(
			((await again.json()) as { upload: { alt: string; name: string } }).upload,
		).toMatchObject({
			name: 'Kingfisher on a post',
			alt: 'A kingfisher, orange and blue, on a fence post',
		})
	})

	it('refuses to delete an image in use, naming where; deletes an unused one and its address', async () => {
		const used = await stored('used.png', pngImage(40, 30, { rgb: [200, 10, 10] }))
		await saveArticle(
			app.storage,
			{ title: 'Wetland birds', summary: '', body: `![A red square](${used.url})` },
			'published',
		)
		const refused = await send({ intent: 'delete', hash: used.hash })
		expect(refused.status).toBe(409)
		expect(await refused.text()).toContain('This image is still used (Wetland birds)')
		expect((await fetch(`${app.url}${used.url}`)).status).toBe(200)

		const unused = await stored('unused.png', pngImage(40, 30, { rgb: [10, 10, 200] }))
		expect(await library(`?delete=${unused.hash}`)).toContain('Nothing uses it.')
		const deleted = await send({ intent: 'delete', hash: unused.hash })
		expect(deleted.status).toBe(200)
		expect(await deleted.text()).toContain('The image was deleted.')
		expect((await fetch(`${app.url}${unused.url}`)).status).toBe(404)
	})

	it('replaces an image everywhere it is used, in covers and texts, for readers at once', async () => {
		const old = await stored('old-map.png', pngImage(800, 500, { rgb: [120, 120, 120] }))
		const saved = await saveArticle(
			app.storage,
			{
				title: 'Mapping the marsh',
				summary: '',
				body: `The map:\n\n![The marsh, mapped](${old.url} "2024")`,
				cover: old.url,
				coverAlt: 'A map of the marsh',
			},
			'published',
		)
		if (!saved.ok) throw new Error('not saved')
		const response = await send(
			{ intent: 'replace', hash: old.hash },
			{ name: 'new-map.png', bytes: pngImage(1000, 600, { rgb: [30, 140, 60] }) },
		)
		expect(response.status).toBe(200)
		expect(await response.text()).toContain('The new image now stands in 1 place')
		const fresh = (
			await app.storage.uploads.library({
				search: parseQuery('new-map') ?? undefined,
				limit: 1,
				offset: 0,
			})
		).images[0]
		const newUrl = `/media/${fresh?.hash}.png`
		const article = await app.storage.articles.findById(saved.article.id)
		expect(article).toMatchObject({
			coverImageUrl: newUrl,
			coverImageWidth: 1000,
			coverImageHeight: 600,
			bodyMarkdown: `The map:\n\n![The marsh, mapped](${newUrl} "2024")`,
		})
		const html = await (await fetch(`${app.url}/articles/${saved.article.slug}`)).text()
		expect(html).toContain(newUrl)
		expect(html).not.toContain(old.url)
		expect(await library('?q=old-map')).toContain('Not used anywhere.')
	})

	it('refuses what is not an image, and a form that names no image, in words', async () => {
		const svg = await send({ intent: 'upload' }, { name: 'logo.svg', bytes: svgImage() })
		expect(svg.status).toBe(415)
		expect(await svg.text()).toContain('SVG images cannot be uploaded')
		const none = await send({ intent: 'upload' })
		expect(none.status).toBe(400)
		expect(await none.text()).toContain('Choose an image file.')
		const bad = await send({ intent: 'delete', hash: '../../etc' })
		expect(bad.status).toBe(400)
		expect(await bad.text()).toContain('Choose an image from the library.')
		// Not signed in: the sign-in page, and nothing stored.
		const anonymous = await postForm(app, '/admin/media', {
			intent: 'delete',
			hash: 'a'.repeat(64),
		})
		expect([anonymous.status, anonymous.headers.get('location')]).toEqual([
			302,
			'/admin/sign-in?next=%2Fadmin%2Fmedia',
		])
	})
})
