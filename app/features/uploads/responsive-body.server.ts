// An article's or a page's stored HTML as readers get it: its images stored here as pictures
// with their versions and sizes (responsive-html.ts), read in one query.
import type { Storage } from '#storage/port/storage.ts'
import { articleImageSizes } from './picture.tsx'
import { mediaHashesIn, responsiveHtml } from './responsive-html.ts'

export async function readerBodyHtml(storage: Storage, html: string): Promise<string> {
	const hashes = mediaHashesIn(html)
	if (hashes.length === 0) return html
	const images = new Map(
		(await storage.uploads.describeMany(hashes)).map((image) => [image.hash, image]),
	)
	return responsiveHtml(html, (hash) => images.get(hash), articleImageSizes)
}
