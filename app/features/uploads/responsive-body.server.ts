// An article's or a page's stored HTML as readers get it: its images stored here as pictures
// with their versions and sizes (responsive-html.ts), read in one query.
import type { Storage } from '#storage/port/storage.ts'
import { articleImageSizes } from './picture.tsx'
import { mediaHashesIn, responsiveHtml } from './responsive-html.ts'

/**
 * Tables and code blocks scroll sideways inside the text's column on a phone: each is a stop for
 * the keyboard, so it can be scrolled without a pointer (WCAG 2.1.1). The pipeline writes both
 * tags bare, so a pattern finds them.
 */
export function focusableScrollers(html: string): string {
	return html.replace(/<(table|pre)>/g, '<$1 tabindex="0">')
}

export async function readerBodyHtml(storage: Storage, stored: string): Promise<string> {
	const html = focusableScrollers(stored)
	const hashes = mediaHashesIn(html)
	if (hashes.length === 0) return html
	const images = new Map(
		(await storage.uploads.describeMany(hashes)).map((image) => [image.hash, image]),
	)
	return responsiveHtml(html, (hash) => images.get(hash), articleImageSizes)
}
