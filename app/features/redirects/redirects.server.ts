// Following an address that moved (docs/decisions/025-redirects.md): asked only where the site
// has nothing of its own at the address, so content always wins over a redirect.
import { redirect } from 'react-router'
import type { Storage } from '#storage/port/storage.ts'

/** The answer for an address that moved, keeping its query; undefined when it did not. */
export async function movedAddress(
	storage: Storage,
	request: Request,
): Promise<Response | undefined> {
	const { pathname, search } = new URL(request.url)
	// One address, with or without a closing slash.
	const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
	const moved = await storage.redirects.find(path)
	if (!moved) return undefined
	const to = search && !moved.to.includes('?') ? `${moved.to}${search}` : moved.to
	// Public: the page cache keeps it and answers the next reader before any rendering; five
	// minutes in a browser, so an admin's change reaches readers soon.
	return redirect(to, { status: moved.status, headers: { 'Cache-Control': 'public, max-age=300' } })
}
