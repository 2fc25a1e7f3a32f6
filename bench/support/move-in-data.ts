// A Ghost export as a site of some years makes it (docs/decisions/034-moving-in.md): `posts`
// articles of about 1,000 words each in HTML, the first `images` of them with a photo in the text
// that is also their cover, 20 tags and 10 authors, written with the photos (camera metadata
// and a GPS position in each) to a folder laid out as Ghost's content/images.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'

const words =
	'peat bog river meadow orchid carbon water soil forest volunteer survey count heron otter willow alder rain season storm flood drought seed hedge bee moth beetle lichen moss fern upland estuary tide marsh reed'.split(
		' ',
	)

function paragraph(seed: number, length: number): string {
	const chosen: string[] = []
	for (let i = 0; i < length; i++)
		chosen.push(words[(seed * 7 + i * 13 + (i >> 2)) % words.length] ?? 'peat')
	const text = chosen.join(' ')
	return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
}

function postHtml(i: number, withImage: boolean): string {
	const parts = [
		`<p>${paragraph(i, 90)} <a href="__GHOST_URL__/post-${Math.max(0, i - 1)}/">Earlier</a>.</p>`,
	]
	for (let p = 1; p <= 10; p++) {
		if (p === 3) parts.push(`<h2>${paragraph(i + p, 5)}</h2>`)
		if (p === 5)
			parts.push(
				`<ul><li>${paragraph(i, 8)}</li><li>${paragraph(i + 1, 8)}</li><li>${paragraph(i + 2, 8)}</li></ul>`,
			)
		if (p === 6 && withImage)
			parts.push(
				`<figure class="kg-card kg-image-card"><img src="__GHOST_URL__/content/images/2024/05/photo-${i}.jpg" class="kg-image" alt="Photo ${i}" loading="lazy"><figcaption>Photo ${i}</figcaption></figure>`,
			)
		parts.push(`<p>${paragraph(i * 31 + p, 85)} <strong>${paragraph(p, 3)}</strong></p>`)
	}
	return parts.join('')
}

export async function writeGhostSite(
	folder: string,
	options: { posts: number; images: number },
): Promise<{ file: string; images: string; bytes: number }> {
	const imageDir = join(folder, 'content', 'images', '2024', '05')
	mkdirSync(imageDir, { recursive: true })
	for (let i = 0; i < options.images; i++) {
		// A size of its own for each: distinct images, however their colours compress.
		const photo = await sharp({
			create: {
				width: 64 + (i % 50),
				height: 48 + Math.floor(i / 50),
				channels: 3,
				background: { r: 40 + (i % 150), g: 90, b: 60 },
			},
		})
			.withExif({
				IFD0: { Make: 'Canopy Field Camera', Model: 'Field 1' },
				IFD3: {
					GPSLatitudeRef: 'N',
					GPSLatitude: '51/1 30/1 0/1',
					GPSLongitudeRef: 'W',
					GPSLongitude: '0/1 7/1 0/1',
				},
			})
			.jpeg({ quality: 85 })
			.toBuffer()
		writeFileSync(join(imageDir, `photo-${i}.jpg`), photo)
	}
	const tags = Array.from({ length: 20 }, (_, t) => ({
		id: `tag${t}`,
		name: `Topic ${t}`,
		slug: `topic-${t}`,
		description: `Articles on topic ${t}.`,
		feature_image: null,
		visibility: 'public',
	}))
	const users = Array.from({ length: 10 }, (_, u) => ({
		id: `user${u}`,
		name: `Writer ${u}`,
		slug: `writer-${u}`,
		password: '$2a$10$xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
		email: `writer${u}@example.org`,
		bio: `Writer ${u} counts things.`,
		website: null,
		profile_image: null,
	}))
	const posts = Array.from({ length: options.posts }, (_, i) => ({
		id: `post${i}`,
		uuid: `uuid-${i}`,
		title: `${paragraph(i, 6)} (${i})`,
		slug: `post-${i}`,
		mobiledoc: null,
		lexical: '{"root":{}}',
		html: postHtml(i, i < options.images),
		plaintext: '',
		feature_image:
			i < options.images ? `__GHOST_URL__/content/images/2024/05/photo-${i}.jpg` : null,
		type: 'post',
		status: 'published',
		visibility: 'public',
		created_at: new Date(Date.UTC(2019, 0, 1) + i * 3_600_000 * 7).toISOString(),
		updated_at: new Date(Date.UTC(2019, 0, 1) + i * 3_600_000 * 7).toISOString(),
		published_at: new Date(Date.UTC(2019, 0, 1) + i * 3_600_000 * 7).toISOString(),
		custom_excerpt: paragraph(i, 20),
	}))
	const data = {
		db: [
			{
				meta: { exported_on: Date.now(), version: '5.82.0' },
				data: {
					posts,
					posts_authors: posts.map((post, i) => ({
						id: `pa${i}`,
						post_id: post.id,
						author_id: `user${i % 10}`,
						sort_order: 0,
					})),
					posts_meta: posts.slice(0, options.images).map((post, i) => ({
						id: `pm${i}`,
						post_id: post.id,
						feature_image_alt: `Photo ${i}`,
					})),
					posts_tags: posts.flatMap((post, i) => [
						{ id: `pt${i}a`, post_id: post.id, tag_id: `tag${i % 20}`, sort_order: 0 },
						{ id: `pt${i}b`, post_id: post.id, tag_id: `tag${(i * 7) % 20}`, sort_order: 1 },
					]),
					tags,
					users,
				},
			},
		],
	}
	const file = join(folder, 'site.ghost.json')
	const text = JSON.stringify(data)
	writeFileSync(file, text)
	return { file, images: join(folder, 'content', 'images'), bytes: Buffer.byteLength(text) }
}

/** The same posts as Canopy's own editor would be given them: Markdown, for the baseline. */
export function* markdownPosts(
	posts: number,
): Generator<{ title: string; slug: string; body: string; tags: string[]; author: string }> {
	for (let i = 0; i < posts; i++) {
		const body = [paragraph(i, 90)]
		for (let p = 1; p <= 10; p++) {
			if (p === 3) body.push(`## ${paragraph(i + p, 5)}`)
			if (p === 5)
				body.push(`- ${paragraph(i, 8)}\n- ${paragraph(i + 1, 8)}\n- ${paragraph(i + 2, 8)}`)
			body.push(`${paragraph(i * 31 + p, 85)} **${paragraph(p, 3)}**`)
		}
		yield {
			title: `${paragraph(i, 6)} (${i})`,
			slug: `post-${i}`,
			body: body.join('\n\n'),
			tags: [`Topic ${i % 20}`, `Topic ${(i * 7) % 20}`],
			author: `Writer ${i % 10}`,
		}
	}
}
