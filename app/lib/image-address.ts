// Where staff may point an image (an article's cover or shared-link image, a tag's or an author's
// picture, the site's logo): one rule for every form and the API.

/**
 * A path on this site ("/media/…", "/logo.svg") or a whole https:// address, without spaces.
 * Never javascript: or data:, nor "//host/…" (a path only in looks: it loads from any host), nor
 * http:// (the pages' Content-Security-Policy loads images from this site and https alone, so
 * such an image would never be shown).
 */
export function isImageAddress(value: string): boolean {
	if (/\s/.test(value)) return false
	if (/^\/(?![/\\])/.test(value)) return true
	return URL.canParse(value) && new URL(value).protocol === 'https:'
}
