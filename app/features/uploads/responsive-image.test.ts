import { describe, expect, it } from 'vitest'
import { mediaHashesIn, responsiveHtml } from './responsive-html.ts'
import {
	parseVersionFile,
	pictureSources,
	plannedVersions,
	plannedWidths,
	versionUpTo,
} from './responsive-image.ts'

const hash = 'a'.repeat(64)
const other = 'b'.repeat(64)

describe('planned versions', () => {
	it('never makes an image wider than it is', () => {
		expect(plannedWidths(6000)).toEqual([480, 960, 1600])
		expect(plannedWidths(1600)).toEqual([480, 960, 1600])
		expect(plannedWidths(800)).toEqual([480, 800])
		expect(plannedWidths(480)).toEqual([480])
		expect(plannedWidths(120)).toEqual([120])
	})

	it('makes AVIF, WebP and the image’s own type, except the image itself', () => {
		expect(plannedVersions(800, 'image/png').map((v) => `${v.width} ${v.mime}`)).toEqual([
			'480 image/avif',
			'480 image/webp',
			'480 image/png',
			'800 image/avif',
			'800 image/webp',
		])
		expect(plannedVersions(500, 'image/webp')).toHaveLength(3)
	})

	it('reads a version’s file name and nothing else', () => {
		expect(parseVersionFile(`${hash}-960.avif`)).toEqual({ hash, width: 960, mime: 'image/avif' })
		for (const name of [
			`${hash}.avif`,
			`${hash}-0960.avif`,
			`${hash}-960.gif`,
			`${hash}-960.avif.png`,
			`${hash.toUpperCase()}-960.avif`,
			`${hash}-9600000.avif`,
			'../x-960.avif',
		])
			expect(parseVersionFile(name), name).toBeUndefined()
	})
})

describe('what a picture offers', () => {
	it('offers a camera photo’s versions in AVIF and WebP, and JPEG for every browser', () => {
		const offered = pictureSources({ url: `/media/${hash}.jpg`, width: 2400, height: 1600 })
		expect(offered).toEqual({
			sources: [
				{
					type: 'image/avif',
					srcSet: `/media/${hash}-480.avif 480w, /media/${hash}-960.avif 960w, /media/${hash}-1600.avif 1600w`,
				},
				{
					type: 'image/webp',
					srcSet: `/media/${hash}-480.webp 480w, /media/${hash}-960.webp 960w, /media/${hash}-1600.webp 1600w`,
				},
			],
			srcSet: `/media/${hash}-480.jpg 480w, /media/${hash}-960.jpg 960w, /media/${hash}-1600.jpg 1600w`,
			src: `/media/${hash}-1600.jpg`,
		})
	})

	it('offers a small image itself at its own width', () => {
		const offered = pictureSources({ url: `/media/${hash}.png`, width: 300, height: 200 })
		expect(offered?.srcSet).toBe(`/media/${hash}.png 300w`)
		expect(offered?.src).toBe(`/media/${hash}.png`)
	})

	it('shows an image from elsewhere, or of unknown size, as it is', () => {
		expect(pictureSources({ url: 'https://example.org/a.jpg', width: 900, height: 600 })).toBe(
			undefined,
		)
		expect(pictureSources({ url: `/media/${hash}.jpg`, width: null, height: null })).toBe(undefined)
	})

	it('gives feeds the 960 px version in a type every reader takes', () => {
		expect(versionUpTo({ url: `/media/${hash}.jpg`, width: 2400, height: 1600 }, 960)).toEqual({
			url: `/media/${hash}-960.jpg`,
			mime: 'image/jpeg',
		})
		expect(versionUpTo({ url: `/media/${hash}.avif`, width: 700, height: 400 }, 960)).toEqual({
			url: `/media/${hash}-700.webp`,
			mime: 'image/webp',
		})
		expect(versionUpTo({ url: `/media/${hash}.png`, width: 300, height: 200 }, 960).url).toBe(
			`/media/${hash}.png`,
		)
	})
})

describe('an article’s images as readers get them', () => {
	const html = `<p>Intro</p>
<figure><img src="/media/${hash}.jpg" alt="A heron &#x22;standing&#x22; > still"><figcaption>May</figcaption></figure>
<p><img src="/media/${other}.png" alt="unknown"> and <img src="https://example.org/x.png" alt="outside"></p>`

	it('finds the images stored here', () => {
		expect(mediaHashesIn(html)).toEqual([hash, other])
	})

	it('makes each known image a picture with its size, lazily loaded, keeping its alt text whole', () => {
		const out = responsiveHtml(
			html,
			(h) => (h === hash ? { width: 2400, height: 1600 } : undefined),
			'100vw',
		)
		expect(out).toContain(
			`<figure><picture><source type="image/avif" srcset="/media/${hash}-480.avif 480w, /media/${hash}-960.avif 960w, /media/${hash}-1600.avif 1600w" sizes="100vw">`,
		)
		expect(out).toContain(
			`alt="A heron &#x22;standing&#x22; > still" width="2400" height="1600" loading="lazy" decoding="async"></picture><figcaption>May</figcaption>`,
		)
		expect(out).toContain(
			`<img src="/media/${other}.png" alt="unknown" loading="lazy" decoding="async"> and <img src="https://example.org/x.png" alt="outside" loading="lazy" decoding="async">`,
		)
		expect(out.match(/<picture>/g)).toHaveLength(1)
	})
})
