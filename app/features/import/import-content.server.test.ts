import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { cameraMarks, photoWithMetadata } from '#tests/fixtures/images.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import { readGhostExport } from './ghost-export.server.ts'
import { importContent } from './import-content.server.ts'
import { reportText } from './import-report.ts'
import { type ImportSource, SourceFileError, type SourcePost } from './import-source.ts'
import { readWordPressExport } from './wordpress-export.server.ts'

const fixtures = 'tests/fixtures/imports'
const now = new Date('2026-11-27T12:00:00Z')

let folder: string
const ghostImages = () => join(folder, 'ghost')
const wordPressUploads = () => join(folder, 'wordpress')

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'canopy-import-'))
	const files: [string, Uint8Array][] = [
		['ghost/2024/05/bog.jpg', await photoWithMetadata('jpeg')],
		['ghost/2024/05/fen.png', await photoWithMetadata('png')],
		['ghost/2024/01/ana.png', await photoWithMetadata('png', { width: 30, height: 30 })],
		['wordpress/2024/06/orchid.jpg', await photoWithMetadata('jpeg', { width: 60, height: 40 })],
		// Outside both folders: an address of ../../secret.jpg must not reach it.
		['secret.jpg', await photoWithMetadata('jpeg')],
	]
	for (const [path, bytes] of files) {
		mkdirSync(dirname(join(folder, path)), { recursive: true })
		writeFileSync(join(folder, path), bytes)
	}
	// A link in the images folder to a file outside it.
	symlinkSync(join(folder, 'secret.jpg'), join(folder, 'ghost', 'escape.jpg'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const importGhost = async (storage: Storage, dryRun = false) =>
	importContent(storage, await readGhostExport(`${fixtures}/ghost-5.json`), {
		dryRun,
		imagesFolder: ghostImages(),
		createdBy: null,
		now,
	})

describe.each(databases)('moving in from Ghost and WordPress ($name)', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	it('brings a Ghost site in: posts, pages, tags, authors, images cleaned, old links redirected', async () => {
		const report = await importGhost(storage)
		expect(report).toMatchObject({
			articles: 6,
			pages: 2,
			existing: 0,
			tags: 2,
			authors: 2,
			images: 3,
			redirects: 3,
		})
		expect(report.skipped).toEqual([
			expect.objectContaining({
				title: 'Old mobiledoc post',
				reason: expect.stringContaining('no HTML'),
			}),
		])

		const peat = await storage.articles.findBySlug('peatlands-hold-the-carbon')
		expect(peat).toMatchObject({
			kind: 'article',
			status: 'published',
			publishedAt: '2024-05-02T09:00:00.000Z',
			title: 'Peatlands hold the carbon',
			summary: 'Why the wet ground matters.',
			seoTitle: 'Peatlands: the carbon under our feet',
			coverImageAlt: 'A raised bog at dawn',
			// Years of posts arriving are not news for push or newsletter subscribers.
			notify: false,
			email: false,
		})
		expect(peat?.tags.map((tag) => tag.name)).toEqual(['Wetlands'])
		expect(peat?.authors.map((author) => author.name)).toEqual(['Ana Okafor', 'Tom Reyes'])
		// The cover and the picture in the text are one image here, re-hosted.
		expect(peat?.coverImageUrl).toMatch(/^\/media\/[0-9a-f]{64}\.jpg$/)
		expect(peat?.bodyMarkdown).toContain(`![A raised bog at dawn](${peat?.coverImageUrl})`)
		expect(peat?.bodyMarkdown).toContain('holds **twice** the carbon')
		expect(peat?.bodyMarkdown).toContain('[the river clean-up](/river-clean-up/)')
		expect(peat?.bodyMarkdown).toContain(
			'[Peatlands and climate change](https://www.iucn.org/peatlands)',
		)
		expect(peat?.bodyHtml).toContain('<h2')
		const hash = peat?.coverImageUrl?.slice(7, 71) ?? ''
		const stored = await storage.uploads.get(hash)
		const text = Buffer.from(stored?.bytes ?? []).toString('latin1')
		for (const mark of cameraMarks) expect(text).not.toContain(mark)

		const river = await storage.articles.findBySlug('river-clean-up')
		expect(river?.bodyMarkdown).toMatch(/\| Tyres \| 12 +\|/)
		expect(river?.bodyMarkdown).toContain('[Clean-up film](https://www.youtube.com/embed/abc123)')
		// The picture that was not in the folder is left out, not left pointing nowhere.
		expect(river?.bodyMarkdown).not.toContain('missing.jpg')
		expect(river?.tags.map((tag) => tag.slug)).toEqual(['rivers-and-streams', 'wetlands'])
		expect(report.notes).toContainEqual(
			expect.objectContaining({
				note: expect.stringContaining('missing.jpg is not in the images folder'),
			}),
		)

		expect(await storage.articles.findBySlug('seed-swap')).toMatchObject({
			status: 'draft',
			publishedAt: null,
		})
		expect(await storage.articles.findBySlug('tree-planting-day')).toMatchObject({
			status: 'draft',
			publishAt: '2099-03-01T08:00:00.000Z',
		})
		// Members-only in Ghost: not made public here.
		expect(await storage.articles.findBySlug('members-briefing')).toMatchObject({ status: 'draft' })
		expect(await storage.articles.findBySlug('about')).toMatchObject({
			kind: 'page',
			status: 'published',
		})
		expect(await storage.articles.findBySlug('contact-page')).toMatchObject({ kind: 'page' })

		const wetlands = await storage.tags.findBySlug('wetlands')
		expect(wetlands).toMatchObject({ description: 'Bogs, fens and marshes.' })
		expect(wetlands?.coverImageUrl).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)
		// Ghost's tag address is kept, and internal tags (#feature) never reach readers.
		expect(await storage.tags.findBySlug('rivers-and-streams')).toMatchObject({ name: 'Rivers' })
		expect((await storage.tags.list()).map((tag) => tag.name)).not.toContain('#feature')
		expect(await storage.authors.findBySlug('ana')).toMatchObject({
			name: 'Ana Okafor',
			bio: 'Ana leads the river surveys.',
			website: 'https://ana.example',
			userId: null,
		})
		// Authors are profiles, never accounts: no password comes across.
		expect(await storage.accounts.list()).toEqual([])

		expect(await storage.redirects.find('/peatlands-hold-the-carbon')).toMatchObject({
			to: '/articles/peatlands-hold-the-carbon',
			status: 301,
		})
		expect(await storage.redirects.find('/about')).toBeUndefined()
	})

	it('adds nothing twice when run again, and a dry run writes nothing', async () => {
		const dry = await importGhost(storage, true)
		expect(dry).toMatchObject({ dryRun: true, articles: 6, pages: 2, tags: 2, authors: 2 })
		expect(await storage.articles.findBySlug('peatlands-hold-the-carbon')).toBeUndefined()
		expect((await storage.uploads.library({ limit: 10, offset: 0 })).total).toBe(0)
		expect(reportText(dry)).toContain('Nothing was written.')

		await importGhost(storage)
		const library = (await storage.uploads.library({ limit: 10, offset: 0 })).total
		const again = await importGhost(storage)
		expect(again).toMatchObject({
			articles: 0,
			pages: 0,
			existing: 8,
			tags: 0,
			authors: 0,
			images: 0,
		})
		expect((await storage.uploads.library({ limit: 10, offset: 0 })).total).toBe(library)
		expect(reportText(again)).toContain(
			'8 posts already here (the same address): left as they are.',
		)
	})

	it('brings a WordPress site in: paragraphs, captions, featured images, categories and permalinks', async () => {
		const source = await readWordPressExport(`${fixtures}/wordpress.xml`)
		const report = await importContent(storage, source, {
			dryRun: false,
			imagesFolder: wordPressUploads(),
			createdBy: null,
			now,
		})
		expect(report).toMatchObject({
			articles: 5,
			pages: 1,
			tags: 3,
			authors: 2,
			images: 1,
			// Three permalinks, and WordPress's numbered addresses: /?p= of four posts and pages,
			// and /?page_id= of the page.
			redirects: 8,
		})
		expect(report.skipped).toEqual([expect.objectContaining({ title: 'Deleted post' })])

		const orchids = await storage.articles.findBySlug('orchid-count-2024')
		expect(orchids?.bodyMarkdown).toMatch(
			/^We counted 412 common spotted orchids this year, up from 280\.\n\nThe \*\*bee orchids\*\* came back to the north bank. {2}\nThey were last seen in 2019\./,
		)
		expect(orchids?.coverImageAlt).toBe('A common spotted orchid, pale pink')
		// The resized copy in the text and the featured original are the same file.
		expect(orchids?.bodyMarkdown).toContain(`![A common spotted orchid](${orchids?.coverImageUrl})`)
		expect(orchids?.bodyMarkdown).toContain("[last year's survey](/2023/05/20/first-survey/)")
		expect(orchids?.bodyMarkdown).not.toContain('[gallery')
		expect(orchids?.seoDescription).toBe('412 orchids on the meadow in 2024.')
		expect(orchids?.tags.map((tag) => tag.name)).toEqual(['Surveys', 'Orchids', 'North bank'])
		expect(orchids?.authors.map((author) => author.name)).toEqual(['Rosa Lind'])
		expect(await storage.tags.findBySlug('surveys')).toMatchObject({
			description: 'What we counted, where and when.',
		})

		const first = await storage.articles.findBySlug('first-survey')
		expect(first).toMatchObject({ summary: 'How it began & grew.', tags: [] })
		expect(first?.bodyMarkdown).toBe('Our *first* walk of the meadow.\n\n- 280 orchids\n- 3 hares')
		expect(await storage.articles.findBySlug('luga')).toMatchObject({ title: 'Луга и пчёлы' })
		expect(await storage.articles.findBySlug('volunteer')).toMatchObject({ kind: 'page' })
		expect(await storage.articles.findBySlug('notes-for-the-board')).toMatchObject({
			status: 'draft',
		})
		expect(await storage.articles.findBySlug('autumn-mowing-plan')).toMatchObject({
			status: 'draft',
		})

		expect(await storage.redirects.find('/2024/06/03/orchid-count-2024')).toMatchObject({
			to: '/articles/orchid-count-2024',
		})
		// Stored as readers see it, as every redirect is.
		expect(await storage.redirects.find('/2024/07/01/луга')).toMatchObject({ to: '/articles/luga' })
		expect(await storage.redirects.find('/?p=10')).toMatchObject({
			to: '/articles/orchid-count-2024',
		})
		expect(await storage.redirects.find('/?p=40')).toMatchObject({ to: '/volunteer' })
		expect(await storage.redirects.find('/?page_id=40')).toMatchObject({ to: '/volunteer' })
		// Drafts have no address to keep.
		expect(await storage.redirects.find('/?p=50')).toBeUndefined()
	})

	it('refuses a broken or foreign file before writing anything', async () => {
		await expect(readGhostExport(`${fixtures}/ghost-truncated.json`)).rejects.toThrow(
			SourceFileError,
		)
		await expect(readGhostExport(`${fixtures}/not-an-export.json`)).rejects.toThrow(
			/none of a Ghost export’s parts/,
		)
		await expect(readWordPressExport(`${fixtures}/wordpress-broken.xml`)).rejects.toThrow(
			/cannot be read \(line \d+: /,
		)
		await expect(readWordPressExport(`${fixtures}/not-wordpress.xml`)).rejects.toThrow(
			/not a WordPress export/,
		)
	})

	it('reads an export with characters XML forbids, as word processors paste them', async () => {
		const pasted = join(folder, 'pasted.xml')
		const text = readFileSync(`${fixtures}/wordpress.xml`, 'utf8')
		writeFileSync(
			pasted,
			text.replace('Orchid count 2024]]></title>', 'Orchid\u000b count 2024]]></title>'),
		)
		const titles: string[] = []
		for await (const post of (await readWordPressExport(pasted)).posts()) titles.push(post.title)
		expect(titles).toContain('Orchid count 2024')
	})

	it('reads an export in the encoding its declaration names, and says when it cannot', async () => {
		// An old site set to windows-1252: é is one byte, and ’ is 0x92.
		const latin = (text: string) => Buffer.from(text, 'latin1')
		const wxr = (encoding: string) =>
			Buffer.concat([
				latin(`<?xml version="1.0" encoding="${encoding}" ?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Prés</title><link>https://pres.example</link>
<item><title>Prés fleuris d`),
				Buffer.from([0x92]),
				latin(`été</title><dc:creator>ana</dc:creator>
<content:encoded><![CDATA[<p>Les prés sont fauchés en août.</p>]]></content:encoded>
<wp:post_id>5</wp:post_id><wp:post_date_gmt>2024-08-01 10:00:00</wp:post_date_gmt>
<wp:post_name>pres-fleuris</wp:post_name><wp:status>publish</wp:status>
<wp:post_type>post</wp:post_type></item></channel></rss>`),
			])
		const file = join(folder, 'windows-1252.xml')
		writeFileSync(file, wxr('windows-1252'))
		const posts: SourcePost[] = []
		for await (const post of (await readWordPressExport(file)).posts())
			if ('html' in post) posts.push(post)
		expect(posts.map((post) => [post.title, post.html])).toEqual([
			['Prés fleuris d’été', '<p>Les prés sont fauchés en août.</p>'],
		])
		// A byte order mark wins over the declaration (XML 1.0, appendix F).
		writeFileSync(
			file,
			Buffer.concat([
				Buffer.from([0xef, 0xbb, 0xbf]),
				Buffer.from(
					wxr('windows-1252')
						.toString('latin1')
						.replace('Prés fleuris d\x92été', 'Prés fleuris d’été'),
					'utf8',
				),
			]),
		)
		const marked: string[] = []
		for await (const post of (await readWordPressExport(file)).posts()) marked.push(post.title)
		expect(marked).toEqual(['Prés fleuris d’été'])
		writeFileSync(file, wxr('x-klingon'))
		const refused = async () => {
			for await (const _ of (await readWordPressExport(file)).posts());
		}
		await expect(refused).rejects.toThrow(SourceFileError)
		await expect(refused).rejects.toThrow('encoding Canopy cannot read (x-klingon)')
	})

	it('keeps a post whose custom field is too long to read, leaving the field out', async () => {
		const text = readFileSync(`${fixtures}/wordpress.xml`, 'utf8')
		const huge = join(folder, 'huge-meta.xml')
		// A plugin's serialised data of 5 MB beside the orchid count's description.
		writeFileSync(
			huge,
			text.replace(
				'<wp:postmeta><wp:meta_key><![CDATA[_yoast_wpseo_metadesc]]>',
				`<wp:postmeta><wp:meta_key><![CDATA[_builder_data]]></wp:meta_key><wp:meta_value><![CDATA[${'a:1:{'.repeat(1_000_000)}]]></wp:meta_value></wp:postmeta><wp:postmeta><wp:meta_key><![CDATA[_yoast_wpseo_metadesc]]>`,
			),
		)
		const read: (SourcePost | { title: string; reason: string })[] = []
		for await (const post of (await readWordPressExport(huge)).posts()) read.push(post)
		const orchids = read.find((post) => post.title === 'Orchid count 2024')
		expect(orchids).toBeDefined()
		expect(orchids).not.toHaveProperty('reason')
		expect(orchids).toMatchObject({ html: expect.stringContaining('412 common spotted orchids') })
	})

	it('keeps an admin’s own redirects, the folder’s links to outside it, and the size limit', async () => {
		await storage.redirects.put({ from: '/old-peat', to: '/donate', status: 302 })
		const base = {
			kind: 'article' as const,
			html: '<p>Text.</p>',
			excerpt: '',
			status: 'published' as const,
			publishedAt: '2024-01-01T00:00:00.000Z',
			imageAlt: 'A picture',
			tags: [],
			authors: [],
			seoTitle: '',
			seoDescription: '',
			notes: [],
		}
		const source: ImportSource = {
			format: 'ghost',
			siteUrl: null,
			tags: [],
			authors: [],
			async *posts() {
				yield {
					...base,
					sourceId: '1',
					title: 'Peat',
					slug: 'peat',
					oldPath: '/old-peat/',
					image: '/content/images/escape.jpg',
				}
				yield {
					...base,
					sourceId: '2',
					title: 'Bog',
					slug: 'bog',
					oldPath: '/?p=2',
					image: '/content/images/2024/05/bog.jpg',
				}
			},
		}
		const report = await importContent(storage, source, {
			dryRun: false,
			imagesFolder: ghostImages(),
			createdBy: null,
			maxImageBytes: 100,
			now,
		})
		expect(report).toMatchObject({ articles: 2, images: 0, redirects: 1 })
		expect(await storage.redirects.find('/old-peat')).toMatchObject({ to: '/donate', status: 302 })
		// A plain permalink is kept: the home page follows it.
		expect(await storage.redirects.find('/?p=2')).toMatchObject({ to: '/articles/bog' })
		expect(await storage.articles.findBySlug('peat')).toMatchObject({ coverImageUrl: null })
		expect(report.notes.map((entry) => entry.note)).toEqual(
			expect.arrayContaining([
				expect.stringContaining('escape.jpg is not in the images folder given'),
				expect.stringMatching(/bog\.jpg was not stored: .*larger/),
			]),
		)
	})

	it('counts in a dry run only the tags and authors the posts carry, as the import makes them', async () => {
		const term = (name: string) => ({ slug: name.toLowerCase(), name })
		// Eleven on the post: the editor's first ten come across, the eleventh is not made.
		const carriedTags = ['Peat', ...Array.from({ length: 10 }, (_, i) => `T${i + 1}`)]
		const source = (): ImportSource => ({
			format: 'ghost',
			siteUrl: null,
			tags: [...carriedTags, 'Unused'].map((name) => ({
				...term(name),
				description: '',
				image: null,
			})),
			authors: ['Ana', 'Nobody'].map((name) => ({
				...term(name),
				bio: '',
				website: null,
				image: null,
			})),
			async *posts() {
				yield {
					sourceId: '1',
					kind: 'article',
					title: 'Peat',
					slug: 'peat',
					html: '<p>Text.</p>',
					excerpt: '',
					status: 'published',
					publishedAt: '2024-01-01T00:00:00.000Z',
					image: null,
					imageAlt: null,
					tags: carriedTags.map(term),
					authors: [term('Ana')],
					seoTitle: '',
					seoDescription: '',
					oldPath: null,
					notes: [],
				}
			},
		})
		const options = { imagesFolder: null, createdBy: null, now }
		const dry = await importContent(storage, source(), { ...options, dryRun: true })
		expect(dry).toMatchObject({ articles: 1, tags: 10, authors: 1 })
		const real = await importContent(storage, source(), { ...options, dryRun: false })
		expect(real).toMatchObject({ articles: 1, tags: 10, authors: 1 })
		expect(await storage.tags.findBySlug('unused')).toBeUndefined()
		expect(await storage.tags.findBySlug('t10')).toBeUndefined()
		// Run again: nothing is new.
		expect(await importContent(storage, source(), { ...options, dryRun: true })).toMatchObject({
			articles: 0,
			existing: 1,
			tags: 0,
			authors: 0,
		})
	})

	it('writes nothing from an export that breaks after its first posts', async () => {
		const post = (slug: string, image: string | null = null): SourcePost => ({
			sourceId: slug,
			kind: 'article',
			title: slug,
			slug,
			html: '<p>Text.</p>',
			excerpt: '',
			status: 'published',
			publishedAt: '2024-01-01T00:00:00.000Z',
			image,
			imageAlt: 'A picture',
			tags: [],
			authors: [],
			seoTitle: '',
			seoDescription: '',
			oldPath: null,
			notes: [],
		})
		const source = (broken: boolean): ImportSource => ({
			format: 'ghost',
			siteUrl: null,
			tags: [],
			authors: [],
			async *posts() {
				yield post('first')
				// An address that climbs out of the images folder finds nothing there.
				yield post('second', '/content/images/..%2f..%2fsecret.jpg')
				if (broken) throw new SourceFileError('The file ends in the middle of a post.')
			},
		})
		const options = { dryRun: false, imagesFolder: ghostImages(), createdBy: null, now }
		await expect(importContent(storage, source(true), options)).rejects.toThrow(
			/ends in the middle/,
		)
		expect(await storage.articles.findBySlug('first')).toBeUndefined()

		const report = await importContent(storage, source(false), options)
		expect(report).toMatchObject({ articles: 2, images: 0 })
		expect(await storage.articles.findBySlug('second')).toMatchObject({ coverImageUrl: null })

		// Two posts of one export at one address (WordPress's child pages "history" under two
		// parents): both come across, the second at the next free address, and only once.
		const twins: ImportSource = {
			...source(false),
			async *posts() {
				yield { ...post('history'), title: 'Our history' }
				yield { ...post('history'), sourceId: 'history-b', title: 'The river’s history' }
			},
		}
		const first = await importContent(storage, twins, options)
		expect(first).toMatchObject({ articles: 2, existing: 0 })
		expect(await storage.articles.findBySlug('history-2')).toMatchObject({
			title: 'The river’s history',
		})
		expect(first.notes).toContainEqual(
			expect.objectContaining({ note: expect.stringContaining('this one is at "history-2"') }),
		)
		expect(await importContent(storage, twins, options)).toMatchObject({ articles: 0, existing: 2 })
	})

	it('leaves out a cover still on the old site over plain http, and keeps the post', async () => {
		const post: SourcePost = {
			sourceId: '7',
			kind: 'article',
			title: 'Swifts return',
			slug: 'swifts-return',
			html: '<p>The swifts came back on the first of May.</p>',
			excerpt: '',
			status: 'published',
			publishedAt: '2019-05-02T08:00:00Z',
			image: 'http://old-blog.example/uploads/swifts.jpg',
			imageAlt: 'Swifts over the roofs',
			tags: [],
			authors: [],
			seoTitle: '',
			seoDescription: '',
			oldPath: '/2019/05/swifts-return/',
			notes: [],
		}
		const source: ImportSource = {
			format: 'wordpress',
			siteUrl: 'http://old-blog.example',
			tags: [],
			authors: [],
			async *posts() {
				yield post
			},
		}
		const report = await importContent(storage, source, {
			dryRun: false,
			imagesFolder: null,
			createdBy: null,
			now,
		})
		expect(await storage.articles.findBySlug('swifts-return')).toMatchObject({
			title: 'Swifts return',
			coverImageUrl: null,
		})
		expect(reportText(report)).toContain(
			'its cover image http://old-blog.example/uploads/swifts.jpg is served over plain http, which pages cannot show: left out',
		)
	})

	it('keeps images to the folder given and says what it could not find', async () => {
		const wordPress = await readWordPressExport(`${fixtures}/wordpress.xml`)
		const report = await importContent(storage, wordPress, {
			dryRun: true,
			// The Ghost folder: WordPress's files are not there.
			imagesFolder: ghostImages(),
			createdBy: null,
			now,
		})
		expect(report.images).toBe(0)
		expect(report.notes).toContainEqual(
			expect.objectContaining({
				note: expect.stringMatching(
					/orchid-300x200\.jpg is not in the images folder given: it still links to the old site/,
				),
			}),
		)
	})
})
