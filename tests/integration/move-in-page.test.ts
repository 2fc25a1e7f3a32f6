// Moving in from the admin page, over real HTTP on both databases: a Ghost export and a .zip of
// its images uploaded as a browser sends them, checked first (nothing written), then imported
// from the files the check kept, by a process of its own whose progress and report the run's
// page reads; wrong files refused with the reason by the field.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { getPage } from '#tests/fixtures/forms.ts'
import { photoWithMetadata } from '#tests/fixtures/images.ts'
import { databases } from '#tests/fixtures/storage.ts'
import { zipArchive } from '#tests/fixtures/zip.ts'

const ghostExport = readFileSync('tests/fixtures/imports/ghost-5.json')

describe.each(databases)('the moving-in page: $name', ({ create }) => {
	let app: TestApp
	let cookie: string
	let images: Buffer

	beforeAll(async () => {
		app = await startTestApp({ seed: false, database: create })
		await makeUser(app, 'ada@example.org', 'admin', 'Ada Admin')
		cookie = await signIn(app, 'ada@example.org')
		images = zipArchive([
			{ name: 'content/images/2024/05/bog.jpg', data: await photoWithMetadata('jpeg') },
		])
	})
	afterAll(async () => {
		await app?.close()
	})

	function upload(path: string, files: Record<string, [Uint8Array, string]>, mode = 'check') {
		const form = new FormData()
		for (const [name, [bytes, fileName]] of Object.entries(files))
			form.append(name, new Blob([new Uint8Array(bytes)]), fileName)
		form.append('mode', mode)
		return fetch(new URL(path, app.url), {
			method: 'POST',
			redirect: 'manual',
			headers: { Origin: app.url, Cookie: cookie },
			body: form,
		})
	}

	/** The run's row once its process has finished it. */
	async function finished(id: string) {
		const until = Date.now() + 60_000
		for (;;) {
			const run = await app.storage.moveIns.find(id)
			if (run && run.state !== 'running') return run
			if (Date.now() > until) throw new Error(`The import ${id} did not finish in a minute.`)
			await new Promise((resolve) => setTimeout(resolve, 100))
		}
	}

	it('checks an export first, then imports the files it kept', async () => {
		const checked = await upload('/admin/move-in', {
			export: [ghostExport, 'my-site.ghost.2024-05-01.json'],
			images: [images, 'images.zip'],
		})
		expect(checked.status).toBe(302)
		const page = checked.headers.get('location') ?? ''
		expect(page).toMatch(/^\/admin\/move-in\/[0-9a-f-]{36}$/)
		const id = page.split('/').pop() ?? ''
		const check = await finished(id)
		expect(check).toMatchObject({
			state: 'done',
			dryRun: true,
			format: 'ghost',
			fileName: 'my-site.ghost.2024-05-01.json',
			withImages: true,
			report: { articles: 6, pages: 2, tags: 2, authors: 2, images: 1, redirects: 3 },
		})
		expect(await app.storage.articles.count()).toBe(0)
		const report = await (await getPage(app, page, cookie)).text()
		expect(report).toContain('What would come across')
		expect(report).toContain('Old mobiledoc post')
		expect(report).toContain('Import it now')

		// Imported from the kept files, without sending them again.
		const imported = await fetch(new URL(page, app.url), {
			method: 'POST',
			redirect: 'manual',
			headers: {
				Origin: app.url,
				Cookie: cookie,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			body: '',
		})
		expect(imported.status).toBe(302)
		const next = (imported.headers.get('location') ?? '').split('/').pop() ?? ''
		const run = await finished(next)
		expect(run).toMatchObject({
			state: 'done',
			dryRun: false,
			report: { articles: 6, pages: 2, images: 1 },
		})
		expect(run.progress).toMatchObject({ phase: 'finishing', posts: 9, total: 9 })
		expect(await app.storage.articles.count()).toBe(8)
		// The image came across cleaned, and the files are gone from the server.
		const article = await (await getPage(app, '/articles/peatlands-hold-the-carbon')).text()
		expect(article).toMatch(/src="\/media\/[^"]+"/)
		expect(existsSync(join(app.config.dataDir, 'move-in', next))).toBe(false)
		const list = await (await getPage(app, '/admin/move-in', cookie)).text()
		expect(list).toContain('Imported')
		expect(list).toContain('Checked')
	})

	it('takes a large export from a page whose JavaScript posts it, and survives a cut-off upload', async () => {
		// A hydrated page's form posts to the route's data address: the upload limit is the same.
		const large = Buffer.concat([ghostExport, Buffer.alloc(300_000, 0x20)])
		const before = (await app.storage.moveIns.recent(10)).length
		const posted = await upload('/admin/move-in.data', { export: [large, 'large.json'] })
		expect(posted.status).not.toBe(413)
		expect(posted.status).toBeLessThan(400)
		const runs = await app.storage.moveIns.recent(10)
		expect(runs.length).toBe(before + 1)
		await finished(runs[0]?.id ?? '')
		// A body that stops mid-file: refused, and the server goes on.
		const boundary = 'canopy-cut-off'
		const cut = await fetch(new URL('/admin/move-in', app.url), {
			method: 'POST',
			redirect: 'manual',
			headers: {
				Origin: app.url,
				Cookie: cookie,
				'Content-Type': `multipart/form-data; boundary=${boundary}`,
			},
			body: `--${boundary}\r\nContent-Disposition: form-data; name="export"; filename="site.json"\r\nContent-Type: application/json\r\n\r\n{"db": [`,
		})
		expect(cut.status).toBe(400)
		expect(await cut.text()).toContain('The upload arrived incomplete')
		expect((await getPage(app, '/healthz')).status).toBe(200)
	})

	it('refuses what is not an export, an images file that is not a zip, and no file', async () => {
		const notExport = await upload('/admin/move-in', { export: [Buffer.from('hello'), 'a.txt'] })
		expect(notExport.status).toBe(400)
		expect(await notExport.text()).toContain(
			'This is not a Ghost export (.json) or a WordPress export',
		)
		const notZip = await upload('/admin/move-in', {
			export: [ghostExport, 'site.json'],
			images: [Buffer.from('not a zip'), 'images.rar'],
		})
		expect(notZip.status).toBe(400)
		expect(await notZip.text()).toContain('The images must be a .zip archive')
		const none = await upload('/admin/move-in', {})
		expect(none.status).toBe(400)
		expect(await none.text()).toContain('Choose the export file')
		const broken = await upload(
			'/admin/move-in',
			{ export: [readFileSync('tests/fixtures/imports/ghost-truncated.json'), 'site.json'] },
			'import',
		)
		expect(broken.status).toBe(302)
		const failed = await finished((broken.headers.get('location') ?? '').split('/').pop() ?? '')
		expect(failed.state).toBe('failed')
		expect(failed.error).toMatch(
			/^Nothing was imported\. This file is not a Ghost export that can be read: it is damaged or cut short/,
		)
		expect(existsSync(join(app.config.dataDir, 'move-in', failed.id))).toBe(false)
		expect((await getPage(app, '/admin/move-in/nope', cookie)).status).toBe(404)
	})
})
