import { editorContext } from '#app/features/auth/session.server.ts'
import { storeUpload } from '#app/features/uploads/uploads.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/uploads'

// The editor area's image upload (the upload field posts here with fetch). The layout's
// middleware has already turned away anyone not signed in.
const noFileMessage = 'Choose an image to upload.'

function refuse(status: number, message: string) {
	return Response.json({ errors: { file: [message] } }, { status })
}

export async function action({ request, context }: Route.ActionArgs) {
	if (request.method !== 'POST') {
		return Response.json(
			{ error: 'Images are uploaded with POST.' },
			{ status: 405, headers: { Allow: 'POST' } },
		)
	}
	let form: FormData
	try {
		form = await request.formData()
	} catch {
		return refuse(400, noFileMessage)
	}
	const file = form.get('file')
	// A form sent with no file chosen carries an empty, nameless one.
	if (!(file instanceof File) || (file.size === 0 && file.name === '')) {
		return refuse(400, noFileMessage)
	}
	const bytes = new Uint8Array(await file.arrayBuffer())
	const result = await storeUpload(context.get(servicesContext), bytes, {
		createdBy: context.get(editorContext).id,
		name: file.name,
	})
	if (!result.ok) return refuse(result.status, result.message)
	return Response.json({ upload: result.upload }, { status: 201 })
}

export function loader() {
	return Response.json(
		{ error: 'Images are uploaded with POST.' },
		{ status: 405, headers: { Allow: 'POST' } },
	)
}
