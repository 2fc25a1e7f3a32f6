// What the site answers at an address nothing else does: a request for a file (a name with an
// extension) or under /assets/ or /api/ is a real 404; anything else is a page address that goes
// home, as the original site's router did.
import { redirect } from 'react-router'

const looksLikeFile = /^\/(?:assets|api)\/|\.[a-z0-9]{1,12}$/i

export function unknownAddress(request: Request): Response {
	const { pathname } = new URL(request.url)
	if (looksLikeFile.test(pathname)) {
		return new Response('Not found', {
			status: 404,
			headers: { 'Content-Type': 'text/plain; charset=utf-8' },
		})
	}
	return redirect('/home', 302)
}
