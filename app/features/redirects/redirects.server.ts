// Following an address that moved (docs/decisions/025-redirects.md): asked only where the site
// has nothing of its own at the address, so content always wins over a redirect.
import { redirect } from 'react-router'
import type { Storage } from '#storage/port/storage.ts'
import { isShortlink, locationOf, readablePath, redirectPath } from './addresses.ts'

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
		// Typed in capitals (/tags/CLIMATE), an address that moved in lower case still moved: the
		// ones Canopy makes are all in lower case (lowerCaseAddress).
		const folded = asked.toLowerCase()
		const foldedMoved = folded === asked ? undefined : await storage.redirects.find(folded)
		if (!foldedMoved) return undefined
		const target = under ? `${foldedMoved.to}/${under.file}` : foldedMoved.to
		const to = search && !target.includes('?') ? `${target}${search}` : target
		return movedTo(to, foldedMoved.status)
	}
	const target = under ? `${moved.to}/${under.file}` : moved.to
	const to = search && !target.includes('?') ? `${target}${search}` : target
	return movedTo(to, moved.status)
}

/**
 * The request's address in lower case, when its `slug` has capitals and `found` finds what is at
 * the lower-case one: every address Canopy makes is in lower case (slugify), so /tags/Climate,
 * typed or copied from print, means /tags/climate. Undefined otherwise: an address with nothing
 * at it in any case stays a 404 (or goes home) in one answer.
 */
export async function lowerCaseAddress(
	request: Request,
	slug: string,
	found: (slug: string) => Promise<unknown>,
): Promise<Response | undefined> {
	const lower = slug.toLowerCase()
	if (lower === slug || !(await found(lower))) return undefined
	const { pathname, search } = new URL(request.url)
	return movedTo(`${readablePath(pathname).toLowerCase()}${search}`, 301)
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
