// Addresses as people read them and as HTTP carries them: /articles/森林 and
// /articles/%E6%A3%AE%E6%9E%97 are one address (decision 033).

/** A path as people read it: percent-encoded letters decoded (NFC); left as is where malformed. */
export function readablePath(path: string): string {
	try {
		return decodeURI(path).normalize('NFC')
	} catch {
		return path
	}
}

/**
 * An address as redirects are stored and looked up: readable (readablePath), and one address
 * with or without a closing slash.
 */
export function redirectPath(path: string): string {
	const readable = readablePath(path)
	return readable.length > 1 ? readable.replace(/\/+$/, '') : readable
}

/** A Location header's value: HTTP headers carry ASCII only, so other letters are encoded. */
export function locationOf(address: string): string {
	if (/^[\x21-\x7e]*$/.test(address)) return address
	if (!address.startsWith('/')) return new URL(address).href
	const url = new URL(address, 'http://canopy.invalid')
	return `${url.pathname}${url.search}${url.hash}`
}

/**
 * WordPress's addresses of a post or page by its number (`/?p=123`, `/?page_id=45`): its
 * shortlinks, and every link of a site with plain permalinks. A site moved in from WordPress
 * keeps them as redirects, and the home page follows them (movedShortlink).
 */
export function isShortlink(address: string): boolean {
	return /^\/\?(p|page_id)=\d{1,18}$/.test(address)
}
