import { isImageMime } from '#app/features/uploads/image-types.ts'
import { parseVersionFile, plannedVersions } from '#app/features/uploads/responsive-image.ts'
import { imageUrl, readImage } from '#app/features/uploads/uploads.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/media'

// An image's address is its content's hash, and a version's is its image's hash with its width
// (decision 023), so the bytes behind a URL never change: browsers and proxies may keep them for
// good. A version not made yet sends the browser to the image itself, for now only. (nosniff and
// the CSP come from the server for every response.)
const cacheControl = 'public, max-age=31536000, immutable'

const notFound = () =>
	new Response('There is no image at this address.', {
		status: 404,
		headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
	})

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const wanted = parseVersionFile(params.file)
	if (wanted) {
		const made = await storage.uploads.getVersion(wanted.hash, wanted.width, wanted.mime)
		if (made) return imageResponse(request, made.version.hash, made.version.mime, made.bytes)
		const image = await storage.uploads.describe(wanted.hash)
		const planned =
			image?.width &&
			isImageMime(image.mime) &&
			plannedVersions(image.width, image.mime).some(
				(version) => version.width === wanted.width && version.mime === wanted.mime,
			)
		if (!image || !planned || !isImageMime(image.mime)) return notFound()
		return new Response(null, {
			status: 307,
			headers: { Location: imageUrl(image.hash, image.mime), 'Cache-Control': 'no-store' },
		})
	}
	const image = await readImage(storage, params.file)
	if (!image) return notFound()
	return imageResponse(request, image.meta.hash, image.meta.mime, image.bytes)
}

function imageResponse(request: Request, hash: string, mime: string, bytes: Uint8Array) {
	const etag = `"${hash}"`
	const headers = new Headers({ 'Cache-Control': cacheControl, ETag: etag })
	if (matchesEtag(request.headers.get('if-none-match'), etag)) {
		return new Response(null, { status: 304, headers })
	}
	headers.set('Content-Type', mime)
	headers.set('Content-Length', String(bytes.byteLength))
	// Both database drivers hand back bytes over a plain ArrayBuffer, never a shared one.
	const body = bytes as Uint8Array<ArrayBuffer>
	return new Response(request.method === 'HEAD' ? null : body, { headers })
}

function matchesEtag(header: string | null, etag: string): boolean {
	if (!header) return false
	if (header.trim() === '*') return true
	return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
