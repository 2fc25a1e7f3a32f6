// Sending an image to the editor area's upload endpoint from the browser, with the server's
// refusal in plain words: shared by the image fields and the Markdown text's paste, drop and
// "Add an image".
import { imageTooLargeMessage } from './image-types.ts'

export interface UploadedImage {
	url: string
	width: number | null
	height: number | null
	name: string | null
	alt: string | null
}

export type UploadOutcome = { ok: true; upload: UploadedImage } | { ok: false; message: string }

interface UploadAnswer {
	upload?: UploadedImage
	errors?: { file?: string[] }
	error?: string
}

export const sessionEndedMessage =
	'You have been signed out, so the image was not uploaded. Sign in again in another tab, then choose the file again.'
export const failedMessage = 'The image could not be uploaded. Check your connection and try again.'

/** Uploads one file; an abort rejects with the signal's reason, as fetch does. */
export async function uploadImage(
	file: File,
	maxBytes: number,
	signal?: AbortSignal,
): Promise<UploadOutcome> {
	// Checked here too only to spare sending megabytes that would be refused; the server decides.
	if (file.size > maxBytes) return { ok: false, message: imageTooLargeMessage(maxBytes) }
	const body = new FormData()
	body.append('file', file)
	let response: Response
	try {
		response = await fetch('/admin/uploads', { method: 'POST', body, redirect: 'manual', signal })
	} catch (error) {
		if (signal?.aborted) throw error
		return { ok: false, message: failedMessage }
	}
	if (response.type === 'opaqueredirect' || response.status === 401)
		return { ok: false, message: sessionEndedMessage }
	let answer: UploadAnswer | undefined
	try {
		answer = (await response.json()) as UploadAnswer
	} catch {
		answer = undefined
	}
	if (response.ok && answer?.upload) return { ok: true, upload: answer.upload }
	if (!answer)
		return {
			ok: false,
			message: response.status === 413 ? imageTooLargeMessage(maxBytes) : failedMessage,
		}
	return { ok: false, message: answer.errors?.file?.[0] ?? answer.error ?? failedMessage }
}
