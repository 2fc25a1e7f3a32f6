// Below the prefixes whose addresses people share and search engines keep (/articles/…, /tags/…,
// /authors/…), an address nothing answers is a real 404, however deep (decision 045): after the
// redirects an admin added or a rename left (an old blog's /articles/2019/05/x), the 404 page.
import { data } from 'react-router'
import { movedAddress } from '#app/features/redirects/redirects.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/not-found-below'

export async function loader({ request, context }: Route.LoaderArgs) {
	const moved = await movedAddress(context.get(servicesContext).storage, request)
	if (moved) return moved
	throw data(null, { status: 404 })
}

/** Never drawn: the loader answers with a redirect, or the 404 page (root.tsx's ErrorBoundary). */
export default function NotFoundBelow() {
	return null
}
