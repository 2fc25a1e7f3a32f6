// Following an address that moved (docs/decisions/025-redirects.md): asked only where the site
// has nothing of its own at the address, so content always wins over a redirect.
import { redirect } from 'react-router'
import type { Redirect } from '#storage/port/redirects.ts'
import type { Storage } from '#storage/port/storage.ts'
import { isShortlink, locationOf, readablePath, redirectPath } from './addresses.ts'

/**
 * The answer for an address that moved, keeping its query; undefined when it did not. In order:
 * a redirect from this very address; then, typed with capitals (/tags/Climate, from a printed
 * leaflet), the same address in lower case where `lowerCase.found` finds content there (every
 * address Canopy makes is in lower case: slugify); then a redirect from the lower-case address,
 * unless it leads back to this one. `under`: the request's path is this file below the address
 * asked about (a tag's feed.xml follows the tag).
 */
export async function movedAddress(
	storage: Storage,
	request: Request,
	options: {
		under?: { base: string; file: string }
		/** The address's slug, and whether there is content at a slug. */
		lowerCase?: { slug: string; found: (slug: string) => Promise<unknown> }
	} = {},
): Promise<Response | undefined> {
	const { under, lowerCase } = options
	const { pathname, search } = new URL(request.url)
	// As redirects are stored: as readers see it (/articles/森林, not its percent-encoding).
	const asked = redirectPath(under?.base ?? pathname)
	const withQuery = (target: string) =>
		search && !target.includes('?') ? `${target}${search}` : target
	const follow = (moved: Redirect) =>
		movedTo(withQuery(under ? `${moved.to}/${under.file}` : moved.to), moved.status)
	const moved = await storage.redirects.find(asked)
	if (moved) return follow(moved)
	const folded = asked.toLowerCase()
	if (folded === asked) return undefined
	if (lowerCase) {
		const slug = lowerCase.slug.toLowerCase()
		if (slug !== lowerCase.slug && (await lowerCase.found(slug)))
			return movedTo(withQuery(readablePath(pathname).toLowerCase()), 301)
	}
	const foldedMoved = await storage.redirects.find(folded)
	// /old → /Old stored: /Old, asked, must not be sent to itself.
	if (!foldedMoved || redirectPath(foldedMoved.to.split('?')[0] ?? '') === asked) return undefined
	return follow(foldedMoved)
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
