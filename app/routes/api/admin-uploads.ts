// POST /api/admin/uploads: stores an image (multipart field `file`, or the image as the raw body)
// and answers 201 with its content-hash address, for use as an article's cover or in Markdown.

import {
	apiError,
	methodNotAllowed,
	withApiCaller,
} from '#app/features/api-keys/api-http.server.ts'
import { storeUpload } from '#app/features/uploads/uploads.server.ts'
import type { Route } from './+types/admin-uploads'

const allow = ['POST']

async function requestBytes(request: Request): Promise<Uint8Array | Response> {
	const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? ''
	if (type === 'multipart/form-data') {
		const form = await request.formData().catch(() => null)
		const file = form?.get('file')
		if (!(file instanceof File))
			return apiError(400, 'Send the image in a multipart field named `file`.', {
				errors: { file: ['Choose an image file to upload.'] },
			})
		return new Uint8Array(await file.arrayBuffer())
	}
	// Any other type: the body is the image; its bytes, not this header, decide what it is.
	return new Uint8Array(await request.arrayBuffer())
}

export function loader({ context, request }: Route.LoaderArgs) {
	return withApiCaller(context, request, () => methodNotAllowed(request, allow))
}

export function action({ context, request }: Route.ActionArgs) {
	return withApiCaller(context, request, async (services) => {
		const { caller, siteUrl } = services
		if (request.method !== 'POST') return methodNotAllowed(request, allow)
		const bytes = await requestBytes(request)
		if (bytes instanceof Response) return bytes
		const stored = await storeUpload(services, bytes, { createdBy: caller.userId })
		if (!stored.ok)
			return apiError(stored.status, stored.message, { errors: { file: [stored.message] } })
		const { upload } = stored
		return Response.json(
			{ upload: { ...upload, absoluteUrl: new URL(upload.url, siteUrl).toString() } },
			{ status: 201, headers: { Location: upload.url } },
		)
	})
}
