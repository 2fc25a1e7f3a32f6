// Following an address that moved (docs/decisions/025-redirects.md): asked only where the site
// has nothing of its own at the address, so content always wins over a redirect.
import { redirect } from 'react-router'
import type { Storage } from '#storage/port/storage.ts'
import { isShortlink, locationOf, redirectPath } from './addresses.ts'

/**
 * The answer for an address that moved, keeping its query; undefined when it did not. `under`:
 * the request's path is this file below the address asked about (a tag's feed.xml follows the
 * tag).
 */
export async function movedAddress(
	storage: Storage,
	request: Request,
	under?: { base: string; file: string },
): Promise<Response | undefined> {
	const { pathname, search } = new URL(request.url)
	// As redirects are stored: as readers see it (/articles/森林, not its percent-encoding).
	const asked = redirectPath(under?.base ?? pathname)
	const moved = await storage.redirects.find(asked)
	if (!moved) {
		// Every address Canopy makes is in lower case (slugify): /tags/Climate, typed or copied
		// from a print-out, means /tags/climate. A redirect stored for the capitalised address
		// (above) still wins.
		const folded = asked.toLowerCase()
		if (folded === asked) return undefined
		// In one hop where the lower-case address moved too.
		const foldedMoved = await storage.redirects.find(folded)
		const base = foldedMoved?.to ?? folded
		const target = under ? `${base}/${under.file}` : base
		const to = search && !target.includes('?') ? `${target}${search}` : target
		return movedTo(to, foldedMoved?.status ?? 301)
	}
	const target = under ? `${moved.to}/${under.file}` : moved.to
	const to = search && !target.includes('?') ? `${target}${search}` : target
	return movedTo(to, moved.status)
}

/**
 * The home page asked with WordPress's `?p=123` or `?page_id=45`: the post or page moved in from
 * it, when one was (the other parameters dropped); undefined otherwise.
 */
export async function movedShortlink(
	storage: Storage,
	request: Request,
): Promise<Response | undefined> {
	const { pathname, searchParams } = new URL(request.url)
	if (pathname !== '/') return undefined
	for (const name of ['p', 'page_id']) {
		const from = `/?${name}=${searchParams.get(name) ?? ''}`
		if (!isShortlink(from)) continue
		const moved = await storage.redirects.find(from)
		if (moved) return movedTo(moved.to, moved.status)
	}
	return undefined
}

// Public: the page cache keeps it and answers the next reader before any rendering; five minutes
// in a browser, so an admin's change reaches readers soon.
function movedTo(to: string, status: number): Response {
	return redirect(locationOf(to), { status, headers: { 'Cache-Control': 'public, max-age=300' } })
}
