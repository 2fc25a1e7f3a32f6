// A Ghost user moving in as the README says: one command, then the site serves what came across.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cameraMarks, photoWithMetadata } from '#tests/fixtures/images.ts'
import { freePort, runCli, startServer } from '#tests/fixtures/process.ts'

describe('npm run cli -- import:ghost and import:wordpress', () => {
	let dataDir: string
	let images: string
	let env: Record<string, string>

	beforeAll(async () => {
		dataDir = mkdtempSync(join(tmpdir(), 'canopy-move-in-'))
		images = join(dataDir, 'content', 'images')
		mkdirSync(join(images, '2024', '05'), { recursive: true })
		writeFileSync(join(images, '2024', '05', 'bog.jpg'), await photoWithMetadata('jpeg'))
		env = { DATA_DIR: join(dataDir, 'site'), DATABASE_URL: '' }
	})
	afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

	it('says what a broken file or a wrong folder is, and writes nothing', async () => {
		const broken = await runCli(
			['import:ghost', 'tests/fixtures/imports/ghost-truncated.json'],
			env,
		)
		expect(broken.code).toBe(1)
		expect(broken.stderr).toMatch(
			/^Nothing was imported\. This file is not a Ghost export that can be read: it is damaged or cut short/,
		)
		const folder = await runCli(
			['import:wordpress', 'tests/fixtures/imports/wordpress.xml', '--images', 'nowhere'],
			env,
		)
		expect(folder.code).toBe(1)
		expect(folder.stderr).toContain('--images nowhere is not a folder')
		const dry = await runCli(
			['import:ghost', 'tests/fixtures/imports/ghost-5.json', '--images', images, '--dry-run'],
			env,
		)
		expect(dry.code).toBe(0)
		expect(dry.stdout).toMatch(
			/^Would import from Ghost: 6 articles, 2 pages, 2 tags, 2 authors, 1 image, 3 redirects/,
		)
		expect(dry.stdout).toContain('Nothing was written.')
	})

	it('moves a Ghost site in with one command; readers find its posts, images, tags and old links', async () => {
		const moved = await runCli(
			['import:ghost', 'tests/fixtures/imports/ghost-5.json', '--images', images],
			env,
		)
		expect(moved.code).toBe(0)
		expect(moved.stdout).toMatch(
			/^Imported from Ghost: 6 articles, 2 pages, 2 tags, 2 authors, 1 image, 3 redirects/,
		)
		expect(moved.stdout).toContain(
			'“Old mobiledoc post” (6650a0000000000000000008): the export has no HTML',
		)

		const server = await startServer(env, await freePort())
		try {
			const article = await fetch(`${server.url}/articles/peatlands-hold-the-carbon`)
			expect(article.status).toBe(200)
			const html = await article.text()
			expect(html).toContain('Peatlands hold the carbon')
			expect(html).toContain('<strong>twice</strong>')
			const image = /\/media\/([0-9a-f]{64})\.jpg/.exec(html)?.[0]
			expect(image).toBeDefined()
			const bytes = Buffer.from(await (await fetch(`${server.url}${image}`)).arrayBuffer())
			expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]))
			for (const mark of cameraMarks) expect(bytes.toString('latin1')).not.toContain(mark)

			const old = await fetch(`${server.url}/peatlands-hold-the-carbon/`, { redirect: 'manual' })
			expect(old.status).toBe(301)
			expect(old.headers.get('location')).toBe('/articles/peatlands-hold-the-carbon')
			expect((await fetch(`${server.url}/tags/wetlands`)).status).toBe(200)
			expect(await (await fetch(`${server.url}/authors/ana`)).text()).toContain(
				'Ana leads the river surveys.',
			)
			expect(await (await fetch(`${server.url}/about`)).text()).toContain('river trust')
			// Drafts and members-only posts stay off the site.
			expect((await fetch(`${server.url}/articles/members-briefing`)).status).toBe(404)
		} finally {
			server.child.kill('SIGTERM')
			await server.exited
		}
	})

	it('moves a WordPress site in; its numbered links (/?p=10, /?page_id=40) lead to the posts', async () => {
		const site = { DATA_DIR: join(dataDir, 'wordpress-site'), DATABASE_URL: '' }
		const moved = await runCli(['import:wordpress', 'tests/fixtures/imports/wordpress.xml'], site)
		expect(moved.code).toBe(0)
		expect(moved.stdout).toMatch(/^Imported from WordPress: 5 articles, 1 page, .* 8 redirects/)
		const server = await startServer(site, await freePort())
		try {
			const follow = async (path: string) => {
				const answer = await fetch(`${server.url}${path}`, { redirect: 'manual' })
				return { status: answer.status, location: answer.headers.get('location') }
			}
			expect(await follow('/?p=10')).toEqual({
				status: 301,
				location: '/articles/orchid-count-2024',
			})
			// A shortlink shared with a campaign's tag still arrives.
			expect(await follow('/?p=10&utm_source=newsletter')).toMatchObject({ status: 301 })
			expect(await follow('/?page_id=40')).toEqual({ status: 301, location: '/volunteer' })
			// A number nothing came from, or none at all: the home page.
			expect((await follow('/?p=999')).status).toBe(200)
			expect((await follow('/?p=abc')).status).toBe(200)
			expect((await fetch(`${server.url}/articles/orchid-count-2024`)).status).toBe(200)
		} finally {
			server.child.kill('SIGTERM')
			await server.exited
		}
	})
})
