import { redirect } from 'react-router'
import type { Route } from './+types/catch-all'

// A request for a file (a name with an extension) or under /assets/ or /api/ that nothing
// answered is a real 404; anything else is a page address that goes home.
const looksLikeFile = /^\/(?:assets|api)\/|\.[a-z0-9]{1,12}$/i

export function loader({ request }: Route.LoaderArgs) {
	const { pathname } = new URL(request.url)
	if (looksLikeFile.test(pathname)) {
		return new Response('Not found', {
			status: 404,
			headers: { 'Content-Type': 'text/plain; charset=utf-8' },
		})
	}
	return redirect('/home', 302)
}
