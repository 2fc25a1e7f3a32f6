// The images in an article's stored HTML as a reader gets them (decision 023): each image stored
// here becomes a <picture> with its versions, its width and height (so the text does not move
// while it loads), loaded lazily. The HTML is the Markdown pipeline's own sanitised output, whose
// tags are regular (attributes double-quoted, quotes inside escaped), so a pattern reads it
// safely; nothing but the images' own attributes and addresses made here is added.
import { parseMediaUrl, pictureSources } from './responsive-image.ts'

const imageTag = /<img((?:\s+[a-zA-Z][a-zA-Z0-9-]*(?:="[^"]*")?)*)\s*\/?>/g
const attribute = /([a-zA-Z][a-zA-Z0-9-]*)(?:="([^"]*)")?/g

/** The hashes of the images stored here that the HTML shows. */
export function mediaHashesIn(html: string): string[] {
	const hashes = new Set<string>()
	for (const [, attributes = ''] of html.matchAll(imageTag)) {
		const src = readAttributes(attributes).get('src')
		const stored = parseMediaUrl(src ?? null)
		if (stored) hashes.add(stored.hash)
	}
	return [...hashes]
}

function readAttributes(text: string): Map<string, string> {
	const found = new Map<string, string>()
	for (const [, name = '', value = ''] of text.matchAll(attribute)) found.set(name, value)
	return found
}

/** Attribute text; values here are URLs and numbers made by this module, or kept as they were. */
const attributesText = (pairs: [string, string | number | undefined][]) =>
	pairs
		.filter(([, value]) => value !== undefined)
		.map(([name, value]) => ` ${name}="${value}"`)
		.join('')

/**
 * The HTML with each image stored here whose size is known (`sizeOf`, by hash) as a <picture>;
 * images from elsewhere get lazy loading only.
 */
export function responsiveHtml(
	html: string,
	sizeOf: (hash: string) => { width: number | null; height: number | null } | undefined,
	sizes: string,
): string {
	return html.replace(imageTag, (_tag, text: string) => {
		const attributes = readAttributes(text)
		const src = attributes.get('src') ?? ''
		const stored = parseMediaUrl(src)
		const size = stored ? sizeOf(stored.hash) : undefined
		const offered = size && pictureSources({ url: src, width: size.width, height: size.height })
		const kept: [string, string | undefined][] = [
			['alt', attributes.get('alt')],
			['title', attributes.get('title')],
		]
		if (!offered || !size?.width || !size.height)
			return `<img${attributesText([['src', src], ...kept, ['loading', 'lazy'], ['decoding', 'async']])}>`
		const sources = offered.sources
			.map(
				(source) =>
					`<source${attributesText([
						['type', source.type],
						['srcset', source.srcSet],
						['sizes', sizes],
					])}>`,
			)
			.join('')
		const image = `<img${attributesText([
			['src', offered.src],
			['srcset', offered.srcSet],
			['sizes', sizes],
			...kept,
			['width', size.width],
			['height', size.height],
			['loading', 'lazy'],
			['decoding', 'async'],
		])}>`
		return `<picture>${sources}${image}</picture>`
	})
}
