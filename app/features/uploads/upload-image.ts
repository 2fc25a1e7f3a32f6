// Sending an image to the editor area's upload endpoint from the browser, with the server's
// refusal in plain words: shared by the image fields and the Markdown text's paste, drop and
// "Add an image".
import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { schemaMessage } from '#app/components/ui/field.tsx'
import { inMegabytes } from './image-types.ts'

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

export const sessionEndedMessage = msg`You have been signed out, so the image was not uploaded. Sign in again in another tab, then choose the file again.`
export const failedMessage = msg`The image could not be uploaded. Check your connection and try again.`

/** As the server says it (image-types.ts), in the interface's language. */
function tooLarge(i18n: I18n, maxBytes: number): string {
	const megabytes = i18n.number(inMegabytes(maxBytes))
	return i18n._(
		msg`This image is larger than ${megabytes} MB. Make it smaller (fewer pixels or more compression) and upload it again.`,
	)
}

/**
 * Uploads one file; an abort rejects with the signal's reason, as fetch does. A refusal's message
 * is in the interface's language (the server's own, English, where the catalogue has no message
 * for it).
 */
export async function uploadImage(
	file: File,
	maxBytes: number,
	i18n: I18n,
	signal?: AbortSignal,
): Promise<UploadOutcome> {
	// Checked here too only to spare sending megabytes that would be refused; the server decides.
	if (file.size > maxBytes) return { ok: false, message: tooLarge(i18n, maxBytes) }
	const body = new FormData()
	body.append('file', file)
	let response: Response
	try {
		response = await fetch('/admin/uploads', { method: 'POST', body, redirect: 'manual', signal })
	} catch (error) {
		if (signal?.aborted) throw error
		return { ok: false, message: i18n._(failedMessage) }
	}
	if (response.type === 'opaqueredirect' || response.status === 401)
		return { ok: false, message: i18n._(sessionEndedMessage) }
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
			message: response.status === 413 ? tooLarge(i18n, maxBytes) : i18n._(failedMessage),
		}
	const refusal = answer.errors?.file?.[0] ?? answer.error
	return { ok: false, message: refusal ? schemaMessage(i18n, refusal) : i18n._(failedMessage) }
}
