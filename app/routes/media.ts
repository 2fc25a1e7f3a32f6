import { readImage } from '#app/features/uploads/uploads.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/media'

// An image's address is its content's hash, so the bytes behind a URL never change: browsers and
// proxies may keep them for good. (nosniff and the CSP come from the server for every response.)
const cacheControl = 'public, max-age=31536000, immutable'

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const image = await readImage(storage, params.file)
	if (!image) {
		return new Response('There is no image at this address.', {
			status: 404,
			headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
		})
	}
	const etag = `"${image.meta.hash}"`
	const headers = new Headers({ 'Cache-Control': cacheControl, ETag: etag })
	if (matchesEtag(request.headers.get('if-none-match'), etag)) {
		return new Response(null, { status: 304, headers })
	}
	headers.set('Content-Type', image.meta.mime)
	headers.set('Content-Length', String(image.bytes.byteLength))
	// Both database drivers hand back bytes over a plain ArrayBuffer, never a shared one.
	const body = image.bytes as Uint8Array<ArrayBuffer>
	return new Response(request.method === 'HEAD' ? null : body, { headers })
}

function matchesEtag(header: string | null, etag: string): boolean {
	if (!header) return false
	if (header.trim() === '*') return true
	return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
